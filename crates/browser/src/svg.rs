//! The DOM of a drawing (`waitlab_core::svg`): one builder for every
//! chart's elements. Window only.

use crate::js_error_message;
use waitlab_core::svg::Node;

pub(crate) const SVG_NS: &str = "http://www.w3.org/2000/svg";

/// `node` and its children as SVG elements of the page's document. Text
/// is set as text content, never parsed as markup.
fn element(node: &Node) -> Result<web_sys::Element, String> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    build(&document, node).map_err(|e| js_error_message(&e))
}

/// Draws `node` as the first child of `frame`, in place of the drawing
/// there (a view rebuilt with new data draws into the same frame).
pub fn draw_first(frame: &web_sys::Element, node: &Node) -> Result<(), String> {
    let drawing = element(node)?;
    match frame.first_element_child() {
        Some(old) if old.tag_name() == node.tag => old.replace_with_with_node_1(&drawing),
        _ => frame.prepend_with_node_1(&drawing),
    }
    .map_err(|e| js_error_message(&e))
}

fn build(
    document: &web_sys::Document,
    node: &Node,
) -> Result<web_sys::Element, wasm_bindgen::JsValue> {
    let el = document.create_element_ns(Some(SVG_NS), node.tag)?;
    for (name, value) in &node.attrs {
        el.set_attribute(name, value)?;
    }
    if let Some(text) = &node.text {
        el.set_text_content(Some(text));
    }
    for child in &node.children {
        let child = build(document, child)?;
        el.append_child(&child)?;
    }
    Ok(el)
}
