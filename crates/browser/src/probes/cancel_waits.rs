//! Cancellable waits inside the workers (experiment 6): the waiter's side
//! of each strategy. The canceller is experiment 4's setter
//! ([`super::wake_latency::set_rounds`], [`super::wake_latency::set_rounds_by_message`]):
//! after the waiter's go it busy-waits the round's cancel point, stamps
//! `timeOrigin + now()` and raises the cancel word (or posts the stamp).
//!
//! A round's time is the waiter's stamp when it is free minus the
//! canceller's stamp. Nothing is made between the two: the shared-memory
//! waits are one `Atomics.wait` call, and the aborted timer's handlers are
//! made once per run and its controller before the round's go.

use crate::clock::epoch_now;
use crate::memory::{self, Slots};
use crate::wait::{park, timer_function, wake};
use crate::{trace, worker_scope};
use js_sys::Function;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::task::{Poll, Waker};
use waitlab_core::experiments::cancel_waits::Strategy;
use waitlab_core::experiments::cancel_waits::job::CancelJob;
use waitlab_core::protocol::FromWorker;
use waitlab_core::protocol::shared_slots::{FLAG, GO, SLEEP, T_SET};
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{AbortController, MessageEvent, MessagePort};

/// The waiter's side of the strategies that wait in `Atomics.wait`:
/// `rounds` waits of `wait_ms`, the blind sleep on a word nobody signals,
/// the cancel event on the cancel word. Returns each round's raw
/// cancel→free time (waiter's clock minus canceller's), ms. Blocks the
/// worker for the whole run.
pub fn wait_rounds(
    strategy: Strategy,
    rounds: u32,
    wait_ms: u32,
    slots: &Slots,
) -> Result<Vec<f64>, String> {
    let word = match strategy {
        Strategy::BlindSleep => SLEEP,
        Strategy::CancelEvent => FLAG,
        other => {
            return Err(format!(
                "{} is not a shared-memory strategy of the page",
                other.id()
            ));
        }
    };
    let mut out = Vec::with_capacity(rounds as usize);
    let (kind, name) = strategy.timeline();
    for round in 0..rounds {
        let began = epoch_now();
        slots.store_and_notify(FLAG, 0);
        slots.store_and_notify(GO, round as i32 + 1);
        memory::wait(slots.ints(), word, 0, f64::from(wait_ms))?;
        let free = epoch_now();
        // The stamp is this round's once the cancel word is up; a wait
        // that ran out before its cancel waits for it here.
        slots.wait_while(FLAG, 0)?;
        let cancelled = slots.get_f64(T_SET);
        out.push(free - cancelled);
        trace::span_epoch(kind, name, began, free);
        trace::flow(name, cancelled, free);
    }
    Ok(out)
}

/// What one round of the aborted timer has seen so far.
#[derive(Default)]
struct Race {
    /// The canceller's stamp, from its message.
    cancelled_at: Cell<Option<f64>>,
    /// When the waiter was free: the abort's handler or the timer's.
    free_at: Cell<Option<f64>>,
    /// The pending timer.
    timer: Cell<Option<i32>>,
    /// The round's controller, which the canceller's message aborts.
    controller: RefCell<Option<AbortController>>,
    /// Who awaits the round.
    waker: RefCell<Option<Waker>>,
}

impl Race {
    /// The waiter is free now (the first of the abort and the timer).
    fn free(&self) {
        if self.free_at.get().is_none() {
            self.free_at.set(Some(epoch_now()));
        }
    }
}

/// The waiter's side of the aborted timer: each round a `setTimeout` of
/// `wait_ms` raced with a fresh `AbortController`'s signal, which the
/// handler of the canceller's message on `port` aborts; the abort's
/// handler clears the timer, as an abortable delay does. Returns each
/// round's raw cancel→free time, ms.
pub async fn abort_rounds(
    rounds: u32,
    wait_ms: u32,
    port: &MessagePort,
) -> Result<Vec<f64>, String> {
    let race = Rc::new(Race::default());
    let (set_timeout, clear_timeout): (Function, Function) =
        (timer_function("setTimeout"), timer_function("clearTimeout"));
    let on_message = {
        let race = race.clone();
        Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            if let Some(controller) = race.controller.borrow().as_ref() {
                controller.abort();
            }
            race.cancelled_at
                .set(Some(e.data().as_f64().unwrap_or(f64::NAN)));
            wake(&race.waker);
        })
    };
    let on_abort = {
        let (race, clear_timeout) = (race.clone(), clear_timeout.clone());
        Closure::<dyn FnMut()>::new(move || {
            race.free();
            if let Some(id) = race.timer.take() {
                let _ = clear_timeout.call1(&JsValue::UNDEFINED, &JsValue::from(id));
            }
        })
    };
    let on_timeout = {
        let race = race.clone();
        Closure::<dyn FnMut()>::new(move || {
            race.timer.set(None);
            race.free();
        })
    };
    port.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    let mut out = Vec::with_capacity(rounds as usize);
    let (kind, name) = Strategy::AbortTimer.timeline();
    for round in 0..rounds {
        let began = epoch_now();
        let controller = AbortController::new().map_err(|e| crate::js_error_message(&e))?;
        controller
            .signal()
            .set_onabort(Some(on_abort.as_ref().unchecked_ref()));
        *race.controller.borrow_mut() = Some(controller);
        race.cancelled_at.set(None);
        race.free_at.set(None);
        port.post_message(&JsValue::from(round))
            .map_err(|e| crate::js_error_message(&e))?;
        let id = set_timeout
            .call2(
                &JsValue::UNDEFINED,
                on_timeout.as_ref(),
                &JsValue::from(wait_ms),
            )
            .map_err(|e| crate::js_error_message(&e))?;
        race.timer.set(id.as_f64().map(|id| id as i32));
        // Free, and the cancel has arrived (after the timer, if it ran out
        // first).
        let (free, cancelled) =
            std::future::poll_fn(|cx| match (race.free_at.get(), race.cancelled_at.get()) {
                (Some(free), Some(cancelled)) => Poll::Ready((free, cancelled)),
                _ => park(&race.waker, cx),
            })
            .await;
        out.push(free - cancelled);
        trace::span_epoch(kind, name, began, free);
        trace::flow(name, cancelled, free);
    }
    port.set_onmessage(None);
    *race.controller.borrow_mut() = None;
    if let Some(id) = race.timer.take() {
        let _ = clear_timeout.call1(&JsValue::UNDEFINED, &JsValue::from(id));
    }
    Ok(out)
}

/// Serves experiment 6's worker jobs: the canceller's rounds (the setter
/// of experiment 4), or the waiter's, answered with each round's raw
/// cancel→free time (`WakeDone`).
pub(crate) fn serve(job: CancelJob) {
    trace::ready();
    match job {
        CancelJob::Set {
            strategy,
            points_us,
            ..
        } => super::wake_latency::serve_setter(!strategy.needs_shared_memory(), points_us),
        CancelJob::Wait {
            strategy,
            rounds,
            wait_ms,
        } if strategy.needs_shared_memory() => {
            let result = worker_scope::needed_slots()
                .and_then(|s| wait_rounds(strategy, rounds, wait_ms, &s));
            worker_scope::post(&FromWorker::WakeDone { result });
        }
        CancelJob::Wait {
            rounds, wait_ms, ..
        } => {
            let port = worker_scope::port();
            wasm_bindgen_futures::spawn_local(async move {
                let result = match port {
                    Some(port) => abort_rounds(rounds, wait_ms, &port).await,
                    None => Err(super::sample::NO_PORT.to_owned()),
                };
                worker_scope::post(&FromWorker::WakeDone { result });
            });
        }
    }
}
