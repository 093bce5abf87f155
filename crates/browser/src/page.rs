//! Facts about the page: user agent, cores, visibility, the URL. Window only.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{JsCast, JsValue};

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

/// Whether an element matches `selector`.
pub fn exists(selector: &str) -> bool {
    top_of(selector).is_some()
}

/// How far the page is scrolled down, CSS px.
fn scroll_y() -> f64 {
    window().scroll_y().unwrap_or(0.0)
}

/// Where the first element `selector` matches begins, in CSS px from the
/// top of the window, if there is one.
fn top_of(selector: &str) -> Option<f64> {
    let element = window().document()?.query_selector(selector).ok()??;
    Some(element.get_bounding_client_rect().top())
}

/// Scrolls the first element `selector` matches into view, and keeps it
/// there while what is above it comes in (forms and comparisons made as the
/// page passes them, a summary filling in: WebKit keeps no scroll anchor,
/// and a loaded machine fetches their chunks slowly): until two seconds
/// have passed with nothing to correct (six at most), or the reader
/// scrolls. `false` if there is no such element.
pub async fn scroll_and_keep(selector: &str) -> bool {
    if !scroll_to(selector) {
        return false;
    }
    // The reader's own scrolling (wheel, touch, keys, the scrollbar) wins.
    let reader = std::rc::Rc::new(std::cell::Cell::new(false));
    let _listeners = ["wheel", "touchmove", "keydown", "pointerdown"].map(|event| {
        let reader = reader.clone();
        EventListener::new(window().into(), event, move || reader.set(true))
    });
    // Where the scroll left it: at the top, or lower where the page ends
    // too soon below it to bring it up (the last section).
    let here = || (scroll_y(), top_of(selector).unwrap_or(0.0));
    let far = window()
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(800.0)
        / 2.0;
    let started = crate::clock::now();
    let ((mut landed, mut top), mut settled) = (here(), started);
    while crate::clock::now() - settled < 2000.0 && crate::clock::now() - started < 6000.0 {
        crate::wait::animation_frame_within(100).await;
        let (y, now_top) = here();
        // A scroll that takes it far away is someone else's (the reader's
        // scrollbar, a script); one that moves it a little, or not at
        // all, is the browser keeping its anchor as content comes in.
        if reader.get() || (y != landed && (now_top - top).abs() > far) {
            break;
        }
        if (now_top - top).abs() > 2.0 {
            scroll_to(selector);
            ((landed, top), settled) = (here(), crate::clock::now());
        } else {
            landed = y;
        }
    }
    true
}

/// Lands on the first element `selector` matches ([`scroll_and_keep`])
/// once it is there and `ready` holds, looking each animation frame for
/// about six seconds (the app mounts its sections, and fills what is
/// above them, after the browser has tried the address's fragment).
pub async fn land_on(selector: &str, ready: impl Fn() -> bool) {
    for _ in 0..60 {
        crate::wait::animation_frame_within(100).await;
        if ready() && scroll_and_keep(selector).await {
            return;
        }
    }
}

/// Scrolls the first element `selector` matches (an experiment's
/// section, the summary) into view, as a link to it would without
/// touching the fragment (which holds result links); `false` if there is
/// none yet.
fn scroll_to(selector: &str) -> bool {
    let found = window()
        .document()
        .and_then(|d| d.query_selector(selector).ok().flatten());
    found.map(|element| element.scroll_into_view()).is_some()
}

/// Whether the page is hidden (background tab, minimized window).
pub fn is_hidden() -> bool {
    window().document().is_some_and(|d| d.hidden())
}

/// An event listener that is removed when dropped.
pub struct EventListener {
    target: web_sys::EventTarget,
    event: &'static str,
    closure: Closure<dyn FnMut()>,
}

impl EventListener {
    /// Calls `f` on every `event` at `target` until dropped.
    pub fn new(
        target: web_sys::EventTarget,
        event: &'static str,
        f: impl FnMut() + 'static,
    ) -> Self {
        let closure = Closure::<dyn FnMut()>::new(f);
        let _ = target.add_event_listener_with_callback(event, closure.as_ref().unchecked_ref());
        Self {
            target,
            event,
            closure,
        }
    }

    /// Calls `f(hidden)` whenever the page's visibility changes.
    pub fn visibility(mut f: impl FnMut(bool) + 'static) -> Self {
        let document = window().document().expect("a window has a document");
        Self::new(document.into(), "visibilitychange", move || f(is_hidden()))
    }

    /// Calls `f` whenever the page's fragment changes without a reload (a
    /// link pasted into the address bar of an open page, back and forward).
    pub fn hash_change(f: impl FnMut() + 'static) -> Self {
        Self::new(window().into(), "hashchange", f)
    }

    /// Calls `f` when `head.js` has given up on isolating the page (see
    /// [`isolation_problem`]).
    pub fn isolation_problem(f: impl FnMut() + 'static) -> Self {
        Self::new(window().into(), "waitlab:coi", f)
    }
}

impl Drop for EventListener {
    fn drop(&mut self) {
        let _ = self
            .target
            .remove_event_listener_with_callback(self.event, self.closure.as_ref().unchecked_ref());
    }
}

/// Lays the page out now (reading a layout property forces style and
/// layout), so a measurement that ends here includes them.
pub fn force_layout() {
    if let Some(body) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    {
        let _ = body.offset_height();
    }
}

/// Adds the stylesheet at `href` to the page, once (its `id` says it is
/// there): the styles of a view that comes later than the first load come
/// with it (a `<link rel=stylesheet>` in the body is one browsers apply).
pub fn add_stylesheet(id: &str, href: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if document.get_element_by_id(id).is_some() {
        return;
    }
    let (Ok(link), Some(body)) = (document.create_element("link"), document.body()) else {
        return;
    };
    for (name, value) in [("id", id), ("rel", "stylesheet"), ("href", href)] {
        let _ = link.set_attribute(name, value);
    }
    let _ = body.append_child(&link);
}

/// Whether the `<details>` an event (its `toggle`) came from is open.
pub fn is_open(event: &web_sys::Event) -> bool {
    event
        .target()
        .and_then(|t| js_sys::Reflect::get(&t, &wasm_bindgen::JsValue::from_str("open")).ok())
        .is_some_and(|open| open.is_truthy())
}

/// Removes the element with id `id`, if there is one.
pub fn remove_element(id: &str) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
    {
        el.remove();
    }
}

/// Whether the page's root element has the attribute `name`, which this
/// removes: a one-time request from the page's script to the app.
pub fn take_root_flag(name: &str) -> bool {
    let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    else {
        return false;
    };
    let had = root.has_attribute(name);
    if had {
        let _ = root.remove_attribute(name);
    }
    had
}

/// Puts `message` on an empty page as text (when the app cannot start).
pub fn show_fatal(message: &str) {
    if let Some(body) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    {
        body.set_text_content(Some(message));
    }
}

/// The reader's colour scheme, as `index.html`'s head script keeps it:
/// `auto` (the browser's preference), `light` or `dark`.
pub fn scheme_choice() -> String {
    window()
        .document()
        .and_then(|d| d.document_element())
        .and_then(|html| html.get_attribute("data-scheme-choice"))
        .unwrap_or_else(|| "auto".to_owned())
}

/// Shows the page in the colour scheme `choice` (`auto`, `light` or
/// `dark`) and remembers it, through the head script's `waitlabScheme`.
pub fn choose_scheme(choice: &str) {
    if let Some(f) =
        super::global_property("waitlabScheme").and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    {
        let _ = f.call1(&JsValue::NULL, &JsValue::from_str(choice));
    }
}

/// `text` as a blob of type `mime`.
pub fn blob(text: &str, mime: &str) -> Result<web_sys::Blob, String> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|e| super::js_error_message(&e))
}

/// Offers `text` as a file named `name` of type `mime` to download.
pub fn download(name: &str, mime: &str, text: &str) -> Result<(), String> {
    download_blob(name, &blob(text, mime)?)
}

/// Offers `blob` as a file named `name` to download (behind a clicked
/// link, let go of once the browser has taken it).
pub fn download_blob(name: &str, blob: &web_sys::Blob) -> Result<(), String> {
    let url =
        web_sys::Url::create_object_url_with_blob(blob).map_err(|e| super::js_error_message(&e))?;
    let link: web_sys::HtmlAnchorElement = window()
        .document()
        .and_then(|d| d.create_element("a").ok())
        .and_then(|a| a.dyn_into().ok())
        .ok_or("no document to download from")?;
    link.set_href(&url);
    link.set_download(name);
    link.click();
    // Some browsers read the blob after the click returns: let it go later.
    wasm_bindgen_futures::spawn_local(async move {
        crate::wait::timeout(60_000).await;
        let _ = web_sys::Url::revoke_object_url(&url);
    });
    Ok(())
}

/// `attribute` of the element nearest `event`'s target (the target itself
/// or an ancestor) that matches `selector`.
pub fn closest_attribute(
    event: &web_sys::Event,
    selector: &str,
    attribute: &str,
) -> Option<String> {
    event
        .target()?
        .dyn_into::<web_sys::Element>()
        .ok()?
        .closest(selector)
        .ok()??
        .get_attribute(attribute)
}

/// Moves the keyboard focus among the SVG elements that match `selector`
/// inside `event`'s current target, for the arrow keys, Home and End: a
/// roving tab stop, where only the focused one is in the Tab order. Returns
/// whether the key was one of those (the caller then keeps it from
/// scrolling the page).
pub fn rove_focus(event: &web_sys::KeyboardEvent, selector: &str) -> bool {
    let step: fn(usize, usize) -> usize = match event.key().as_str() {
        "ArrowRight" | "ArrowDown" => |i, n| (i + 1).min(n - 1),
        "ArrowLeft" | "ArrowUp" => |i, _| i.saturating_sub(1),
        "Home" => |_, _| 0,
        "End" => |_, n| n - 1,
        _ => return false,
    };
    let element = |t: Option<web_sys::EventTarget>| t?.dyn_into::<web_sys::Element>().ok();
    let (Some(container), Some(target)) = (
        element(event.current_target()),
        element(event.target()).and_then(|t| t.closest(selector).ok().flatten()),
    ) else {
        return false;
    };
    let Ok(list) = container.query_selector_all(selector) else {
        return false;
    };
    let items: Vec<web_sys::Element> = (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into().ok())
        .collect();
    let Some(at) = items.iter().position(|e| e.is_same_node(Some(&target))) else {
        return false;
    };
    let next = &items[step(at, items.len())];
    let _ = target.set_attribute("tabindex", "-1");
    let _ = next.set_attribute("tabindex", "0");
    if let Some(svg) = next.dyn_ref::<web_sys::SvgElement>() {
        let _ = svg.focus();
    }
    true
}

/// Whether the reader asked for less motion (`prefers-reduced-motion`).
pub fn prefers_reduced_motion() -> bool {
    window()
        .match_media("(prefers-reduced-motion: reduce)")
        .ok()
        .flatten()
        .is_some_and(|m| m.matches())
}

/// Why `head.js` could not isolate the page through its service worker,
/// if it tried and failed (it says so in `window.waitlabCoiProblem` and
/// fires `waitlab:coi`).
pub fn isolation_problem() -> Option<String> {
    super::global_property("waitlabCoiProblem").and_then(|v| v.as_string())
}

/// Calls `f(out_of_view)` whenever an element enters or leaves the
/// top-level viewport, until dropped: the page's body (an embed scrolled
/// away: browsers throttle an out-of-view iframe much as a hidden tab), or
/// a part of the page that loads when the reader reaches it.
pub struct ViewListener {
    _observing: Observing<web_sys::IntersectionObserver, dyn FnMut(js_sys::Array)>,
}

/// A DOM observer watching one element, and the closure it calls, both
/// kept until dropped; dropping disconnects it.
struct Observing<O: Observer, F: ?Sized> {
    observer: Option<O>,
    _closure: Closure<F>,
}

/// What [`Observing`] asks of an observer.
trait Observer: Sized {
    /// A new one calling `callback`.
    fn with(callback: &js_sys::Function) -> Option<Self>;
    /// Watches `element`.
    fn watch(&self, element: &web_sys::Element);
    /// Stops watching.
    fn stop(&self);
}

/// [`Observer`] for web-sys observers, which all say it alike.
macro_rules! observers {
    ($($observer:ty),+) => {
        $(impl Observer for $observer {
            fn with(callback: &js_sys::Function) -> Option<Self> {
                Self::new(callback).ok()
            }
            fn watch(&self, element: &web_sys::Element) {
                self.observe(element);
            }
            fn stop(&self) {
                self.disconnect();
            }
        })+
    };
}

observers!(web_sys::IntersectionObserver, web_sys::ResizeObserver);

impl<O: Observer, F: ?Sized> Observing<O, F> {
    /// `closure` called by a new observer of `element` (none if either is
    /// missing).
    fn start(closure: Closure<F>, element: Option<web_sys::Element>) -> Self
    where
        Closure<F>: AsRef<wasm_bindgen::JsValue>,
    {
        let observer = O::with(closure.as_ref().unchecked_ref());
        if let (Some(o), Some(element)) = (&observer, element) {
            o.watch(&element);
        }
        Observing {
            observer,
            _closure: closure,
        }
    }
}

impl<O: Observer, F: ?Sized> Drop for Observing<O, F> {
    fn drop(&mut self) {
        if let Some(o) = &self.observer {
            o.stop();
        }
    }
}

impl ViewListener {
    /// Starts observing the page's body.
    pub fn new(f: impl FnMut(bool) + 'static) -> Self {
        Self::of(
            window().document().and_then(|d| d.body()).map(Into::into),
            f,
        )
    }

    /// Starts observing `element` (nothing if there is none).
    pub fn of(element: Option<web_sys::Element>, mut f: impl FnMut(bool) + 'static) -> Self {
        let closure = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            if let Some(entry) = entries
                .iter()
                .last()
                .and_then(|e| e.dyn_into::<web_sys::IntersectionObserverEntry>().ok())
            {
                f(!entry.is_intersecting());
            }
        });
        let _observing = Observing::start(closure, element);
        Self { _observing }
    }
}

/// Calls `f` whenever what is laid out may change width: the window
/// resizes, or a `<details>` opens or closes. For the page's lifetime.
pub fn on_layout_change(f: impl FnMut() + 'static) {
    let closure = Closure::<dyn FnMut()>::new(f);
    let w = window();
    let _ = w.add_event_listener_with_callback("resize", closure.as_ref().unchecked_ref());
    if let Some(d) = w.document() {
        // `toggle` does not bubble: it is caught on its way down.
        let _ = d.add_event_listener_with_callback_and_bool(
            "toggle",
            closure.as_ref().unchecked_ref(),
            true,
        );
    }
    closure.forget();
}

/// Calls `f` on the animation frame after `element` is first laid out
/// with a width (it may not be when first made: in a view that is mounted
/// later, in a closed `<details>`), then stops; or never, if dropped
/// first. The observer lets go at that first sight, so whatever `f`
/// redraws cannot make it loop.
pub struct FirstLayout {
    observer: Option<web_sys::ResizeObserver>,
    _closure: Closure<dyn FnMut(js_sys::Array, web_sys::ResizeObserver)>,
}

impl FirstLayout {
    /// Starts watching `element`.
    pub fn new(element: &web_sys::Element, f: impl FnOnce() + 'static) -> Self {
        let watched = element.clone();
        let mut f = Some(f);
        let closure = Closure::<dyn FnMut(js_sys::Array, web_sys::ResizeObserver)>::new(
            move |_entries: js_sys::Array, observer: web_sys::ResizeObserver| {
                if watched.client_width() == 0 {
                    return;
                }
                observer.disconnect();
                if let Some(f) = f.take() {
                    let _ =
                        window().request_animation_frame(Closure::once_into_js(f).unchecked_ref());
                }
            },
        );
        let observer = web_sys::ResizeObserver::new(closure.as_ref().unchecked_ref()).ok();
        if let Some(o) = &observer {
            o.observe(element);
        }
        Self {
            observer,
            _closure: closure,
        }
    }
}

impl Drop for FirstLayout {
    fn drop(&mut self) {
        if let Some(o) = &self.observer {
            o.disconnect();
        }
    }
}

/// Calls `f` on the next animation frame whenever the page's body changes
/// size (once per frame however many changes), until dropped.
///
/// `f` is not called inside the observer's callback: what it reads there
/// (a height) may force a layout, and in a frame whose parent has just
/// been resized WebKit then lays the parent out too, resizing the body
/// again within the same delivery ("ResizeObserver loop completed with
/// undelivered notifications", seen in an embed under load).
pub struct ResizeListener {
    _observing: Observing<web_sys::ResizeObserver, dyn FnMut()>,
}

impl ResizeListener {
    /// Starts observing.
    pub fn new(f: impl FnMut() + 'static) -> Self {
        let body = window().document().and_then(|d| d.body()).map(Into::into);
        let f = Rc::new(RefCell::new(f));
        let pending = Rc::new(Cell::new(false));
        let on_resize = move || {
            if pending.replace(true) {
                return;
            }
            let (f, pending) = (f.clone(), pending.clone());
            let frame = Closure::once_into_js(move || {
                pending.set(false);
                (f.borrow_mut())();
            });
            let _ = window().request_animation_frame(frame.unchecked_ref());
        };
        let _observing = Observing::start(Closure::<dyn FnMut()>::new(on_resize), body);
        Self { _observing }
    }
}

/// The frame callback, shared with itself so it can request the next frame.
type FrameSlot = Rc<RefCell<Option<Closure<dyn FnMut()>>>>;

/// A `requestAnimationFrame` loop calling `f` with `performance.now()` once
/// per frame, until dropped.
pub struct AnimationLoop {
    running: Rc<Cell<bool>>,
}

impl AnimationLoop {
    /// Starts the loop.
    pub fn start(f: impl FnMut(f64) + 'static) -> Self {
        let running = Rc::new(Cell::new(true));
        let slot: FrameSlot = Rc::new(RefCell::new(None));
        let (alive, again, mut f) = (running.clone(), slot.clone(), f);
        *slot.borrow_mut() = Some(Closure::<dyn FnMut()>::new(move || {
            if !alive.get() {
                // Breaks the closure's reference cycle so it is freed.
                again.borrow_mut().take();
                return;
            }
            f(super::clock::now());
            if let Some(cb) = again.borrow().as_ref() {
                let _ = window().request_animation_frame(cb.as_ref().unchecked_ref());
            }
        }));
        if let Some(cb) = slot.borrow().as_ref() {
            let _ = window().request_animation_frame(cb.as_ref().unchecked_ref());
        }
        Self { running }
    }
}

impl Drop for AnimationLoop {
    fn drop(&mut self) {
        self.running.set(false);
    }
}
