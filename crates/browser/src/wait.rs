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
use wasm_bindgen::prelude::{Closure, wasm_bindgen};
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

#[wasm_bindgen]
extern "C" {
    /// Anything with a `then`: a promise as a probe hands it its callback.
    type Thenable;

    /// `thenable.then(fulfilled, rejected)`, the promise it returns left
    /// in JavaScript: no handle of it crosses into wasm inside a timed wait.
    #[wasm_bindgen(method, catch, js_name = then)]
    fn then_call(this: &Thenable, fulfilled: &Function, rejected: &Function)
    -> Result<(), JsValue>;
}

/// Hands `fulfilled` and `rejected` to `promise.then`; an error if
/// `promise` has no `then`.
pub(crate) fn on_settled(
    promise: &JsValue,
    fulfilled: &Function,
    rejected: &Function,
) -> Result<(), String> {
    promise
        .unchecked_ref::<Thenable>()
        .then_call(fulfilled, rejected)
        .map_err(|e| js_error_message(&e))
}

/// One JavaScript callback for a whole probe loop that reads the clock as
/// its first statement, keeps what it was called with and wakes the
/// waiting future; only its first call after [`Stamp::arm`] counts (a
/// wait left behind by a limit may settle later). The end of a timed wait is thus the browser's callback
/// itself: the executor's hop back to the awaiting code, and any future
/// or closure made for it, are outside the sample. Window or worker.
pub struct Stamp {
    state: Rc<StampState>,
    callback: Closure<dyn FnMut(JsValue)>,
}

/// The clock the stamp reads, when it last ran, with what, and who waits.
struct StampState {
    clock: fn() -> f64,
    at: Cell<Option<f64>>,
    value: RefCell<JsValue>,
    waker: RefCell<Option<Waker>>,
}

impl Stamp {
    /// Makes the one callback, which reads `clock` (`now` or `epoch_now`).
    pub fn new(clock: fn() -> f64) -> Self {
        let state = Rc::new(StampState {
            clock,
            at: Cell::new(None),
            value: RefCell::new(JsValue::UNDEFINED),
            waker: RefCell::new(None),
        });
        let callback = {
            let state = state.clone();
            Closure::<dyn FnMut(JsValue)>::new(move |value| {
                if state.at.get().is_none() {
                    state.at.set(Some((state.clock)()));
                    state.value.replace(value);
                    wake(&state.waker);
                }
            })
        };
        Self { state, callback }
    }

    /// The clock it reads.
    pub fn clock(&self) -> fn() -> f64 {
        self.state.clock
    }

    /// The callback to hand the browser.
    pub fn callback(&self) -> &Function {
        self.callback.as_ref().unchecked_ref()
    }

    /// Forgets the last stamp: call before starting the wait it ends.
    pub fn arm(&self) {
        self.state.at.set(None);
    }

    /// Resolves to the clock's reading when the callback ran.
    pub fn fired(&self) -> impl Future<Output = f64> + '_ {
        std::future::poll_fn(move |cx| match self.state.at.get() {
            Some(at) => Poll::Ready(at),
            None => park(&self.state.waker, cx),
        })
    }

    /// What the callback was last called with (a message's event, a
    /// settled promise's value).
    pub fn value(&self) -> JsValue {
        self.state.value.replace(JsValue::UNDEFINED)
    }
}

/// One `MessageChannel` and one message handler (a [`Stamp`]) for a
/// whole probe loop, so that a hop allocates nothing (no channel, no
/// closure, no promise) and leaves no garbage for a collection to sweep
/// inside later samples.
pub struct FreshTask {
    sender: web_sys::MessagePort,
    receiver: web_sys::MessagePort,
    stamp: Stamp,
}

impl FreshTask {
    /// Opens the channel.
    pub fn new() -> Self {
        let channel = web_sys::MessageChannel::new().expect("MessageChannel exists everywhere");
        let stamp = Stamp::new(super::clock::now);
        channel.port1().set_onmessage(Some(stamp.callback()));
        Self {
            sender: channel.port2(),
            receiver: channel.port1(),
            stamp,
        }
    }

    /// Resumes in a new task.
    pub fn hop(&self) -> impl Future<Output = ()> + '_ {
        self.stamp.arm();
        self.sender
            .post_message(&JsValue::NULL)
            .expect("posting null never fails");
        let fired = self.stamp.fired();
        async move {
            fired.await;
        }
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

/// One `setTimeout` callback (a [`Stamp`]) for a whole probe loop. A
/// timed wait allocates nothing (no closure, no promise) and is stamped
/// by the callback itself, so the sample is the time from the
/// `setTimeout` call to the timer's callback. Window or worker.
pub struct Timer {
    set_timeout: Function,
    clear_timeout: Function,
    stamp: Stamp,
    id: Cell<Option<i32>>,
}

impl Timer {
    /// Looks up the global `setTimeout` and makes the one callback.
    pub fn new() -> Self {
        Self {
            set_timeout: timer_function("setTimeout"),
            clear_timeout: timer_function("clearTimeout"),
            stamp: Stamp::new(super::clock::now),
            id: Cell::new(None),
        }
    }

    /// Waits `ms` with `setTimeout`; resolves to the time from the call to
    /// the callback, ms.
    pub fn time(&self, ms: u32) -> impl Future<Output = f64> + '_ {
        self.stamp.arm();
        let t0 = super::clock::now();
        let id = self
            .set_timeout
            .call2(
                &JsValue::UNDEFINED,
                self.stamp.callback(),
                &JsValue::from(ms),
            )
            .ok()
            .and_then(|id| id.as_f64());
        self.id.set(id.map(|id| id as i32));
        let fired = self.stamp.fired();
        async move { fired.await - t0 }
    }

    /// Clears the pending timer, if any: its callback will not run.
    pub fn cancel(&self) {
        if let Some(id) = self.id.take() {
            let _ = self
                .clear_timeout
                .call1(&JsValue::UNDEFINED, &JsValue::from(id));
        }
    }
}

impl Default for Timer {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for Timer {
    /// A cancelled run drops its timer: the pending one must never call
    /// the dropped callback (clearing one that fired does nothing).
    fn drop(&mut self) {
        self.cancel();
    }
}

/// The data of the next message on `port` (replaces its `onmessage`).
pub async fn next_message(port: &web_sys::MessagePort) -> JsValue {
    let event = callback_promise(|resolve| port.set_onmessage(Some(&resolve)))
        .await
        .unwrap_or(JsValue::UNDEFINED);
    Reflect::get(&event, &JsValue::from_str("data")).unwrap_or(JsValue::UNDEFINED)
}

/// Awaits `fired` or `pending_limit` (the `limit` timer's, set before the
/// wait it bounds began): `Some(at)` when `fired` came first (the limit is
/// then cleared), `None` when the limit did.
pub async fn first_of(
    fired: impl Future<Output = f64>,
    limit: &Timer,
    pending_limit: impl Future<Output = f64>,
) -> Option<f64> {
    let (fired, pending_limit) = (std::pin::pin!(fired), std::pin::pin!(pending_limit));
    match futures::future::select(fired, pending_limit).await {
        futures::future::Either::Left((at, _)) => {
            limit.cancel();
            Some(at)
        }
        futures::future::Either::Right(_) => None,
    }
}

/// Where the page finds the site's script of microsecond waits, and the
/// function it defines.
const FAST_WAITS: (&str, &str) = ("./fast-waits.js", "waitlabFastWaits");

/// Experiment 1's main-thread waits of microseconds (a resolved promise, a
/// message's hop, `scheduler.yield`, `scheduler.postTask`), timed in
/// batches by the site's plain script `www/fast-waits.js`: between a
/// sample's two clock reads runs the wait alone, never wasm glue. Window
/// only.
pub struct FastWaits {
    fill: Function,
    id: JsValue,
    pairs: js_sys::Float64Array,
}

impl FastWaits {
    /// Loads the script (once a page), to time the wait `id` (a mechanism's
    /// id) `batch` samples at a time.
    pub async fn load(id: &str, batch: u32) -> Result<Self, String> {
        let (url, name) = FAST_WAITS;
        if global_property(name).is_none() {
            let document = web_sys::window()
                .and_then(|w| w.document())
                .ok_or("fast waits need a page")?;
            let script: web_sys::HtmlElement = document
                .create_element("script")
                .map_err(|e| js_error_message(&e))?
                .unchecked_into();
            script
                .set_attribute("src", url)
                .map_err(|e| js_error_message(&e))?;
            let settled = callback_promise(|done| {
                script.set_onload(Some(&done));
                script.set_onerror(Some(&done));
            });
            document
                .body()
                .ok_or("the page has no body")?
                .append_child(&script)
                .map_err(|e| js_error_message(&e))?;
            let _ = settled.await;
        }
        let fill = global_property(name)
            .and_then(|f| f.dyn_into::<Function>().ok())
            .ok_or_else(|| format!("the page could not load {url}"))?;
        Ok(Self {
            fill,
            id: JsValue::from_str(id),
            pairs: js_sys::Float64Array::new_with_length(2 * batch),
        })
    }

    /// Times one batch; each wait's start and end, `performance.now()` ms.
    pub async fn batch(&self) -> Result<Vec<(f64, f64)>, String> {
        let filled = self
            .fill
            .call2(&JsValue::UNDEFINED, &self.id, &self.pairs)
            .map_err(|e| js_error_message(&e))?;
        JsFuture::from(Promise::resolve(&filled))
            .await
            .map_err(|e| js_error_message(&e))?;
        Ok(self
            .pairs
            .to_vec()
            .chunks_exact(2)
            .map(|pair| (pair[0], pair[1]))
            .collect())
    }
}

/// One `requestAnimationFrame` callback and one timer that bounds it, for
/// a probe loop. Window only.
pub struct Frames {
    window: web_sys::Window,
    stamp: Stamp,
    limit: Timer,
}

impl Frames {
    /// Makes the callback and the timer.
    pub fn new() -> Self {
        Self {
            window: web_sys::window().expect("animation frames need a window"),
            stamp: Stamp::new(super::clock::now),
            limit: Timer::new(),
        }
    }

    /// The time from the request to the frame's callback, ms; `None` when
    /// no frame came within `limit_ms` (a hidden page draws none), the
    /// request then cancelled so no stray frame runs inside a later sample.
    pub async fn time(&self, limit_ms: u32) -> Option<f64> {
        let pending_limit = self.limit.time(limit_ms);
        self.stamp.arm();
        let t0 = super::clock::now();
        let request = self
            .window
            .request_animation_frame(self.stamp.callback())
            .ok();
        let at = first_of(self.stamp.fired(), &self.limit, pending_limit).await;
        if at.is_none()
            && let Some(id) = request
        {
            let _ = self.window.cancel_animation_frame(id);
        }
        at.map(|at| at - t0)
    }
}

impl Default for Frames {
    fn default() -> Self {
        Self::new()
    }
}

/// Whether `scheduler.yield()` exists here.
pub fn has_scheduler_yield() -> bool {
    has_scheduler("yield")
}

/// Whether `scheduler.postTask()` exists here.
pub fn has_scheduler_post_task() -> bool {
    has_scheduler("postTask")
}

/// Whether `scheduler` has the function `name` here.
fn has_scheduler(name: &str) -> bool {
    global_property("scheduler")
        .and_then(|s| Reflect::get(&s, &JsValue::from_str(name)).ok())
        .is_some_and(|f| f.is_function())
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
