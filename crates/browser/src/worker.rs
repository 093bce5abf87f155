//! The probe worker: says "ready", then measures what the page asks for.
//!
//! [`run`] is all of the worker binary (the top-level package's
//! `src/bin/worker.rs`), which trunk builds as a no-modules worker
//! (`data-type="worker"`) and `www/worker_loader.js` starts. It blocks only inside a job (in
//! `Atomics.wait`), never between jobs, and answers every job with exactly
//! one `Done`.

use crate::clock::{busy_wait_until, epoch_now, now};
use crate::memory::Slots;
use crate::probes::spin_ladder::measure_ladder;
use crate::probes::timed_waits::measure_in_worker;
use crate::probes::{NO_PORT, cancel_waits, periodic_work, producer_consumer, wake_latency};
use crate::{memory, trace, wait};
use std::cell::RefCell;
use waitlab_core::experiments::JobMode;
use waitlab_core::experiments::wake_latency::Strategy;
use waitlab_core::protocol::{
    FromWorker, HEARTBEAT_MS, PROTOCOL_VERSION, ToWorker, WorkerOutcome, shared_slots,
};
use waitlab_core::sampling::Stop;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

thread_local! {
    static MEMORY: RefCell<Option<js_sys::Int32Array>> = const { RefCell::new(None) };
    static PORT: RefCell<Option<web_sys::MessagePort>> = const { RefCell::new(None) };
}

fn slots() -> Option<Slots> {
    MEMORY.with(|m| m.borrow().clone()).map(Slots::new)
}

/// The port the page handed this worker for its current pair, if any.
fn port() -> Option<web_sys::MessagePort> {
    PORT.with(|p| p.borrow().clone())
}

/// Posts `msg`; before a job's last reply, what the job recorded for the
/// timeline (the job is over: nothing it measures is running).
fn post(msg: &FromWorker) {
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

/// The setter's side of wake latency and the canceller's of cancellable
/// waits: after each go, the round's delay, then the flag raised in
/// shared memory or, `by_message`, the stamp posted on the port.
fn set_rounds(by_message: bool, delays_us: Vec<u32>) {
    if by_message {
        let port = port();
        wasm_bindgen_futures::spawn_local(async move {
            let result = match port {
                Some(port) => wake_latency::set_rounds_by_message(&port, &delays_us).await,
                None => Err(NO_PORT.to_owned()),
            };
            post(&FromWorker::SetterDone { result });
        });
    } else {
        let result = slots()
            .ok_or_else(|| memory::NOT_SHARED.to_owned())
            .and_then(|s| wake_latency::set_rounds(&s, &delays_us));
        post(&FromWorker::SetterDone { result });
    }
}

fn handle(data: JsValue) {
    if data.is_instance_of::<js_sys::SharedArrayBuffer>() {
        let memory = js_sys::Int32Array::new(&data);
        MEMORY.with(|m| *m.borrow_mut() = Some(memory));
        return;
    }
    if let Some(port) = data.dyn_ref::<web_sys::MessagePort>() {
        PORT.with(|p| *p.borrow_mut() = Some(port.clone()));
        return;
    }
    let request = data
        .dyn_ref::<js_sys::Uint8Array>()
        .ok_or_else(|| "the page sent a message that is not bytes".to_owned())
        .and_then(|bytes| ToWorker::decode(&bytes.to_vec()).map_err(|e| e.to_string()));
    // Room for the timeline before a job that records anything.
    if !matches!(
        request,
        Err(_)
            | Ok(ToWorker::PoolJob { .. }
                | ToWorker::ClockPing
                | ToWorker::SkewPing { .. }
                | ToWorker::SkewPong { .. })
    ) {
        trace::ready();
    }
    match request {
        Ok(ToWorker::Run {
            job,
            mechanism,
            requested_ms,
            samples,
            sampling,
            step_ms,
        }) => wasm_bindgen_futures::spawn_local(async move {
            let memory = MEMORY.with(|m| m.borrow().clone());
            // A sign of life every HEARTBEAT_MS, no more often: each one
            // makes the page parse and draw while this worker measures.
            let (mut done, mut last) = (0, now());
            let mut tick = || {
                done += 1;
                if now() - last >= f64::from(HEARTBEAT_MS) {
                    last = now();
                    post(&FromWorker::Progress { job, done });
                }
            };
            let mut enough = Stop::new(sampling, samples, step_ms);
            let memory = memory.as_ref();
            let outcome =
                measure_in_worker(mechanism, requested_ms, &mut enough, memory, &mut tick).await;
            post(&FromWorker::Done { job, outcome });
        }),
        Ok(ToWorker::PoolJob { job, mode, wait_ms }) => {
            let start_ms = epoch_now();
            match mode {
                JobMode::Blocking => {
                    let memory = MEMORY.with(|m| m.borrow().clone());
                    match memory {
                        Some(memory) => {
                            let _ =
                                memory::wait(&memory, shared_slots::SLEEP, 0, f64::from(wait_ms));
                        }
                        // Without shared memory the only way to block is to spin.
                        None => busy_wait_until(now() + f64::from(wait_ms)),
                    }
                    post(&FromWorker::JobDone {
                        job,
                        start_ms,
                        end_ms: epoch_now(),
                    });
                }
                JobMode::Async => wasm_bindgen_futures::spawn_local(async move {
                    wait::timeout(wait_ms).await;
                    post(&FromWorker::JobDone {
                        job,
                        start_ms,
                        end_ms: epoch_now(),
                    });
                }),
            }
        }
        Ok(ToWorker::WakeSet {
            strategy,
            delays_us,
        }) => set_rounds(strategy == Strategy::PostMessage, delays_us),
        Ok(ToWorker::CancelSet {
            strategy,
            points_us,
            ..
        }) => set_rounds(!strategy.needs_shared_memory(), points_us),
        Ok(ToWorker::CancelWait {
            strategy,
            rounds,
            wait_ms,
        }) => {
            if strategy.needs_shared_memory() {
                let result = slots()
                    .ok_or_else(|| memory::NOT_SHARED.to_owned())
                    .and_then(|s| cancel_waits::wait_rounds(strategy, rounds, wait_ms, &s));
                post(&FromWorker::WakeDone { result });
            } else {
                let port = port();
                wasm_bindgen_futures::spawn_local(async move {
                    let result = match port {
                        Some(port) => cancel_waits::abort_rounds(rounds, wait_ms, &port).await,
                        None => Err(NO_PORT.to_owned()),
                    };
                    post(&FromWorker::WakeDone { result });
                });
            }
        }
        Ok(ToWorker::Periodic {
            scheduler,
            interval_ms,
            work_us,
        }) => wasm_bindgen_futures::spawn_local(async move {
            let outcome = match scheduler.schedule() {
                Some(schedule) => WorkerOutcome::Samples {
                    samples_ms: periodic_work::run(
                        schedule,
                        interval_ms,
                        &work_us,
                        scheduler.timeline(),
                    )
                    .await,
                },
                None => WorkerOutcome::Failed {
                    message: format!("{} does not run in a worker", scheduler.id()),
                },
            };
            post(&FromWorker::Done { job: 0, outcome });
        }),
        Ok(ToWorker::Produce {
            channel,
            gaps_us,
            burst,
        }) => wasm_bindgen_futures::spawn_local(async move {
            let port = port();
            let result = producer_consumer::produce(
                channel,
                &gaps_us,
                burst,
                slots().as_ref(),
                port.as_ref(),
            )
            .await;
            post(&FromWorker::SetterDone { result });
        }),
        Ok(ToWorker::Consume {
            channel,
            items,
            burst,
        }) => wasm_bindgen_futures::spawn_local(async move {
            let port = port();
            let result =
                producer_consumer::consume(channel, items, burst, slots().as_ref(), port.as_ref())
                    .await;
            post(&FromWorker::ProducerConsumerDone { result });
        }),
        Ok(ToWorker::WakeWait { strategy, rounds }) => {
            wasm_bindgen_futures::spawn_local(async move {
                let port = port();
                let result =
                    wake_latency::wait_rounds(strategy, rounds, slots().as_ref(), port.as_ref())
                        .await;
                post(&FromWorker::WakeDone { result });
            })
        }
        Ok(ToWorker::SkewPong { exchanges }) => {
            let result = slots()
                .ok_or_else(|| memory::NOT_SHARED.to_owned())
                .and_then(|s| wake_latency::pong(&s, exchanges));
            post(&FromWorker::SetterDone { result });
        }
        Ok(ToWorker::SkewPing { exchanges }) => {
            let result = slots()
                .ok_or_else(|| memory::NOT_SHARED.to_owned())
                .and_then(|s| wake_latency::ping(&s, exchanges));
            post(&FromWorker::SkewDone { result });
        }
        Ok(ToWorker::ClockPing) => {
            let received_ms = epoch_now();
            post(&FromWorker::ClockPong {
                received_ms,
                sent_ms: epoch_now(),
            });
        }
        Ok(ToWorker::Ladder { config }) => {
            let memory = MEMORY.with(|m| m.borrow().clone());
            let result = measure_ladder(&config, memory.as_ref());
            post(&FromWorker::LadderDone { result });
        }
        Err(message) => post(&FromWorker::Done {
            job: u32::MAX,
            outcome: WorkerOutcome::Failed { message },
        }),
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
