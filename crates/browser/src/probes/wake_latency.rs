//! Wake latency inside the workers: the setter raises a flag after a delay,
//! the waiter notices it by one strategy and reports set→noticed times;
//! and the ping-pong that measures their clock skew.
//!
//! Both sides stamp `timeOrigin + now()` (`epoch_now`). The setter writes
//! its stamp into an `f64` slot before raising the flag with an atomic
//! store, and the waiter reads it after seeing the flag with an atomic
//! load, so the stamp is always the one of this round.

use super::sample::{NO_PORT, spin_us};
use crate::clock::epoch_now;
use crate::memory::{self, Slots};
use crate::{trace, wait, worker_scope};
use js_sys::Reflect;
use waitlab_core::experiments::wake_latency::Strategy;
use waitlab_core::experiments::wake_latency::job::WakeJob;
use waitlab_core::key;
use waitlab_core::protocol::FromWorker;
use waitlab_core::protocol::shared_slots::{B_RECV, B_SEND, FLAG, GO, PING, PONG, SLEEP, T_SET};
use waitlab_core::text::Key;
use waitlab_core::trace::{Kind, Name};
use wasm_bindgen::JsValue;

/// How long an async-event wait may sleep before re-checking, ms (Firefox
/// ESR's `waitAsync` timeout never fires, so it is raced with a timer).
const ASYNC_RECHECK_MS: u32 = 50;

/// The setter's side of the shared-memory strategies: blocks its worker
/// for the whole run.
pub fn set_rounds(slots: &Slots, delays_us: &[u32]) -> Result<(), String> {
    for (round, &delay) in delays_us.iter().enumerate() {
        slots.wait_while(GO, round as i32)?;
        let began = epoch_now();
        spin_us(delay);
        let set = epoch_now();
        slots.set_f64(T_SET, set);
        slots.store_and_notify(FLAG, 1);
        trace::span_epoch(Kind::Busy, Name::of(DELAY), began, set);
    }
    Ok(())
}

/// The setter's delay before it signals, on the timeline.
const DELAY: Key = key!("timeline.name.delay");

/// The setter's side of the postMessage strategy: answers each "go" on the
/// port with its stamp after the round's delay. Returns after the last.
pub async fn set_rounds_by_message(
    port: &web_sys::MessagePort,
    delays_us: &[u32],
) -> Result<(), String> {
    for &delay in delays_us {
        wait::next_message(port).await;
        let began = epoch_now();
        spin_us(delay);
        let set = epoch_now();
        port.post_message(&JsValue::from_f64(set))
            .map_err(|e| crate::js_error_message(&e))?;
        trace::span_epoch(Kind::Busy, Name::of(DELAY), began, set);
    }
    Ok(())
}

/// How the waiter waits, made once per run: the async event's waiter and
/// the timer poll's timer, each with its one callback.
struct Waiting {
    strategy: Strategy,
    asynchronously: memory::AsyncWaiter,
    timer: wait::Timer,
}

impl Waiting {
    fn new(strategy: Strategy) -> Self {
        Self {
            strategy,
            asynchronously: memory::AsyncWaiter::new(epoch_now),
            timer: wait::Timer::new(),
        }
    }

    /// Waits until the flag is up by the strategy (not `PostMessage`);
    /// returns when it was seen (`epoch_now`): for the async event, the
    /// stamp of the callback that woke it.
    async fn notice(&self, slots: &Slots) -> Result<f64, String> {
        let ints = slots.ints();
        // A spin hints each turn where the browser can (`Atomics.pause()`).
        let pause = memory::pause_hint().unwrap_or(&std::hint::spin_loop);
        let mut woke = None;
        while slots.load(FLAG) == 0 {
            woke = None;
            match self.strategy {
                Strategy::SpinUntil => pause(),
                Strategy::SleepPoll => drop(memory::wait(ints, SLEEP, 0, 1.0)?),
                Strategy::TimerPoll => drop(self.timer.time(1).await),
                Strategy::Event => drop(memory::wait(ints, FLAG, 0, f64::INFINITY)?),
                Strategy::AsyncEvent => {
                    let recheck = f64::from(ASYNC_RECHECK_MS);
                    let limit = ASYNC_RECHECK_MS + 10;
                    woke = self
                        .asynchronously
                        .start(ints, FLAG, 0, recheck, limit)?
                        .1
                        .await;
                }
                other => {
                    return Err(format!(
                        "{} is not a shared-flag strategy of the page",
                        other.id()
                    ));
                }
            }
        }
        Ok(woke.unwrap_or_else(epoch_now))
    }
}

/// The waiter's side of the postMessage strategy: one handler for the
/// run, stamping each answer as its first statement.
struct Answers<'a> {
    port: &'a web_sys::MessagePort,
    stamp: wait::Stamp,
    data: JsValue,
}

impl<'a> Answers<'a> {
    fn new(port: &'a web_sys::MessagePort) -> Self {
        let stamp = wait::Stamp::new(epoch_now);
        port.set_onmessage(Some(stamp.callback()));
        Self {
            port,
            stamp,
            data: JsValue::from_str("data"),
        }
    }

    /// Asks for round `round`; returns the setter's stamp and when its
    /// answer arrived.
    async fn ask(&self, round: u32) -> Result<(f64, f64), String> {
        self.stamp.arm();
        self.port
            .post_message(&JsValue::from(round))
            .map_err(|e| crate::js_error_message(&e))?;
        let seen = self.stamp.fired().await;
        let event = self.stamp.value();
        let t_set = Reflect::get(&event, &self.data)
            .ok()
            .and_then(|v| v.as_f64())
            .unwrap_or(f64::NAN);
        Ok((t_set, seen))
    }
}

impl Drop for Answers<'_> {
    fn drop(&mut self) {
        self.port.set_onmessage(None);
    }
}

/// The waiter's side: `rounds` rounds, each "go" then notice; returns the
/// raw set→noticed times (waiter's clock minus setter's), ms.
pub async fn wait_rounds(
    strategy: Strategy,
    rounds: u32,
    slots: Option<&Slots>,
    port: Option<&web_sys::MessagePort>,
) -> Result<Vec<f64>, String> {
    let mut out = Vec::with_capacity(rounds as usize);
    let (kind, name) = strategy.timeline();
    let answers = match strategy {
        Strategy::PostMessage => Some(Answers::new(port.ok_or(NO_PORT)?)),
        _ => None,
    };
    let waiting = Waiting::new(strategy);
    for round in 0..rounds {
        let began = epoch_now();
        let (t_set, seen) = if let Some(answers) = &answers {
            answers.ask(round).await?
        } else {
            let slots = slots.ok_or(memory::NOT_SHARED)?;
            slots.store_and_notify(FLAG, 0);
            slots.store_and_notify(GO, round as i32 + 1);
            let seen = waiting.notice(slots).await?;
            (slots.get_f64(T_SET), seen)
        };
        out.push(seen - t_set);
        trace::span_epoch(kind, name, began, seen);
        trace::flow(name, t_set, seen);
    }
    Ok(out)
}

/// The setter's side of the skew exchange.
pub fn pong(slots: &Slots, exchanges: u32) -> Result<(), String> {
    for k in 0..exchanges as i32 {
        slots.wait_while(PING, k)?;
        slots.set_f64(B_RECV, epoch_now());
        slots.set_f64(B_SEND, epoch_now());
        slots.store_and_notify(PONG, k + 1);
    }
    Ok(())
}

/// The waiter's side of the skew exchange: `[a_send, b_recv, b_send,
/// a_recv]` per exchange.
pub fn ping(slots: &Slots, exchanges: u32) -> Result<Vec<[f64; 4]>, String> {
    (0..exchanges as i32)
        .map(|k| {
            let a_send = epoch_now();
            slots.store_and_notify(PING, k + 1);
            slots.wait_while(PONG, k)?;
            let a_recv = epoch_now();
            Ok([a_send, slots.get_f64(B_RECV), slots.get_f64(B_SEND), a_recv])
        })
        .collect()
}

/// The setter's side of wake latency and the canceller's of cancellable
/// waits: after each go, the round's delay, then the flag raised in
/// shared memory or, `by_message`, the stamp posted on the port; answered
/// with `SetterDone`.
pub(crate) fn serve_setter(by_message: bool, delays_us: Vec<u32>) {
    if by_message {
        let port = worker_scope::port();
        wasm_bindgen_futures::spawn_local(async move {
            let result = match port {
                Some(port) => set_rounds_by_message(&port, &delays_us).await,
                None => Err(NO_PORT.to_owned()),
            };
            worker_scope::post(&FromWorker::SetterDone { result });
        });
    } else {
        let result = worker_scope::needed_slots().and_then(|s| set_rounds(&s, &delays_us));
        worker_scope::post(&FromWorker::SetterDone { result });
    }
}

/// Serves experiment 4's worker jobs: the setter's rounds, or the
/// waiter's, answered with its raw times (`WakeDone`).
pub(crate) fn serve(job: WakeJob) {
    trace::ready();
    match job {
        WakeJob::Set {
            strategy,
            delays_us,
        } => serve_setter(strategy == Strategy::PostMessage, delays_us),
        WakeJob::Wait { strategy, rounds } => wasm_bindgen_futures::spawn_local(async move {
            let (slots, port) = (worker_scope::slots(), worker_scope::port());
            let result = wait_rounds(strategy, rounds, slots.as_ref(), port.as_ref()).await;
            worker_scope::post(&FromWorker::WakeDone { result });
        }),
    }
}
