//! Runs experiment 3: one worker walks .NET's `SpinOnce` ladder and runs a
//! spin-until with and without the sleep stage.

use crate::runner::{Publish, Reporter, RunScope};
use waitlab_browser::{memory, worker_host::ProbeWorker};
use waitlab_core::experiments::spin_ladder::{LadderConfig, SpinLadder};
use waitlab_core::key;
use waitlab_core::outcome::reason;
use waitlab_core::protocol::{ToWorker, shared_slots};
use waitlab_core::schema::{Failure, Report};
use waitlab_core::text::Phrase;

async fn measure(config: &LadderConfig, reporter: &Reporter) -> Result<SpinLadder, Phrase> {
    let memory = memory::new_shared_i32(shared_slots::LEN).map_err(|reason| {
        Phrase::new(key!("spin_ladder.unavailable")).phrase("reason", reason::phrase(reason))
    })?;
    reporter.update(|p| p.worker = Some(Phrase::new(key!("progress.starting_worker"))));
    let mut worker = ProbeWorker::start().await?;
    worker.share(&memory)?;
    reporter.update(|p| {
        p.worker = Some(
            Phrase::new(key!("spin_ladder.progress"))
                .count("count", config.repeats)
                .count("steps", config.steps)
                .count("ms", config.spin_until_ms),
        )
    });
    worker.send(&ToWorker::job(config))?;
    let result: Result<SpinLadder, String> =
        crate::runner::reply(key!("role.ladder_worker"), worker.next().await?)?;
    let ladder = result.map_err(|e| reason::phrase(&e))?;
    reporter.update(|p| p.done = p.total);
    Ok(ladder)
}

/// Runs experiment 3 with `config`.
async fn run_spin_ladder(config: LadderConfig, publish: Publish) -> Report {
    let scope = RunScope::begin();
    let reporter = Reporter::new(publish, 1);
    let result = measure(&config, &reporter).await;
    scope.finish(|r| match result {
        Ok(ladder) => r.spin_ladder = Some(ladder),
        Err(message) => r.failure = Some(Failure::Said(message)),
    })
}

crate::runner::chunks::runner!(LadderConfig, spin_ladder, run_spin_ladder);
