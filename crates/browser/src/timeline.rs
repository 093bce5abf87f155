//! What the page does with a run's timeline beyond drawing it: the long
//! animation frames the browser reported, DevTools' tracks of a run
//! (`performance.measure` with its extensibility details), and Perfetto
//! UI handed the file. Window only.

use crate::clock::time_origin;
use js_sys::{Array, Object, Reflect};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{JsCast, JsValue};

fn window() -> web_sys::Window {
    web_sys::window().expect("the timeline is the page's")
}

fn get(target: &JsValue, name: &str) -> JsValue {
    Reflect::get(target, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

fn set(target: &Object, name: &str, value: impl Into<JsValue>) {
    let _ = Reflect::set(target, &JsValue::from_str(name), &value.into());
}

/// The entry type of the Long Animation Frames API.
const LONG_FRAME: &str = "long-animation-frame";

/// One long animation frame: when it began and ended (epoch ms) and
/// which scripts ran in it (their invokers and sources, with how long
/// each took).
#[derive(Debug, Clone, PartialEq)]
pub struct LongFrame {
    /// Its start, epoch ms.
    pub start: f64,
    /// Its end, epoch ms.
    pub end: f64,
    /// The scripts that ran in it, in words, empty if none were named.
    pub scripts: String,
}

/// Whether this browser reports long animation frames.
pub fn reports_long_frames() -> bool {
    let types = get(
        &get(&js_sys::global(), "PerformanceObserver"),
        "supportedEntryTypes",
    );
    types
        .dyn_ref::<Array>()
        .is_some_and(|t| t.includes(&JsValue::from_str(LONG_FRAME), 0))
}

/// The long animation frames the browser keeps (its buffer of them), to
/// `then`, once it has handed them over or after 500 ms (a buffer with
/// none hands nothing over).
pub fn long_frames(then: impl FnOnce(Vec<LongFrame>) + 'static) {
    type Then = Rc<RefCell<Option<Box<dyn FnOnce(Vec<LongFrame>)>>>>;
    let then: Then = Rc::new(RefCell::new(Some(Box::new(then))));
    let origin = time_origin();
    let on_entries = {
        let then = then.clone();
        Closure::<dyn FnMut(JsValue, JsValue)>::new(move |list: JsValue, observer: JsValue| {
            let entries: Array = get(&list, "getEntries")
                .dyn_ref::<js_sys::Function>()
                .and_then(|f| f.call0(&list).ok())
                .and_then(|e| e.dyn_into::<Array>().ok())
                .unwrap_or_default();
            let frames = entries.iter().map(|e| long_frame(&e, origin)).collect();
            if let Some(disconnect) = get(&observer, "disconnect").dyn_ref::<js_sys::Function>() {
                let _ = disconnect.call0(&observer);
            }
            if let Some(f) = then.borrow_mut().take() {
                f(frames);
            }
        })
    };
    let constructor = get(&js_sys::global(), "PerformanceObserver");
    let observer = constructor
        .dyn_ref::<js_sys::Function>()
        .and_then(|c| Reflect::construct(c, &Array::of1(on_entries.as_ref())).ok());
    if let Some(observer) = &observer {
        let options = Object::new();
        set(&options, "type", LONG_FRAME);
        set(&options, "buffered", true);
        if let Some(observe) = get(observer, "observe").dyn_ref::<js_sys::Function>() {
            let _ = observe.call1(observer, &options);
        }
    }
    on_entries.forget();
    let observer = observer.unwrap_or(JsValue::UNDEFINED);
    gloo_timers::callback::Timeout::new(500, move || {
        if let Some(disconnect) = get(&observer, "disconnect").dyn_ref::<js_sys::Function>() {
            let _ = disconnect.call0(&observer);
        }
        if let Some(f) = then.borrow_mut().take() {
            f(Vec::new());
        }
    })
    .forget();
}

fn long_frame(entry: &JsValue, origin: f64) -> LongFrame {
    let number = |v: &JsValue, name| get(v, name).as_f64().unwrap_or(0.0);
    let start = origin + number(entry, "startTime");
    let scripts = get(entry, "scripts")
        .dyn_into::<Array>()
        .unwrap_or_default()
        .iter()
        .map(|s| {
            let invoker = get(&s, "invoker").as_string().unwrap_or_default();
            let source = get(&s, "sourceURL").as_string().unwrap_or_default();
            let source = source.rsplit('/').next().unwrap_or_default();
            format!("{invoker} {source} {:.0} ms", number(&s, "duration"))
                .trim()
                .to_owned()
        })
        .collect::<Vec<_>>()
        .join("; ");
    LongFrame {
        start,
        end: start + number(entry, "duration"),
        scripts,
    }
}

/// At most this many spans become DevTools entries a run: each is an
/// entry the browser keeps.
pub const MEASURES: usize = 10_000;

thread_local! {
    /// The names of the entries the last run left.
    static MEASURED: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// One span as DevTools shows it: its track (a thread) and colour (a
/// kind), its name, and its start and end (epoch ms).
pub struct TrackEntry<'a> {
    /// The thread's name.
    pub track: &'a str,
    /// One of DevTools' palette names.
    pub color: &'static str,
    /// The span's name.
    pub name: &'a str,
    /// When it began, epoch ms.
    pub start: f64,
    /// When it ended.
    pub end: f64,
}

/// Leaves `entries` (at most [`MEASURES`]) as `performance.measure`s on
/// tracks of a "waitlab" group (DevTools' extensibility details), so a
/// Performance recording of the run shows them beside the browser's own;
/// the last run's are cleared first.
pub fn devtools_tracks<'a>(entries: impl Iterator<Item = TrackEntry<'a>>) {
    let Some(performance) = window().performance() else {
        return;
    };
    let performance = JsValue::from(performance);
    let (measure, clear) = (
        get(&performance, "measure"),
        get(&performance, "clearMeasures"),
    );
    let (Some(measure), Some(clear)) = (
        measure.dyn_ref::<js_sys::Function>(),
        clear.dyn_ref::<js_sys::Function>(),
    ) else {
        return;
    };
    MEASURED.with(|m| {
        let mut m = m.borrow_mut();
        for name in m.drain(..) {
            let _ = clear.call1(&performance, &JsValue::from_str(&name));
        }
        let origin = time_origin();
        for e in entries.take(MEASURES) {
            let devtools = Object::new();
            set(&devtools, "dataType", "track-entry");
            set(&devtools, "track", e.track);
            set(&devtools, "trackGroup", "waitlab");
            set(&devtools, "color", e.color);
            let detail = Object::new();
            set(&detail, "devtools", devtools);
            let options = Object::new();
            set(&options, "start", e.start - origin);
            set(&options, "end", e.end - origin);
            set(&options, "detail", detail);
            let _ = measure.call2(&performance, &JsValue::from_str(e.name), &options);
            if !m.iter().any(|n| n == e.name) {
                m.push(e.name.to_owned());
            }
        }
    });
}

/// Perfetto UI's origin.
pub const PERFETTO: &str = "https://ui.perfetto.dev";

/// How the page could hand a trace to Perfetto UI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handoff {
    /// Opened, and the trace posted once it answered.
    Posting,
    /// Opened, but this page cannot talk to it (cross-origin isolated:
    /// its opener is cut off), so the reader drops the file onto it.
    OpenedOnly,
    /// The browser did not open it (a popup blocker).
    Blocked,
}

/// The pings' interval and the listener for Perfetto's answer, while the
/// handshake goes on.
type Handshake = Rc<RefCell<Option<(i32, Closure<dyn FnMut(web_sys::MessageEvent)>)>>>;

/// Opens Perfetto UI and, where this page may talk to it, posts `json`
/// (titled `title`) once it answers its pings (Perfetto's handshake);
/// `gave_up` runs if it never answers within 15 s.
pub fn open_in_perfetto(json: &str, title: &str, gave_up: impl FnOnce() + 'static) -> Handoff {
    let w = window();
    if crate::clock::cross_origin_isolated() {
        return match w.open_with_url_and_target_and_features(PERFETTO, "_blank", "noopener") {
            Ok(_) => Handoff::OpenedOnly,
            Err(_) => Handoff::Blocked,
        };
    }
    let Ok(Some(popup)) = w.open_with_url_and_target(PERFETTO, "_blank") else {
        return Handoff::Blocked;
    };
    let buffer = js_sys::Uint8Array::from(json.as_bytes()).buffer();
    let message = Object::new();
    let perfetto = Object::new();
    set(&perfetto, "buffer", buffer);
    set(&perfetto, "title", title);
    set(&message, "perfetto", perfetto);
    let state: Handshake = Rc::new(RefCell::new(None));
    let stop = {
        let state = state.clone();
        move || {
            if let Some((interval, listener)) = state.borrow_mut().take() {
                let w = window();
                w.clear_interval_with_handle(interval);
                let _ = w.remove_event_listener_with_callback(
                    "message",
                    listener.as_ref().unchecked_ref(),
                );
            }
        }
    };
    let on_message = {
        let (popup, stop) = (popup.clone(), stop.clone());
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            if e.origin() == PERFETTO && e.data().as_string().as_deref() == Some("PONG") {
                let _ = popup.post_message(&message, PERFETTO);
                stop();
            }
        })
    };
    let ping = Closure::<dyn FnMut()>::new(move || {
        let _ = popup.post_message(&JsValue::from_str("PING"), PERFETTO);
    });
    let _ = w.add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref());
    let interval = w
        .set_interval_with_callback_and_timeout_and_arguments_0(ping.as_ref().unchecked_ref(), 50)
        .unwrap_or(0);
    ping.forget();
    *state.borrow_mut() = Some((interval, on_message));
    gloo_timers::callback::Timeout::new(15_000, move || {
        if state.borrow().is_some() {
            stop();
            gave_up();
        }
    })
    .forget();
    Handoff::Posting
}

/// What the reader did to a timeline with a pointer, a finger or a wheel,
/// in CSS px from the drawing's left and top edges.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Gesture {
    /// Dragged (a mouse button or one finger down) by `dx` px.
    Pan(f64),
    /// Zoomed by `factor` (< 1 in) about `x`: pinched, or a wheel turned
    /// with Ctrl or ⌘ (a trackpad's pinch).
    Zoom(f64, f64),
    /// Pointed at `(x, y)` with nothing pressed.
    Hover(f64, f64),
}

/// The listeners that turn events on a drawing into [`Gesture`]s, removed
/// when dropped.
pub struct Gestures {
    target: web_sys::Element,
    listeners: Vec<Listener>,
}

/// An event's name and its listener.
type Listener = (&'static str, Closure<dyn FnMut(web_sys::Event)>);

/// The pointers down on a drawing: id and last x.
type Pointers = Rc<RefCell<Vec<(i32, f64)>>>;

impl Gestures {
    /// Calls `f` with each gesture on `target`. A plain wheel still scrolls
    /// the page; Shift and a wheel, or a sideways one, pans.
    pub fn on(target: &web_sys::Element, f: impl Fn(Gesture) + 'static) -> Gestures {
        let f = Rc::new(f);
        let down: Pointers = Rc::new(RefCell::new(Vec::new()));
        let at = {
            let target = target.clone();
            move |e: &web_sys::MouseEvent| {
                let r = target.get_bounding_client_rect();
                (
                    f64::from(e.client_x()) - r.left(),
                    f64::from(e.client_y()) - r.top(),
                )
            }
        };
        let mut listeners: Vec<Listener> = Vec::new();
        {
            let (down, target, at) = (down.clone(), target.clone(), at.clone());
            listeners.push((
                "pointerdown",
                Closure::new(move |e: web_sys::Event| {
                    let Some(e) = e.dyn_ref::<web_sys::PointerEvent>() else {
                        return;
                    };
                    let _ = target.set_pointer_capture(e.pointer_id());
                    down.borrow_mut().push((e.pointer_id(), at(e).0));
                }),
            ));
        }
        {
            let (down, f, at) = (down.clone(), f.clone(), at.clone());
            listeners.push((
                "pointermove",
                Closure::new(move |e: web_sys::Event| {
                    let Some(e) = e.dyn_ref::<web_sys::PointerEvent>() else {
                        return;
                    };
                    let (x, y) = at(e);
                    let mut down = down.borrow_mut();
                    let before: Vec<f64> = down.iter().map(|p| p.1).collect();
                    let Some(i) = down.iter().position(|p| p.0 == e.pointer_id()) else {
                        drop(down);
                        return f(Gesture::Hover(x, y));
                    };
                    down[i].1 = x;
                    let after: Vec<f64> = down.iter().map(|p| p.1).collect();
                    drop(down);
                    match (before.as_slice(), after.as_slice()) {
                        ([a], [b]) => f(Gesture::Pan(b - a)),
                        ([a0, a1, ..], [b0, b1, ..]) => {
                            let (was, now) = ((a1 - a0).abs(), (b1 - b0).abs());
                            if was > 1.0 && now > 1.0 {
                                f(Gesture::Zoom(was / now, (b0 + b1) / 2.0));
                            }
                        }
                        _ => {}
                    }
                }),
            ));
        }
        for event in ["pointerup", "pointercancel"] {
            let down = down.clone();
            listeners.push((
                event,
                Closure::new(move |e: web_sys::Event| {
                    if let Some(e) = e.dyn_ref::<web_sys::PointerEvent>() {
                        down.borrow_mut().retain(|p| p.0 != e.pointer_id());
                    }
                }),
            ));
        }
        {
            let f = f.clone();
            listeners.push((
                "wheel",
                Closure::new(move |e: web_sys::Event| {
                    let Some(w) = e.dyn_ref::<web_sys::WheelEvent>() else {
                        return;
                    };
                    let (dx, dy) = (w.delta_x(), w.delta_y());
                    if w.ctrl_key() || w.meta_key() {
                        w.prevent_default();
                        f(Gesture::Zoom((dy * 0.002).exp(), at(w).0));
                    } else if w.shift_key() || dx.abs() > dy.abs() {
                        w.prevent_default();
                        f(Gesture::Pan(-(if dx.abs() > dy.abs() { dx } else { dy })));
                    }
                }),
            ));
        }
        let options = web_sys::AddEventListenerOptions::new();
        options.set_passive(false);
        for (event, closure) in &listeners {
            let _ = target.add_event_listener_with_callback_and_add_event_listener_options(
                event,
                closure.as_ref().unchecked_ref(),
                &options,
            );
        }
        Gestures {
            target: target.clone(),
            listeners,
        }
    }
}

impl Drop for Gestures {
    fn drop(&mut self) {
        for (event, closure) in &self.listeners {
            let _ = self
                .target
                .remove_event_listener_with_callback(event, closure.as_ref().unchecked_ref());
        }
    }
}
