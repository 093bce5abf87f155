//! Measurement loops: how each mechanism is timed, sample by sample.
//!
//! One sample is the time from just before a wait starts to the first
//! instruction after it ends, read with `performance.now()` on the thread
//! that waits. Main-thread probes run in the page; worker probes run in
//! [`crate::worker`], which calls [`measure_in_worker`], [`measure_ladder`]
//! and the wake-latency sides in [`wake`].

pub mod cancel;
pub mod handoff;
pub mod limit;
pub mod periodic;
pub mod wake;

use crate::{clock::now, memory, wait};
use futures::future::{Either, select};
use std::future::Future;
use waitlab_core::experiments::spin_ladder::{self, LadderConfig, SpinLadder, Step};
use waitlab_core::experiments::timed_waits::Mechanism;
use waitlab_core::outcome::Outcome;
use waitlab_core::outcome::reason;
use waitlab_core::protocol::{WorkerOutcome, shared_slots};

/// How long past its own timeout an `Atomics.waitAsync` may take before the
/// probe declares that the timeout never fires (Firefox ESR's behaviour).
pub const WAIT_ASYNC_GRACE_MS: u32 = 50;
/// How long the page waits for an animation frame before giving up.
const FRAME_TIMEOUT_MS: u32 = 1000;

/// How a sample loop ended early.
enum Stop {
    Failed(String),
    NeverFired(f64),
}

/// Runs `one` `samples` times, calling `tick` after each sample; when
/// `tick` says so, lets the page render before the next sample, so no
/// rendering lands inside a measured wait.
async fn sample_loop<F, Fut>(
    samples: u32,
    tick: &mut dyn FnMut() -> bool,
    mut one: F,
) -> Result<Vec<f64>, Stop>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<f64, Stop>>,
{
    let mut out = Vec::with_capacity(samples as usize);
    for _ in 0..samples {
        out.push(one().await?);
        if tick() {
            wait::let_page_render().await;
        }
    }
    Ok(out)
}

/// Times one future.
async fn timed(f: impl Future<Output = ()>) -> Result<f64, Stop> {
    let t0 = now();
    f.await;
    Ok(now() - t0)
}

/// Times one fallible future.
async fn timed_result(f: impl Future<Output = Result<(), String>>) -> Result<f64, Stop> {
    let t0 = now();
    f.await.map_err(Stop::Failed)?;
    Ok(now() - t0)
}

fn finish(result: Result<Vec<f64>, Stop>) -> WorkerOutcome {
    match result {
        Ok(samples_ms) => WorkerOutcome::Samples { samples_ms },
        Err(Stop::Failed(message)) => WorkerOutcome::Failed { message },
        Err(Stop::NeverFired(waited_ms)) => WorkerOutcome::TimeoutNeverFired { waited_ms },
    }
}

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

/// Measures a main-thread mechanism. `tick` is called after each sample
/// and says when the page should render its progress (between samples).
///
/// # Panics
/// If `mechanism` runs in a worker.
pub async fn measure_main(
    mechanism: Mechanism,
    requested_ms: u32,
    samples: u32,
    tick: &mut dyn FnMut() -> bool,
) -> Outcome {
    let result = match mechanism {
        Mechanism::TimeoutAwaited => {
            let timer = wait::Timer::new();
            sample_loop(samples, tick, || async { Ok(timer.time(requested_ms).await) }).await
        }
        Mechanism::TimeoutFreshTask => {
            let (fresh, timer) = (wait::FreshTask::new(), wait::Timer::new());
            sample_loop(samples, tick, || async {
                fresh.hop().await;
                Ok(timer.time(requested_ms).await)
            })
            .await
        }
        Mechanism::ResolvedPromise => sample_loop(samples, tick, || timed(wait::resolved_promise())).await,
        Mechanism::MessageChannel => {
            let fresh = wait::FreshTask::new();
            sample_loop(samples, tick, || timed(fresh.hop())).await
        }
        Mechanism::SchedulerYield | Mechanism::SchedulerPostTask => {
            let call = if mechanism == Mechanism::SchedulerYield {
                wait::SchedulerCall::yield_now()
            } else {
                wait::SchedulerCall::post_task()
            };
            match call {
                Ok(call) => sample_loop(samples, tick, || timed_result(call.call())).await,
                Err(message) => Err(Stop::Failed(message)),
            }
        }
        Mechanism::AnimationFrame => {
            sample_loop(samples, tick, || {
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
    for _ in 0..runs {
        fresh.hop().await;
        for level in levels.iter_mut() {
            let t0 = now();
            wait::timeout(0).await;
            level.push(now() - t0);
        }
        if tick() {
            wait::let_page_render().await;
        }
    }
    levels
}

/// Measures a worker mechanism inside the worker. `memory` is the shared
/// array the page posted, if any.
pub async fn measure_in_worker(
    mechanism: Mechanism,
    requested_ms: u32,
    samples: u32,
    memory: Option<&js_sys::Int32Array>,
    tick: &mut dyn FnMut(),
) -> WorkerOutcome {
    let d = f64::from(requested_ms);
    // A worker renders nothing: it only counts.
    let tick = &mut || {
        tick();
        false
    };
    let result = match (mechanism, memory) {
        (Mechanism::WorkerTimeout, _) => {
            let timer = wait::Timer::new();
            sample_loop(samples, tick, || async {
                Ok(timer.time(requested_ms).await)
            })
            .await
        }
        (Mechanism::WorkerTimeoutFreshTask, _) => {
            let (fresh, timer) = (wait::FreshTask::new(), wait::Timer::new());
            sample_loop(samples, tick, || async {
                fresh.hop().await;
                Ok(timer.time(requested_ms).await)
            })
            .await
        }
        (Mechanism::WorkerAtomicsWait, Some(mem)) => {
            sample_loop(samples, tick, || async move {
                let t0 = now();
                memory::wait(mem, shared_slots::SLEEP, 0, d).map_err(Stop::Failed)?;
                Ok(now() - t0)
            })
            .await
        }
        (Mechanism::WorkerWaitAsync, Some(mem)) => {
            sample_loop(samples, tick, || async move {
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

/// Performs one `SpinOnce` yield or sleep in a worker (the core does the
/// spins, with its calibrated busy loop).
fn ladder_rest(step: Step, memory: &js_sys::Int32Array) -> Result<(), String> {
    let ms = if step == Step::Sleep1 { 1.0 } else { 0.0 };
    memory::wait(memory, shared_slots::SLEEP, 0, ms).map(drop)
}

/// Walks the `SpinOnce` ladder `config.repeats` times and runs the two
/// spin-untils, in a worker with shared memory. Blocks the worker
/// throughout.
pub fn measure_ladder(
    config: &LadderConfig,
    memory: Option<&js_sys::Int32Array>,
) -> Result<SpinLadder, String> {
    let memory = memory.ok_or(memory::NOT_SHARED)?;
    // The worker's own clock decides how many calls a timed block needs.
    let resolution = crate::clock::measure_granularity(10.0).map_or(0.1, |c| c.resolution_ms());
    spin_ladder::measure(config, &now, resolution, &|s| ladder_rest(s, memory))
}
