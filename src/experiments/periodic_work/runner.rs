//! Runs experiment 7: the three loops on the main thread, then the same
//! three in a worker, each tick with the same seeded work. Progress is
//! published between loops only, and the page draws it before the next
//! loop starts, so nothing of the page runs inside a loop.

use crate::runner::Reporter;
use waitlab_browser::probes::periodic_work;
use waitlab_browser::{wait, worker_host::ProbeWorker};
use waitlab_core::experiments::periodic_work::job::WorkerLoop;
use waitlab_core::experiments::periodic_work::{
    PeriodicConfig, PeriodicResult, PeriodicWork, Scheduler,
};
use waitlab_core::key;
use waitlab_core::outcome::Outcome;
use waitlab_core::protocol::{FromWorker, ToWorker};
use waitlab_core::text::Phrase;

async fn measure(config: &PeriodicConfig, reporter: &Reporter) -> Result<PeriodicWork, Phrase> {
    let work_us = config.work_us();
    let mut results = Vec::new();
    let main = Scheduler::MAIN
        .into_iter()
        .filter_map(|s| s.schedule().map(|schedule| (s, schedule)));
    for (scheduler, schedule) in main {
        reporter.update(|p| p.main = Some(scheduler.label()));
        wait::let_page_render().await;
        let lateness =
            periodic_work::run(schedule, config.interval_ms, &work_us, scheduler.timeline()).await;
        let outcome = Outcome::of_samples(lateness);
        results.push(PeriodicResult { scheduler, outcome });
        reporter.update(|p| p.done += config.ticks);
    }
    reporter.update(|p| {
        p.main = None;
        p.worker = Some(Phrase::new(key!("progress.starting_worker")));
    });
    let mut worker = ProbeWorker::start().await?;
    for scheduler in Scheduler::WORKER {
        reporter.update(|p| p.worker = Some(scheduler.label()));
        worker.send(&ToWorker::job(&WorkerLoop {
            scheduler,
            interval_ms: config.interval_ms,
            work_us: work_us.clone(),
        }))?;
        let outcome = match worker.next().await? {
            FromWorker::Done { outcome, .. } => outcome.into_outcome(),
            other => return Err(crate::runner::unexpected(key!("role.probe_worker"), &other)),
        };
        results.push(PeriodicResult { scheduler, outcome });
        reporter.update(|p| p.done += config.ticks);
    }
    Ok(PeriodicWork {
        config: config.clone(),
        results,
    })
}

crate::runner::chunks::runner!(
    PeriodicConfig,
    periodic_work,
    units |c| c.ticks * (Scheduler::MAIN.len() + Scheduler::WORKER.len()) as u32,
    measure measure
);
