//! `fetch` of a same-origin text file, with every failure as a message,
//! and never a hang: a response that does not come is given up on.

use super::js_error_message;
use futures::future::{Either, select};
use gloo_timers::future::TimeoutFuture;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The body of `url` (relative to the page), or why it could not be read.
/// Main thread only.
pub async fn fetch_text(url: &str) -> Result<String, String> {
    let window = web_sys::window().ok_or("fetch needs a window")?;
    let response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|e| format!("could not fetch {url}: {}", js_error_message(&e)))?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| format!("fetch of {url} did not return a response"))?;
    if !response.ok() {
        return Err(format!(
            "{url} could not be loaded (HTTP {})",
            response.status()
        ));
    }
    let body = response
        .text()
        .map_err(|e| format!("could not read {url}: {}", js_error_message(&e)))?;
    JsFuture::from(body)
        .await
        .map_err(|e| format!("could not read {url}: {}", js_error_message(&e)))?
        .as_string()
        .ok_or_else(|| format!("{url} is not text"))
}

/// [`fetch_text`] that calls `on_slow` once if `url` has not arrived
/// after `slow_ms`, and gives up after `limit_ms`.
pub async fn fetch_text_within(
    url: &str,
    slow_ms: u32,
    limit_ms: u32,
    on_slow: impl FnOnce(),
) -> Result<String, String> {
    let fetch = Box::pin(fetch_text(url));
    let fetch = match select(fetch, TimeoutFuture::new(slow_ms)).await {
        Either::Left((result, _)) => return result,
        Either::Right((_, fetch)) => fetch,
    };
    on_slow();
    match select(fetch, TimeoutFuture::new(limit_ms.saturating_sub(slow_ms))).await {
        Either::Left((result, _)) => result,
        Either::Right(_) => Err(format!("{url} did not arrive within {} s", limit_ms / 1000)),
    }
}
