//! `fetch` of a same-origin file as bytes, with every failure as a
//! message, and never a hang: a response that does not come is given up on.

use super::js_error_message;
use futures::future::{Either, select};
use gloo_timers::future::TimeoutFuture;
use waitlab_core::key;
use waitlab_core::text::{Key, Phrase};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The body of `url` (relative to the page), or why it could not be read.
/// Main thread only.
pub async fn fetch_bytes(url: &str) -> Result<Vec<u8>, Phrase> {
    let failed =
        |key: Key, detail: String| Phrase::new(key).data("url", url).data("detail", detail);
    let window = web_sys::window().ok_or_else(|| failed(key!("fetch.no_window"), String::new()))?;
    let asked = fetched_early(url).unwrap_or_else(|| window.fetch_with_str(url));
    let response = JsFuture::from(asked)
        .await
        .map_err(|e| failed(key!("fetch.failed"), js_error_message(&e)))?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| failed(key!("fetch.no_response"), String::new()))?;
    if !response.ok() {
        return Err(Phrase::new(key!("fetch.http"))
            .data("url", url)
            .count("status", response.status()));
    }
    let unreadable =
        |e: wasm_bindgen::JsValue| failed(key!("fetch.unreadable"), js_error_message(&e));
    let body = JsFuture::from(response.array_buffer().map_err(unreadable)?)
        .await
        .map_err(unreadable)?;
    Ok(js_sys::Uint8Array::new(&body).to_vec())
}

/// The response to `url` that the head's script asked for before the page
/// was read (`window.waitlabFetched`, by the same relative address: the
/// page's texts in the reader's language), taken once: its body can be
/// read once.
fn fetched_early(url: &str) -> Option<js_sys::Promise> {
    let early = crate::global_property("waitlabFetched")?;
    let url = wasm_bindgen::JsValue::from_str(url);
    let asked = js_sys::Reflect::get(&early, &url)
        .ok()
        .filter(|p| !p.is_undefined())?;
    js_sys::Reflect::delete_property(early.unchecked_ref::<js_sys::Object>(), &url).ok()?;
    Some(asked.unchecked_into())
}

/// [`fetch_bytes`] that calls `on_slow` once if `url` has not arrived
/// after `slow_ms`, and gives up after `limit_ms`.
pub async fn fetch_bytes_within(
    url: &str,
    slow_ms: u32,
    limit_ms: u32,
    on_slow: impl FnOnce(),
) -> Result<Vec<u8>, Phrase> {
    let fetch = Box::pin(fetch_bytes(url));
    let fetch = match select(fetch, TimeoutFuture::new(slow_ms)).await {
        Either::Left((result, _)) => return result,
        Either::Right((_, fetch)) => fetch,
    };
    on_slow();
    match select(fetch, TimeoutFuture::new(limit_ms.saturating_sub(slow_ms))).await {
        Either::Left((result, _)) => result,
        Either::Right(_) => Err(Phrase::new(key!("fetch.too_slow"))
            .data("url", url)
            .count("seconds", limit_ms / 1000)),
    }
}
