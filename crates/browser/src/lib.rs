//! waitlab-browser: the browser glue that the page and the probe worker
//! share. Thin wrappers over web-sys and js-sys (the clock, timers and
//! yields, shared memory, the worker host, page facts) and the probes that
//! time each mechanism sample by sample, and the probe worker itself
//! ([`worker`]). No Leptos here, so the browser-layer tests never compile
//! it, and nothing that decides what a number means (that is
//! waitlab-core's job).
//!
//! Every function works in a window and in a dedicated worker unless its
//! docs say otherwise.

pub mod catalog;
pub mod chart_file;
pub mod clock;
pub mod deflate;
pub mod fetch;
pub mod links;
pub mod location;
pub mod memory;
pub mod own_wait;
pub mod page;
pub mod probes;
pub mod svg;
pub mod timeline;
pub mod trace;
pub mod wait;
pub mod worker;
pub mod worker_host;
mod worker_scope;

use wasm_bindgen::{JsCast, JsValue};

/// A property of the global object (window or worker scope), if present
/// and not `undefined`.
pub fn global_property(name: &str) -> Option<JsValue> {
    js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str(name))
        .ok()
        .filter(|v| !v.is_undefined() && !v.is_null())
}

/// A readable message for a thrown JavaScript value.
pub fn js_error_message(err: &JsValue) -> String {
    if let Some(e) = err.dyn_ref::<js_sys::Error>() {
        String::from(e.message())
    } else if let Some(s) = err.as_string() {
        s
    } else {
        // Whatever else was thrown, as JavaScript would print it.
        String::from(js_sys::JsString::from(err.clone()))
    }
}

/// `bytes` in a `Uint8Array` of their own, whose buffer a `postMessage` can
/// transfer instead of copying.
pub fn transferable(bytes: &[u8]) -> js_sys::Uint8Array {
    js_sys::Uint8Array::from(bytes)
}
