//! A drawn chart as a file: its SVG with the reader's colours written into
//! it, and a PNG of that SVG. Window only.
//!
//! The page draws charts with classes that its style sheet colours through
//! the scheme's variables; a file carries no style sheet, so each element's
//! computed paint and type is copied into its presentation attributes
//! (`fill`, `stroke`, …), and the card's background goes behind the chart.
//! Attributes, not a `style`: the PNG is drawn from the SVG through a
//! `blob:` URL, which keeps the page's Content-Security-Policy, and that
//! refuses inline styles.

use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::Closure;

use crate::js_error_message;

/// The properties a chart's look depends on.
const PAINT: [&str; 13] = [
    "fill",
    "fill-opacity",
    "stroke",
    "stroke-width",
    "stroke-dasharray",
    "stroke-linecap",
    "stroke-linejoin",
    "stroke-opacity",
    "opacity",
    "paint-order",
    "font-family",
    "font-size",
    "font-weight",
];

use crate::svg::SVG_NS;

/// A chart to save: its SVG markup and drawn size in CSS pixels.
pub struct ChartFile {
    /// The SVG document.
    pub markup: String,
    /// Width, px.
    pub width: f64,
    /// Height, px.
    pub height: f64,
}

fn err(e: JsValue) -> String {
    js_error_message(&e)
}

/// The first `svg` in `frame`, as a standalone SVG document in the colours
/// it is drawn in.
pub fn svg_of(frame: &web_sys::Element) -> Result<ChartFile, String> {
    let window = web_sys::window().ok_or("no window")?;
    let svg = frame
        .query_selector("svg")
        .map_err(err)?
        .ok_or("no chart to save")?;
    let rect = svg.get_bounding_client_rect();
    let copy: web_sys::Element = svg
        .clone_node_with_deep(true)
        .map_err(err)?
        .unchecked_into();
    let originals = svg.query_selector_all("*").map_err(err)?;
    let copies = copy.query_selector_all("*").map_err(err)?;
    for (original, copied) in std::iter::once((svg.clone(), copy.clone())).chain(
        (0..originals.length()).filter_map(|i| {
            Some((
                originals.item(i)?.dyn_into().ok()?,
                copies.item(i)?.dyn_into().ok()?,
            ))
        }),
    ) {
        let style = window
            .get_computed_style(&original)
            .map_err(err)?
            .ok_or("no computed style")?;
        for p in PAINT {
            let v = style.get_property_value(p).map_err(err)?;
            if !v.is_empty() {
                copied.set_attribute(p, &v).map_err(err)?;
            }
        }
        copied.remove_attribute("class").map_err(err)?;
    }
    let background = frame
        .closest(".card")
        .ok()
        .flatten()
        .and_then(|card| window.get_computed_style(&card).ok().flatten())
        .and_then(|s| s.get_property_value("background-color").ok())
        .unwrap_or_else(|| "white".into());
    let document = window.document().ok_or("no document")?;
    let backdrop = document
        .create_element_ns(Some(SVG_NS), "rect")
        .map_err(err)?;
    for (name, value) in [
        ("x", "-10000"),
        ("y", "-10000"),
        ("width", "20000"),
        ("height", "20000"),
    ] {
        backdrop.set_attribute(name, value).map_err(err)?;
    }
    backdrop.set_attribute("fill", &background).map_err(err)?;
    copy.prepend_with_node_1(&backdrop).map_err(err)?;
    copy.set_attribute("xmlns", SVG_NS).map_err(err)?;
    // Sizes written by core's one float formatter (Display for f64 would
    // bring its own into the wasm).
    for (name, px) in [("width", rect.width()), ("height", rect.height())] {
        copy.set_attribute(name, &waitlab_core::number::fixed(px, 0))
            .map_err(err)?;
    }
    let markup = web_sys::XmlSerializer::new()
        .map_err(err)?
        .serialize_to_string(&copy)
        .map_err(err)?;
    Ok(ChartFile {
        markup,
        width: rect.width(),
        height: rect.height(),
    })
}

/// `chart` drawn at `scale` times its size into a PNG.
pub async fn png_of(chart: &ChartFile, scale: f64) -> Result<web_sys::Blob, String> {
    let window = web_sys::window().ok_or("no window")?;
    let document = window.document().ok_or("no document")?;
    let svg = crate::page::blob(&chart.markup, "image/svg+xml")?;
    let url = web_sys::Url::create_object_url_with_blob(&svg).map_err(err)?;
    let image = web_sys::HtmlImageElement::new().map_err(err)?;
    let loaded = js_sys::Promise::new(&mut |resolve, reject| {
        image.set_onload(Some(&resolve));
        image.set_onerror(Some(&reject));
    });
    image.set_src(&url);
    let drawn = wasm_bindgen_futures::JsFuture::from(loaded).await;
    let _ = web_sys::Url::revoke_object_url(&url);
    drawn.map_err(|_| "the browser could not draw the chart's SVG".to_owned())?;
    let canvas: web_sys::HtmlCanvasElement = document
        .create_element("canvas")
        .map_err(err)?
        .unchecked_into();
    canvas.set_width((chart.width * scale).round() as u32);
    canvas.set_height((chart.height * scale).round() as u32);
    let context: web_sys::CanvasRenderingContext2d = canvas
        .get_context("2d")
        .map_err(err)?
        .ok_or("no 2d canvas")?
        .unchecked_into();
    context
        .draw_image_with_html_image_element_and_dw_and_dh(
            &image,
            0.0,
            0.0,
            f64::from(canvas.width()),
            f64::from(canvas.height()),
        )
        .map_err(err)?;
    let png = js_sys::Promise::new(&mut |resolve, reject| {
        let refuse = reject.clone();
        let done = Closure::once_into_js(move |blob: JsValue| {
            let _ = if blob.is_null() {
                refuse.call1(&JsValue::NULL, &JsValue::from_str("no PNG"))
            } else {
                resolve.call1(&JsValue::NULL, &blob)
            };
        });
        if let Err(e) = canvas.to_blob(done.unchecked_ref()) {
            let _ = reject.call1(&JsValue::NULL, &e);
        }
    });
    wasm_bindgen_futures::JsFuture::from(png)
        .await
        .map(JsCast::unchecked_into)
        .map_err(err)
}
