//! The probe worker: says "ready", then measures what the page asks for.
//!
//! [`run`] is all of the worker binary (the top-level package's
//! `src/bin/worker.rs`), which trunk builds as a no-modules worker
//! (`data-type="worker"`) and `www/worker_loader.js` starts. It blocks only inside a job (in
//! `Atomics.wait`), never between jobs, and answers every job with exactly
//! one `Done`. A job of an experiment goes to that experiment's probe
//! ([`probes`]), which answers it through `worker_scope`.

use crate::clock::epoch_now;
use crate::probes::{self, wake_latency};
use crate::worker_scope::{self, needed_slots, post};
use waitlab_core::protocol::{FromWorker, PROTOCOL_VERSION, ToWorker, WorkerOutcome};
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

/// Why a job could not run, as the job's one reply.
fn failed(message: String) {
    post(&FromWorker::Done {
        job: u32::MAX,
        outcome: WorkerOutcome::Failed { message },
    });
}

fn handle(data: JsValue) {
    if data.is_instance_of::<js_sys::SharedArrayBuffer>() {
        worker_scope::keep_memory(js_sys::Int32Array::new(&data));
        return;
    }
    if let Some(port) = data.dyn_ref::<web_sys::MessagePort>() {
        worker_scope::keep_port(port.clone());
        return;
    }
    let request = data
        .dyn_ref::<js_sys::Uint8Array>()
        .ok_or_else(|| "the page sent a message that is not bytes".to_owned())
        .and_then(|bytes| ToWorker::decode(&bytes.to_vec()).map_err(|e| e.to_string()));
    match request {
        // Each experiment's probe serves its own jobs (and makes room for
        // the timeline first where it records).
        Ok(ToWorker::Job {
            experiment, body, ..
        }) => {
            if let Err(message) = probes::serve(experiment, &body) {
                failed(message);
            }
        }
        Ok(ToWorker::SkewPong { exchanges }) => {
            let result = needed_slots().and_then(|s| wake_latency::pong(&s, exchanges));
            post(&FromWorker::SetterDone { result });
        }
        Ok(ToWorker::SkewPing { exchanges }) => {
            let result = needed_slots().and_then(|s| wake_latency::ping(&s, exchanges));
            post(&FromWorker::SkewDone { result });
        }
        Ok(ToWorker::ClockPing) => {
            let received_ms = epoch_now();
            post(&FromWorker::ClockPong {
                received_ms,
                sent_ms: epoch_now(),
            });
        }
        Err(message) => failed(message),
    }
}

/// Starts the worker: installs the message handler and says "ready".
pub fn run() {
    console_error_panic_hook::set_once();
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|e: MessageEvent| handle(e.data()));
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The worker lives as long as its scope; the handler must too.
    on_message.forget();
    post(&FromWorker::Ready {
        protocol: PROTOCOL_VERSION,
    });
}
