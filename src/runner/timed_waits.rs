//! Runs experiment 1 ("timed waits") end to end.
//!
//! The main-thread probes and the worker probes run at the same time: they
//! wait on different threads and mostly sleep, so running them side by side
//! halves the wall time without contending for a core. Cells that cannot run
//! here (no shared memory, no `scheduler.yield`) are filled in first as
//! unavailable, with the reason. Cancelling is dropping the future: its
//! pending timers are cleared and the worker is terminated by `Drop`.

use super::{Progress, Publish, Reporter, RunScope};
use crate::browser::{shared, wait, worker_host::ProbeWorker};
use crate::probes;
use futures::future::join;
use std::cell::RefCell;
use std::rc::Rc;
use waitlab_core::probe::{CellKey, Mechanism, Thread, TimedWaitsConfig};
use waitlab_core::protocol::{FromWorker, ToWorker, shared_slots};
use waitlab_core::schema::{Cell, NestedChain, Outcome, Report, TimedWaits};
use waitlab_core::stats::Samples;

/// Why a cell cannot run here, before anything is measured.
fn unavailable(key: CellKey, memory: &Result<js_sys::Int32Array, &'static str>) -> Option<String> {
    let m = key.mechanism;
    match m.thread() {
        Thread::Main => probes::main_unavailable(m),
        Thread::Worker => match memory {
            Err(reason) if m.needs_shared_memory() => Some((*reason).to_owned()),
            _ if m == Mechanism::WorkerWaitAsync && !shared::has_wait_async() => {
                Some("Atomics.waitAsync is not supported in this browser".to_owned())
            }
            _ => None,
        },
        Thread::Os => Some(format!("{} is a native probe", m.id())),
    }
}

/// Runs experiment 1 with `config`, publishing progress as it goes.
pub async fn run_timed_waits(config: TimedWaitsConfig, publish: Publish) -> Report {
    let scope = RunScope::begin();
    let memory = shared::new_shared_i32(shared_slots::LEN);

    let keys = config.cells();
    let outcomes: Rc<RefCell<Vec<Option<Outcome>>>> = Rc::new(RefCell::new(
        keys.iter()
            .map(|&k| unavailable(k, &memory).map(|reason| Outcome::Unavailable { reason }))
            .collect(),
    ));
    let pending = |thread: Thread| -> Vec<(usize, CellKey)> {
        let outcomes = outcomes.borrow();
        keys.iter()
            .copied()
            .enumerate()
            .filter(|(i, k)| outcomes[*i].is_none() && k.mechanism.thread() == thread)
            .collect()
    };
    let (main_cells, worker_cells) = (pending(Thread::Main), pending(Thread::Worker));
    let reporter = Reporter {
        state: Rc::new(RefCell::new(Progress {
            total: (main_cells.len() + worker_cells.len()) as u32 * config.samples
                + config.chain_runs,
            ..Progress::default()
        })),
        publish,
    };

    let main_part = {
        let (reporter, outcomes) = (reporter.clone(), outcomes.clone());
        async move {
            for (i, key) in main_cells {
                reporter.update(|p| p.main = Some(key.label()));
                // Let the page render the new state before measuring, so
                // no rendering work lands inside the first samples.
                wait::fresh_task().await;
                let mut tick = || reporter.update(|p| p.done += 1);
                let outcome = probes::measure_main(
                    key.mechanism,
                    key.requested_ms.unwrap_or(0),
                    config.samples,
                    &mut tick,
                )
                .await;
                outcomes.borrow_mut()[i] = Some(outcome);
            }
            reporter.update(|p| p.main = None);
            let mut tick = || reporter.update(|p| p.done += 1);
            let levels =
                probes::nested_chain(config.chain_depth, config.chain_runs, &mut tick).await;
            NestedChain {
                levels: levels
                    .into_iter()
                    .filter_map(|l| Samples::new(l).ok().map(|s| s.summary()))
                    .collect(),
            }
        }
    };
    let worker_part = {
        let (reporter, outcomes) = (reporter.clone(), outcomes.clone());
        let memory = memory.as_ref().ok().cloned();
        async move {
            if worker_cells.is_empty() {
                return;
            }
            let failed =
                match run_worker_cells(&worker_cells, memory, config.samples, &reporter, &outcomes)
                    .await
                {
                    Ok(()) => return,
                    Err(message) => message,
                };
            // The worker could not start or crashed: every cell it had not
            // finished gets the message.
            for (i, _) in worker_cells {
                outcomes.borrow_mut()[i].get_or_insert_with(|| Outcome::Failed {
                    message: failed.clone(),
                });
            }
        }
    };
    let (chain, ()) = join(main_part, worker_part).await;
    reporter.update(|p| p.worker = None);

    let outcomes = outcomes.take();
    let cells = keys
        .into_iter()
        .zip(outcomes)
        .map(|(key, outcome)| Cell {
            key,
            outcome: outcome.unwrap_or_else(|| Outcome::Failed {
                message: "not measured".to_owned(),
            }),
        })
        .collect();
    scope.finish(|r| {
        r.timed_waits = Some(TimedWaits {
            config,
            cells,
            chain,
        })
    })
}

async fn run_worker_cells(
    cells: &[(usize, CellKey)],
    memory: Option<js_sys::Int32Array>,
    samples: u32,
    reporter: &Reporter,
    outcomes: &RefCell<Vec<Option<Outcome>>>,
) -> Result<(), String> {
    let mut worker = ProbeWorker::start().await?;
    if let Some(memory) = &memory {
        worker.share(memory)?;
    }
    for (job, &(i, key)) in cells.iter().enumerate() {
        let job = job as u32;
        reporter.update(|p| p.worker = Some(key.label()));
        worker.send(&ToWorker::Run {
            job,
            mechanism: key.mechanism,
            requested_ms: key.requested_ms.unwrap_or(0),
            samples,
        })?;
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
                    return Err(format!(
                        "unexpected message from the probe worker: {other:?}"
                    ));
                }
            }
        }
    }
    Ok(())
}
