//! What a job in the probe worker reaches: the memory the page shared, the
//! port it passed for a pair, and the way to answer it. [`crate::worker`]
//! keeps them as they arrive; each experiment's probe (`probes`) serves
//! its own jobs with them.

use crate::memory::{self, Slots};
use crate::trace;
use std::cell::RefCell;
use waitlab_core::protocol::FromWorker;
use wasm_bindgen::JsCast;
use web_sys::DedicatedWorkerGlobalScope;

thread_local! {
    static MEMORY: RefCell<Option<js_sys::Int32Array>> = const { RefCell::new(None) };
    static PORT: RefCell<Option<web_sys::MessagePort>> = const { RefCell::new(None) };
}

/// Keeps the memory the page shared.
pub(crate) fn keep_memory(memory: js_sys::Int32Array) {
    MEMORY.with(|m| *m.borrow_mut() = Some(memory));
}

/// Keeps the port the page passed for the current pair.
pub(crate) fn keep_port(port: web_sys::MessagePort) {
    PORT.with(|p| *p.borrow_mut() = Some(port));
}

/// The memory the page shared, if it did.
pub(crate) fn memory() -> Option<js_sys::Int32Array> {
    MEMORY.with(|m| m.borrow().clone())
}

/// The shared memory's slots, if the page shared any.
pub(crate) fn slots() -> Option<Slots> {
    memory().map(Slots::new)
}

/// The shared memory's slots, or why a job that needs them cannot run.
pub(crate) fn needed_slots() -> Result<Slots, String> {
    slots().ok_or_else(|| memory::NOT_SHARED.to_owned())
}

/// The port the page handed this worker for its current pair, if any.
pub(crate) fn port() -> Option<web_sys::MessagePort> {
    PORT.with(|p| p.borrow().clone())
}

/// Posts `msg`; before a job's last reply, what the job recorded for the
/// timeline (the job is over: nothing it measures is running).
pub(crate) fn post(msg: &FromWorker) {
    if !matches!(msg, FromWorker::Progress { .. } | FromWorker::Ready { .. }) {
        let records = trace::take();
        if !records.is_empty() {
            send(&FromWorker::Trace { records });
        }
    }
    send(msg);
}

fn send(msg: &FromWorker) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let bytes = crate::transferable(&msg.encode());
    let _ = scope.post_message_with_transfer(&bytes, &js_sys::Array::of1(&bytes.buffer()));
}
