//! Every non-blocking way to wait or yield, as a future.
//!
//! `setTimeout` goes through gloo-timers. Everything else is a promise that
//! a browser callback resolves, awaited with wasm-bindgen-futures. Note how
//! continuations run: after a future resolves, the code after `.await` runs
//! in a microtask of the task that resolved it. So awaiting a timer keeps
//! the timer's nesting level, and awaiting [`fresh_task`] first starts the
//! next timer from nesting level 0.

use super::{global_property, js_error_message};
use js_sys::{Function, Promise, Reflect};
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
/// waits for it to arrive.
pub async fn fresh_task() {
    let channel = web_sys::MessageChannel::new().expect("MessageChannel exists everywhere");
    let arrived = callback_promise(|resolve| channel.port1().set_onmessage(Some(&resolve)));
    channel
        .port2()
        .post_message(&JsValue::NULL)
        .expect("posting null never fails");
    let _ = arrived.await;
    channel.port1().close();
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

fn scheduler_method(name: &str) -> Option<(JsValue, Function)> {
    let scheduler = global_property("scheduler")?;
    let method = Reflect::get(&scheduler, &JsValue::from_str(name))
        .ok()?
        .dyn_into::<Function>()
        .ok()?;
    Some((scheduler, method))
}

/// Whether `scheduler.yield()` exists here.
pub fn has_scheduler_yield() -> bool {
    scheduler_method("yield").is_some()
}

/// Whether `scheduler.postTask()` exists here.
pub fn has_scheduler_post_task() -> bool {
    scheduler_method("postTask").is_some()
}

fn await_call(result: Result<JsValue, JsValue>) -> Result<JsFuture, String> {
    let value = result.map_err(|e| js_error_message(&e))?;
    let promise = value
        .dyn_into::<Promise>()
        .map_err(|_| "the scheduler did not return a promise".to_owned())?;
    Ok(JsFuture::from(promise))
}

/// `await scheduler.yield()`.
pub async fn scheduler_yield() -> Result<(), String> {
    let (scheduler, method) =
        scheduler_method("yield").ok_or("scheduler.yield() is not supported in this browser")?;
    await_call(method.call0(&scheduler))?
        .await
        .map(drop)
        .map_err(|e| js_error_message(&e))
}

/// `await scheduler.postTask(() => {})`.
pub async fn scheduler_post_task() -> Result<(), String> {
    let (scheduler, method) = scheduler_method("postTask")
        .ok_or("scheduler.postTask() is not supported in this browser")?;
    await_call(method.call1(&scheduler, &Function::new_no_args("")))?
        .await
        .map(drop)
        .map_err(|e| js_error_message(&e))
}

/// The next `requestAnimationFrame` callback. Window only; browsers do not
/// run it while the page is hidden, so callers race it with a timer.
pub async fn animation_frame() {
    let window = web_sys::window().expect("animation frames need a window");
    let _ = callback_promise(|resolve| {
        let _ = window.request_animation_frame(&resolve);
    })
    .await;
}
