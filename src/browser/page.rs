//! Facts about the page: user agent, cores, visibility, the URL. Window only.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;

fn window() -> web_sys::Window {
    web_sys::window().expect("page code runs in a window")
}

/// `navigator.userAgent`.
pub fn user_agent() -> String {
    window().navigator().user_agent().unwrap_or_default()
}

/// `navigator.hardwareConcurrency`.
pub fn hardware_concurrency() -> u32 {
    window().navigator().hardware_concurrency() as u32
}

/// Whether the page is hidden (background tab, minimized window).
pub fn is_hidden() -> bool {
    window().document().is_some_and(|d| d.hidden())
}

/// Calls `f` whenever the page's visibility changes, until the returned
/// guard is dropped.
pub struct VisibilityListener {
    closure: Closure<dyn FnMut()>,
}

impl VisibilityListener {
    /// Starts listening.
    pub fn new(mut f: impl FnMut(bool) + 'static) -> Self {
        let closure = Closure::<dyn FnMut()>::new(move || f(is_hidden()));
        if let Some(d) = window().document() {
            let _ = d.add_event_listener_with_callback(
                "visibilitychange",
                closure.as_ref().unchecked_ref(),
            );
        }
        Self { closure }
    }
}

impl Drop for VisibilityListener {
    fn drop(&mut self) {
        if let Some(d) = window().document() {
            let _ = d.remove_event_listener_with_callback(
                "visibilitychange",
                self.closure.as_ref().unchecked_ref(),
            );
        }
    }
}
