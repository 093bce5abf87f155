//! Every non-blocking way to wait or yield, as a future.
//!
//! `setTimeout` goes through gloo-timers, or, in a probe loop, through one
//! reusable [`Timer`] that stamps its own callback. Everything else is a promise that
//! a browser callback resolves, awaited with wasm-bindgen-futures. Note how
//! continuations run: after a future resolves, the code after `.await` runs
//! in a microtask of the task that resolved it. So awaiting a timer keeps
//! the timer's nesting level, and awaiting [`fresh_task`] first starts the
//! next timer from nesting level 0.

use super::{global_property, js_error_message};
use js_sys::{Function, Promise, Reflect};
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::rc::Rc;
use std::task::{Poll, Waker};
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Waits `ms` with `setTimeout`.
pub async fn timeout(ms: u32) {
    gloo_timers::future::TimeoutFuture::new(ms).await;
}

/// A promise whose `resolve` is handed to `register`.
fn callback_promise(register: impl FnOnce(Function)) -> JsFuture {
    let mut register = Some(register);
    JsFuture::from(Promise::new(&mut |resolve, _reject| {
        if let Some(register) = register.take() {
            register(resolve);
        }
    }))
}

/// Resumes in a new task: posts a message on a fresh `MessageChannel` and
/// waits for it to arrive. A loop that hops often keeps a [`FreshTask`].
pub async fn fresh_task() {
    FreshTask::new().hop().await;
}

/// One `MessageChannel` and one message handler for a whole probe loop,
/// so that a hop allocates nothing (no channel, no closure, no promise)
/// and leaves no garbage for a collection to sweep inside later samples.
pub struct FreshTask {
    sender: web_sys::MessagePort,
    receiver: web_sys::MessagePort,
    hop: Rc<HopState>,
    _on_message: Closure<dyn FnMut()>,
}

/// Whether the posted message arrived, and who waits for it.
#[derive(Default)]
struct HopState {
    arrived: Cell<bool>,
    waker: RefCell<Option<Waker>>,
}

impl FreshTask {
    /// Opens the channel.
    pub fn new() -> Self {
        let channel = web_sys::MessageChannel::new().expect("MessageChannel exists everywhere");
        let hop = Rc::new(HopState::default());
        let on_message = {
            let hop = hop.clone();
            Closure::<dyn FnMut()>::new(move || {
                hop.arrived.set(true);
                wake(&hop.waker);
            })
        };
        channel
            .port1()
            .set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        Self {
            sender: channel.port2(),
            receiver: channel.port1(),
            hop,
            _on_message: on_message,
        }
    }

    /// Resumes in a new task.
    pub fn hop(&self) -> impl Future<Output = ()> + '_ {
        self.hop.arrived.set(false);
        self.sender
            .post_message(&JsValue::NULL)
            .expect("posting null never fails");
        std::future::poll_fn(move |cx| {
            if self.hop.arrived.get() {
                Poll::Ready(())
            } else {
                park(&self.hop.waker, cx)
            }
        })
    }
}

impl Default for FreshTask {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for FreshTask {
    fn drop(&mut self) {
        self.receiver.set_onmessage(None);
        self.receiver.close();
    }
}

/// Keeps `cx`'s waker in `slot` (once) for a callback to wake: pending.
pub(crate) fn park<T>(slot: &RefCell<Option<Waker>>, cx: &std::task::Context<'_>) -> Poll<T> {
    let mut waker = slot.borrow_mut();
    if !waker.as_ref().is_some_and(|w| w.will_wake(cx.waker())) {
        *waker = Some(cx.waker().clone());
    }
    Poll::Pending
}

/// Wakes the future parked in `slot`, if any.
pub(crate) fn wake(slot: &RefCell<Option<Waker>>) {
    if let Some(waker) = slot.borrow_mut().take() {
        waker.wake();
    }
}

/// The global `setTimeout` or `clearTimeout`.
///
/// # Panics
///
/// Outside a window or a worker, which both have them.
pub(crate) fn timer_function(name: &str) -> Function {
    global_property(name)
        .and_then(|f| f.dyn_into::<Function>().ok())
        .unwrap_or_else(|| panic!("{name} exists in windows and workers"))
}

/// One `setTimeout` callback for a whole probe loop. A timed wait
/// allocates nothing (no closure, no promise) and is stamped by the
/// callback itself, so the sample is the time from the `setTimeout` call to
/// the timer's callback: the executor's hop back to the awaiting code is
/// not in it. Window or worker.
pub struct Timer {
    set_timeout: Function,
    clear_timeout: Function,
    state: Rc<TimerState>,
    callback: Closure<dyn FnMut()>,
}

/// When the pending timer fired, its id, and who waits for it.
#[derive(Default)]
struct TimerState {
    fired_at: Cell<Option<f64>>,
    id: Cell<Option<i32>>,
    waker: RefCell<Option<Waker>>,
}

impl Timer {
    /// Looks up the global `setTimeout` and makes the one callback.
    pub fn new() -> Self {
        let state = Rc::new(TimerState::default());
        let callback = {
            let state = state.clone();
            Closure::<dyn FnMut()>::new(move || {
                state.fired_at.set(Some(super::clock::now()));
                state.id.set(None);
                wake(&state.waker);
            })
        };
        Self {
            set_timeout: timer_function("setTimeout"),
            clear_timeout: timer_function("clearTimeout"),
            state,
            callback,
        }
    }

    /// Waits `ms` with `setTimeout`; resolves to the time from the call to
    /// the callback, ms.
    pub fn time(&self, ms: u32) -> impl Future<Output = f64> + '_ {
        self.state.fired_at.set(None);
        let t0 = super::clock::now();
        let id = self
            .set_timeout
            .call2(
                &JsValue::UNDEFINED,
                self.callback.as_ref(),
                &JsValue::from(ms),
            )
            .ok()
            .and_then(|id| id.as_f64());
        self.state.id.set(id.map(|id| id as i32));
        std::future::poll_fn(move |cx| match self.state.fired_at.get() {
            Some(fired_at) => Poll::Ready(fired_at - t0),
            None => park(&self.state.waker, cx),
        })
    }
}

impl Default for Timer {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for Timer {
    /// A cancelled run drops its timer: the pending one must never call
    /// the dropped callback.
    fn drop(&mut self) {
        if let Some(id) = self.state.id.take() {
            let _ = self
                .clear_timeout
                .call1(&JsValue::UNDEFINED, &JsValue::from(id));
        }
    }
}

/// The data of the next message on `port` (replaces its `onmessage`).
pub async fn next_message(port: &web_sys::MessagePort) -> JsValue {
    let event = callback_promise(|resolve| port.set_onmessage(Some(&resolve)))
        .await
        .unwrap_or(JsValue::UNDEFINED);
    Reflect::get(&event, &JsValue::from_str("data")).unwrap_or(JsValue::UNDEFINED)
}

/// Awaits an already-resolved promise: a microtask, which never lets the
/// browser render or run other tasks.
pub async fn resolved_promise() {
    let _ = JsFuture::from(Promise::resolve(&JsValue::UNDEFINED)).await;
}

/// A `scheduler` method looked up once, with what it is called with, so
/// a probe loop calls it without a property look-up or a new function.
pub struct SchedulerCall {
    scheduler: JsValue,
    method: Function,
    /// `postTask`'s empty task (a Rust closure: a policy without
    /// `unsafe-eval` forbids `new Function`); `None` for `yield`.
    task: Option<Closure<dyn FnMut()>>,
}

impl SchedulerCall {
    fn find(name: &str) -> Option<(JsValue, Function)> {
        let scheduler = global_property("scheduler")?;
        let method = Reflect::get(&scheduler, &JsValue::from_str(name))
            .ok()?
            .dyn_into::<Function>()
            .ok()?;
        Some((scheduler, method))
    }

    /// `scheduler.yield()`, or why there is none.
    pub fn yield_now() -> Result<Self, String> {
        let (scheduler, method) =
            Self::find("yield").ok_or("scheduler.yield() is not supported in this browser")?;
        Ok(Self {
            scheduler,
            method,
            task: None,
        })
    }

    /// `scheduler.postTask(() => {})`, or why there is none.
    pub fn post_task() -> Result<Self, String> {
        let (scheduler, method) = Self::find("postTask")
            .ok_or("scheduler.postTask() is not supported in this browser")?;
        Ok(Self {
            scheduler,
            method,
            task: Some(Closure::new(|| {})),
        })
    }

    /// Calls it and awaits the promise it returns.
    pub async fn call(&self) -> Result<(), String> {
        let called = match &self.task {
            Some(task) => self.method.call1(&self.scheduler, task.as_ref()),
            None => self.method.call0(&self.scheduler),
        };
        let promise = called
            .map_err(|e| js_error_message(&e))?
            .dyn_into::<Promise>()
            .map_err(|_| "the scheduler did not return a promise".to_owned())?;
        JsFuture::from(promise)
            .await
            .map(drop)
            .map_err(|e| js_error_message(&e))
    }
}

/// Whether `scheduler.yield()` exists here.
pub fn has_scheduler_yield() -> bool {
    SchedulerCall::find("yield").is_some()
}

/// Whether `scheduler.postTask()` exists here.
pub fn has_scheduler_post_task() -> bool {
    SchedulerCall::find("postTask").is_some()
}

/// Hands the page a moment to render: two animation frames (the second
/// comes once the first has been drawn, so the compositor and raster work
/// of the update is over; or 50 ms each, where a hidden page draws none),
/// then a fresh task after them. Window only; a probe loop calls it between
/// samples, never inside one.
pub async fn let_page_render() {
    for _ in 0..2 {
        animation_frame_within(50).await;
    }
    fresh_task().await;
}

/// The next `requestAnimationFrame` callback or `ms` milliseconds,
/// whichever comes first; true if the frame came. Browsers run no frames
/// while a page is hidden (and some draw late), so when the time wins the
/// frame request is cancelled: no stray frame callback runs later, inside
/// a sample. Window only.
pub async fn animation_frame_within(ms: u32) -> bool {
    let window = web_sys::window().expect("animation frames need a window");
    let mut request = None;
    let frame = callback_promise(|resolve| {
        request = window.request_animation_frame(&resolve).ok();
    });
    match futures::future::select(frame, Box::pin(timeout(ms))).await {
        futures::future::Either::Left(_) => true,
        futures::future::Either::Right(_) => {
            if let Some(id) = request {
                let _ = window.cancel_animation_frame(id);
            }
            false
        }
    }
}
