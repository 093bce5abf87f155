//! Runs experiment 1 ("timed waits") end to end.
//!
//! The worker's cells run first, then the main thread's, never both at
//! once: a worker's messages would otherwise be parsed, and the progress
//! they carry rendered, on the main thread while it measures. The main
//! thread publishes progress only between samples and then lets the page
//! render before it goes on. Cells that cannot run here (no shared memory,
//! no `scheduler.yield`) are filled in first as unavailable, with the
//! reason. A worker that fails (does not start, throws, crashes, stops
//! answering) ends the run at once with the reason; the cells measured by
//! then are kept. Cancelling is dropping the future:
//! its pending timers are cleared and the worker is terminated by `Drop`.

use crate::runner::{Publish, Reporter, RunScope};
use std::cell::RefCell;
use waitlab_browser::probes;
use waitlab_browser::{memory, wait, worker_host::ProbeWorker};
use waitlab_core::experiments::timed_waits::job::CellJob;
use waitlab_core::experiments::timed_waits::{Cell, NestedChain, TimedWaits};
use waitlab_core::experiments::timed_waits::{CellKey, Mechanism, Thread, TimedWaitsConfig};
use waitlab_core::key;
use waitlab_core::outcome::Outcome;
use waitlab_core::outcome::reason;
use waitlab_core::protocol::{FromWorker, ToWorker, shared_slots};
use waitlab_core::sampling::{Sampling, Stop};
use waitlab_core::schema::{Failure, Report};
use waitlab_core::stats::Samples;
use waitlab_core::text::Phrase;

/// Why a cell cannot run here, before anything is measured.
fn unavailable(
    key: CellKey,
    memory: &Result<js_sys::Int32Array, &'static str>,
) -> Option<&'static str> {
    let m = key.mechanism;
    match m.thread() {
        Thread::Main => probes::timed_waits::main_unavailable(m),
        Thread::Worker => match memory {
            Err(reason) if m.needs_shared_memory() => Some(reason),
            _ if m == Mechanism::WorkerWaitAsync && !memory::has_wait_async() => {
                Some(reason::NO_WAIT_ASYNC)
            }
            _ => None,
        },
        Thread::Os => Some(reason::NATIVE_ONLY),
    }
}

/// Runs experiment 1 with `config`, publishing progress as it goes.
async fn run_timed_waits(config: TimedWaitsConfig, publish: Publish) -> Report {
    let scope = RunScope::begin();
    let memory = memory::new_shared_i32(shared_slots::LEN);

    let keys = config.cells();
    let outcomes: RefCell<Vec<Option<Outcome>>> = RefCell::new(
        keys.iter()
            .map(|&k| {
                unavailable(k, &memory).map(|reason| Outcome::Unavailable {
                    reason: reason.to_owned(),
                })
            })
            .collect(),
    );
    let pending = |thread: Thread| -> Vec<(usize, CellKey)> {
        let outcomes = outcomes.borrow();
        keys.iter()
            .copied()
            .enumerate()
            .filter(|(i, k)| outcomes[*i].is_none() && k.mechanism.thread() == thread)
            .collect()
    };
    let (main_cells, worker_cells) = (pending(Thread::Main), pending(Thread::Worker));
    let reporter = Reporter::new(
        publish,
        (main_cells.len() + worker_cells.len()) as u32 * config.samples + config.chain_runs,
    );

    // The worker's cells first, while the page only waits (its messages
    // and the progress they render touch no measured wait), then the main
    // thread's, with the worker gone. A worker that fails ends the run at
    // once: the reader learns why now, and keeps what was measured.
    let mut failure = None;
    if !worker_cells.is_empty() {
        let memory = memory.as_ref().ok().cloned();
        let sampling = (config.sampling, config.samples, scope.step_ms());
        if let Err(message) =
            run_worker_cells(&worker_cells, memory, sampling, &reporter, &outcomes).await
        {
            failure = Some(message);
        }
        reporter.update(|p| p.worker = None);
    }
    let chain = match failure {
        Some(_) => NestedChain { levels: Vec::new() },
        None => {
            for (i, key) in main_cells {
                reporter.update(|p| p.main = Some(key.label()));
                // Let the page render the new state before measuring, so
                // no rendering work lands inside the first samples.
                wait::let_page_render().await;
                let mut enough = Stop::new(config.sampling, config.samples, scope.step_ms());
                let mut taken = 0;
                let outcome = probes::timed_waits::measure_main(
                    key.mechanism,
                    key.requested_ms.unwrap_or(0),
                    &mut enough,
                    &mut || {
                        taken += 1;
                        reporter.count()
                    },
                )
                .await;
                // A cell that knew its median early counts as done.
                reporter.update(|p| p.done += config.samples.saturating_sub(taken));
                outcomes.borrow_mut()[i] = Some(outcome);
            }
            reporter.update(|p| p.main = Some(Phrase::new(key!("progress.chains"))));
            wait::let_page_render().await;
            let levels = probes::timed_waits::nested_chain(
                config.chain_depth,
                config.chain_runs,
                &mut || reporter.count(),
            )
            .await;
            reporter.update(|p| p.main = None);
            NestedChain {
                levels: levels
                    .into_iter()
                    .filter_map(|l| Samples::new(l).ok().map(|s| s.summary()))
                    .collect(),
            }
        }
    };

    let outcomes = outcomes.take();
    // The reason is said once, in the run's alert; the cells it cut short
    // only say so. A run that measured nothing shows no results at all.
    let measured_any = outcomes
        .iter()
        .flatten()
        .any(|o| !matches!(o, Outcome::Unavailable { .. }));
    let unfinished = if failure.is_some() {
        reason::NOT_MEASURED_STOPPED
    } else {
        reason::NOT_MEASURED
    };
    let cells = keys
        .into_iter()
        .zip(outcomes)
        .map(|(key, outcome)| Cell {
            key,
            outcome: outcome.unwrap_or_else(|| Outcome::Failed {
                message: unfinished.to_owned(),
            }),
        })
        .collect();
    let results = (failure.is_none() || measured_any).then_some(TimedWaits {
        config,
        cells,
        chain,
        own: None,
    });
    scope.finish(|r| {
        r.failure =
            failure.map(|why| Failure::Said(Phrase::new(key!("run.stopped")).phrase("why", why)));
        r.timed_waits = results;
    })
}

async fn run_worker_cells(
    cells: &[(usize, CellKey)],
    memory: Option<js_sys::Int32Array>,
    (sampling, samples, step_ms): (Sampling, u32, f64),
    reporter: &Reporter,
    outcomes: &RefCell<Vec<Option<Outcome>>>,
) -> Result<(), Phrase> {
    let mut worker = ProbeWorker::start().await?;
    if let Some(memory) = &memory {
        worker.share(memory)?;
    }
    for (job, &(i, key)) in cells.iter().enumerate() {
        let job = job as u32;
        reporter.update(|p| p.worker = Some(key.label()));
        // The page draws the update before the worker starts measuring, so
        // that drawing does not share the machine with its samples.
        wait::let_page_render().await;
        worker.send(&ToWorker::job(&CellJob {
            job,
            mechanism: key.mechanism,
            requested_ms: key.requested_ms.unwrap_or(0),
            samples,
            sampling,
            step_ms,
        }))?;
        // The worker says how far it got about once a second; a cell that
        // knew its median early counts as done.
        let mut counted = 0;
        loop {
            match worker.next().await? {
                FromWorker::Progress { job: j, done } if j == job => {
                    reporter.update(|p| p.done += done.saturating_sub(counted));
                    counted = counted.max(done);
                }
                FromWorker::Done { job: j, outcome } if j == job => {
                    reporter.update(|p| p.done += samples.saturating_sub(counted));
                    outcomes.borrow_mut()[i] = Some(outcome.into_outcome());
                    break;
                }
                other => {
                    return Err(crate::runner::unexpected(key!("role.probe_worker"), &other));
                }
            }
        }
    }
    Ok(())
}

crate::runner::chunks::runner!(TimedWaitsConfig, timed_waits, run_timed_waits);
