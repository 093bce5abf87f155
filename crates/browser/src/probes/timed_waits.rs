//! Experiment 1's probes: each mechanism timed on the main thread or in a
//! worker, and the nested-timer chain.

use super::sample::{
    Enough, FRAME_TIMEOUT_MS, Stop, WAIT_ASYNC_GRACE_MS, batch_loop, finish, sample_loop,
};
use crate::{clock::now, memory, trace, wait, worker_scope};
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

/// Samples of a wait of microseconds timed in one call of the site's
/// script: about a millisecond of waits, so the loop checks whether it
/// has enough and the page draws its progress about as often as one by one.
const FAST_BATCH: u32 = 25;

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
            sample_loop(enough, tick, label, || async {
                Ok(timer.time(requested_ms).await)
            })
            .await
        }
        Mechanism::TimeoutFreshTask => {
            let (fresh, timer) = (wait::FreshTask::new(), wait::Timer::new());
            sample_loop(enough, tick, label, || async {
                fresh.hop().await;
                Ok(timer.time(requested_ms).await)
            })
            .await
        }
        Mechanism::ResolvedPromise
        | Mechanism::MessageChannel
        | Mechanism::SchedulerYield
        | Mechanism::SchedulerPostTask => {
            match wait::FastWaits::load(mechanism.id(), FAST_BATCH).await {
                Ok(fast) => batch_loop(enough, tick, label, &fast).await,
                Err(message) => Err(Stop::Failed(message)),
            }
        }
        Mechanism::AnimationFrame => {
            let frames = wait::Frames::new();
            sample_loop(enough, tick, label, || async {
                frames.time(FRAME_TIMEOUT_MS).await.ok_or_else(|| {
                    Stop::Failed(format!(
                        "no animation frame came within {} s: browsers pause frames while the page is hidden",
                        FRAME_TIMEOUT_MS / 1000
                    ))
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
    let (fresh, timer) = (wait::FreshTask::new(), wait::Timer::new());
    let (kind, name) = Mechanism::TimeoutAwaited.timeline(Some(0));
    for _ in 0..runs {
        fresh.hop().await;
        for level in levels.iter_mut() {
            let delay = timer.time(0).await;
            let end = now();
            trace::span(kind, name, end - delay, end);
            level.push(delay);
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
            let waiter = memory::AsyncWaiter::new(now);
            let limit_ms = requested_ms + WAIT_ASYNC_GRACE_MS;
            sample_loop(enough, tick, label, || async {
                let (t0, ended) = waiter
                    .start(mem, shared_slots::SLEEP, 0, d, limit_ms)
                    .map_err(Stop::Failed)?;
                match ended.await {
                    Some(at) => Ok(at - t0),
                    None => Err(Stop::NeverFired(now() - t0)),
                }
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
