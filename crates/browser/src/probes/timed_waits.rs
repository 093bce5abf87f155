//! Experiment 1's probes: each mechanism timed on the main thread or in a
//! worker, and the nested-timer chain.

use super::sample::{
    Enough, FRAME_TIMEOUT_MS, Stop, WAIT_ASYNC_GRACE_MS, finish, sample_loop, timed, timed_result,
};
use crate::{clock::now, memory, trace, wait, worker_scope};
use futures::future::{Either, select};
use waitlab_core::experiments::timed_waits::Mechanism;
use waitlab_core::experiments::timed_waits::job::CellJob;
use waitlab_core::outcome::Outcome;
use waitlab_core::outcome::reason;
use waitlab_core::protocol::{FromWorker, HEARTBEAT_MS, WorkerOutcome, shared_slots};

/// Whether a main-thread mechanism exists in this browser; `Some(reason)`
/// (a `waitlab_core::outcome::reason` code) when it does not.
pub fn main_unavailable(mechanism: Mechanism) -> Option<&'static str> {
    match mechanism {
        Mechanism::SchedulerYield if !wait::has_scheduler_yield() => {
            Some(reason::NO_SCHEDULER_YIELD)
        }
        Mechanism::SchedulerPostTask if !wait::has_scheduler_post_task() => {
            Some(reason::NO_SCHEDULER_POST_TASK)
        }
        _ => None,
    }
}

/// Measures a main-thread mechanism until `enough` says the samples are
/// enough. `tick` is called after each sample
/// and says when the page should render its progress (between samples).
///
/// # Panics
/// If `mechanism` runs in a worker.
pub async fn measure_main(
    mechanism: Mechanism,
    requested_ms: u32,
    enough: &mut Enough,
    tick: &mut dyn FnMut() -> bool,
) -> Outcome {
    let label = mechanism.timeline(mechanism.is_timed().then_some(requested_ms));
    let result = match mechanism {
        Mechanism::TimeoutAwaited => {
            let timer = wait::Timer::new();
            sample_loop(enough, tick, label, || async { Ok(timer.time(requested_ms).await) }).await
        }
        Mechanism::TimeoutFreshTask => {
            let (fresh, timer) = (wait::FreshTask::new(), wait::Timer::new());
            sample_loop(enough, tick, label, || async {
                fresh.hop().await;
                Ok(timer.time(requested_ms).await)
            })
            .await
        }
        Mechanism::ResolvedPromise => sample_loop(enough, tick, label, || timed(wait::resolved_promise())).await,
        Mechanism::MessageChannel => {
            let fresh = wait::FreshTask::new();
            sample_loop(enough, tick, label, || timed(fresh.hop())).await
        }
        Mechanism::SchedulerYield | Mechanism::SchedulerPostTask => {
            let call = if mechanism == Mechanism::SchedulerYield {
                wait::SchedulerCall::yield_now()
            } else {
                wait::SchedulerCall::post_task()
            };
            match call {
                Ok(call) => sample_loop(enough, tick, label, || timed_result(call.call())).await,
                Err(message) => Err(Stop::Failed(message)),
            }
        }
        Mechanism::AnimationFrame => {
            sample_loop(enough, tick, label, || {
                timed_result(async {
                    if wait::animation_frame_within(FRAME_TIMEOUT_MS).await {
                        Ok(())
                    } else {
                        Err(format!(
                            "no animation frame came within {} s: browsers pause frames while the page is hidden",
                            FRAME_TIMEOUT_MS / 1000
                        ))
                    }
                })
            })
            .await
        }
        other => panic!("{} is not a main-thread probe", other.id()),
    };
    finish(result).into_outcome()
}

/// The delay of each level of a nested `setTimeout(0)` chain, `runs` times.
/// Each chain starts from a fresh task, so level 1 has nesting level 0.
/// `tick` is called after each chain, as in [`measure_main`].
pub async fn nested_chain(depth: u32, runs: u32, tick: &mut dyn FnMut() -> bool) -> Vec<Vec<f64>> {
    let mut levels = vec![Vec::with_capacity(runs as usize); depth as usize];
    let fresh = wait::FreshTask::new();
    let (kind, name) = Mechanism::TimeoutAwaited.timeline(Some(0));
    for _ in 0..runs {
        fresh.hop().await;
        for level in levels.iter_mut() {
            let t0 = now();
            wait::timeout(0).await;
            let t1 = now();
            trace::span(kind, name, t0, t1);
            level.push(t1 - t0);
        }
        if tick() {
            wait::let_page_render().await;
        }
    }
    levels
}

/// Measures a worker mechanism inside the worker until `enough` says the
/// samples are enough. `memory` is the shared
/// array the page posted, if any.
pub async fn measure_in_worker(
    mechanism: Mechanism,
    requested_ms: u32,
    enough: &mut Enough,
    memory: Option<&js_sys::Int32Array>,
    tick: &mut dyn FnMut(),
) -> WorkerOutcome {
    let d = f64::from(requested_ms);
    let label = mechanism.timeline(Some(requested_ms));
    // A worker renders nothing: it only counts.
    let tick = &mut || {
        tick();
        false
    };
    let result = match (mechanism, memory) {
        (Mechanism::WorkerTimeout, _) => {
            let timer = wait::Timer::new();
            sample_loop(enough, tick, label, || async {
                Ok(timer.time(requested_ms).await)
            })
            .await
        }
        (Mechanism::WorkerTimeoutFreshTask, _) => {
            let (fresh, timer) = (wait::FreshTask::new(), wait::Timer::new());
            sample_loop(enough, tick, label, || async {
                fresh.hop().await;
                Ok(timer.time(requested_ms).await)
            })
            .await
        }
        (Mechanism::WorkerAtomicsWait, Some(mem)) => {
            sample_loop(enough, tick, label, || async move {
                let t0 = now();
                memory::wait(mem, shared_slots::SLEEP, 0, d).map_err(Stop::Failed)?;
                Ok(now() - t0)
            })
            .await
        }
        (Mechanism::WorkerWaitAsync, Some(mem)) => {
            sample_loop(enough, tick, label, || async move {
                let t0 = now();
                match memory::wait_async(mem, shared_slots::SLEEP, 0, d).map_err(Stop::Failed)? {
                    Err(_) => {}
                    Ok(pending) => {
                        let limit = Box::pin(wait::timeout(requested_ms + WAIT_ASYNC_GRACE_MS));
                        if let Either::Right(_) = select(pending, limit).await {
                            return Err(Stop::NeverFired(now() - t0));
                        }
                    }
                }
                Ok(now() - t0)
            })
            .await
        }
        (Mechanism::WorkerAtomicsWait | Mechanism::WorkerWaitAsync, None) => {
            Err(Stop::Failed(memory::NOT_SHARED.to_owned()))
        }
        (other, _) => Err(Stop::Failed(format!(
            "{} does not run in a worker",
            other.id()
        ))),
    };
    finish(result)
}

/// Serves experiment 1's worker job: a cell of waits, saying how far it
/// got every [`HEARTBEAT_MS`] and no more often (each word makes the page
/// parse and draw while this worker measures), answered with `Done`.
pub(crate) fn serve(cell: CellJob) {
    trace::ready();
    wasm_bindgen_futures::spawn_local(async move {
        let memory = worker_scope::memory();
        let job = cell.job;
        let (mut done, mut last) = (0, now());
        let mut tick = || {
            done += 1;
            if now() - last >= f64::from(HEARTBEAT_MS) {
                last = now();
                worker_scope::post(&FromWorker::Progress { job, done });
            }
        };
        let mut enough = Enough::new(cell.sampling, cell.samples, cell.step_ms);
        let outcome = measure_in_worker(
            cell.mechanism,
            cell.requested_ms,
            &mut enough,
            memory.as_ref(),
            &mut tick,
        )
        .await;
        worker_scope::post(&FromWorker::Done { job, outcome });
    });
}
