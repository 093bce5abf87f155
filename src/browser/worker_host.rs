//! The page's side of the probe worker: start it, wait for "ready", hand it
//! shared memory, send jobs, read replies. Window only.
//!
//! Replies arrive on an unbounded channel, so a job awaits them as a stream.
//! A worker that fails to load or crashes turns into an error message on
//! the same channel, so nothing waits forever. Dropping a [`ProbeWorker`]
//! terminates the worker, which is how a run is cancelled.

use super::js_error_message;
use futures::StreamExt;
use futures::channel::mpsc;
use waitlab_core::protocol::{FromWorker, PROTOCOL_VERSION, ToWorker};
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// The worker's loader script, relative to the page (copied by trunk).
pub const WORKER_URL: &str = "./worker_loader.js";
/// How long a worker may take to load before the page gives up, ms.
const READY_TIMEOUT_MS: u32 = 15_000;

type Reply = Result<FromWorker, String>;

/// A running probe worker.
pub struct ProbeWorker {
    worker: web_sys::Worker,
    replies: mpsc::UnboundedReceiver<Reply>,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::ErrorEvent)>,
}

impl ProbeWorker {
    /// Starts a worker and waits until it says it is ready.
    pub async fn start() -> Result<ProbeWorker, String> {
        let worker = web_sys::Worker::new(WORKER_URL)
            .map_err(|e| format!("could not start the probe worker: {}", js_error_message(&e)))?;
        let (tx, replies) = mpsc::unbounded::<Reply>();
        let tx_error = tx.clone();
        let on_message = Closure::<dyn FnMut(_)>::new(move |e: web_sys::MessageEvent| {
            let reply = match e.data().as_string() {
                Some(s) => FromWorker::from_json(&s).map_err(|e| e.to_string()),
                None => Err("the worker sent a message that is not text".to_owned()),
            };
            let _ = tx.unbounded_send(reply);
        });
        let on_error = Closure::<dyn FnMut(_)>::new(move |e: web_sys::ErrorEvent| {
            e.prevent_default();
            let detail = e.message();
            let detail = if detail.is_empty() {
                "it failed to load".to_owned()
            } else {
                detail
            };
            let _ = tx_error.unbounded_send(Err(format!("the probe worker crashed: {detail}")));
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        let mut this = ProbeWorker {
            worker,
            replies,
            _on_message: on_message,
            _on_error: on_error,
        };
        let first = match futures::future::select(
            Box::pin(this.next()),
            Box::pin(gloo_timers::future::TimeoutFuture::new(READY_TIMEOUT_MS)),
        )
        .await
        {
            futures::future::Either::Left((reply, _)) => Some(reply),
            futures::future::Either::Right(_) => None,
        };
        match first {
            Some(Ok(FromWorker::Ready { protocol })) if protocol == PROTOCOL_VERSION => Ok(this),
            Some(Ok(FromWorker::Ready { protocol })) => Err(format!(
                "the probe worker speaks protocol {protocol}, the page {PROTOCOL_VERSION}: reload the page"
            )),
            Some(Ok(other)) => Err(format!(
                "the probe worker did not say ready first: {other:?}"
            )),
            Some(Err(e)) => Err(e),
            None => Err(format!(
                "the probe worker did not start within {} s",
                READY_TIMEOUT_MS / 1000
            )),
        }
    }

    /// Hands the worker the run's shared memory.
    pub fn share(&self, memory: &js_sys::Int32Array) -> Result<(), String> {
        self.worker
            .post_message(&memory.buffer())
            .map_err(|e| js_error_message(&e))
    }

    /// Hands the worker one end of a `MessageChannel`.
    pub fn share_port(&self, port: &web_sys::MessagePort) -> Result<(), String> {
        self.worker
            .post_message_with_transfer(port, &js_sys::Array::of1(port))
            .map_err(|e| js_error_message(&e))
    }

    /// Sends a job.
    pub fn send(&self, msg: &ToWorker) -> Result<(), String> {
        self.worker
            .post_message(&JsValue::from_str(&msg.to_json()))
            .map_err(|e| js_error_message(&e))
    }

    /// The next reply; an error if the worker crashed or went away.
    pub async fn next(&mut self) -> Reply {
        self.replies
            .next()
            .await
            .unwrap_or_else(|| Err("the probe worker went away".to_owned()))
    }
}

impl Drop for ProbeWorker {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}
