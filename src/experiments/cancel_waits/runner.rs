//! Runs experiment 6: a canceller worker and a waiter worker, one strategy
//! at a time, after measuring the skew between their clocks.
//!
//! Every strategy faces the same cancel points. The two that wait in
//! `Atomics.wait` need shared memory and are reported as unavailable
//! without it; the aborted timer runs everywhere. A strategy that does not
//! finish in time fails the run, and dropping the workers ends them.

use crate::runner::pair::{Pair, Roles};
use crate::runner::{Publish, Reporter, RunScope};
use waitlab_core::experiments::cancel_waits::{
    CancelConfig, CancelResult, CancelWaits, Strategy, after_cancel_ms,
};
use waitlab_core::key;
use waitlab_core::outcome::Outcome;
use waitlab_core::protocol::ToWorker;
use waitlab_core::schema::Report;
use waitlab_core::text::Phrase;

async fn measure(config: &CancelConfig, reporter: &Reporter) -> Result<CancelWaits, Phrase> {
    let mut pair = Pair::start(
        reporter,
        Roles::setter_and_waiter(key!("cancel_waits.too_slow")),
    )
    .await?;
    let points_us = config.cancel_points_us();
    let limit_ms = config.rounds.saturating_mul(config.wait_ms + 20) + 5000;
    let mut results = Vec::new();
    for strategy in Strategy::BROWSER {
        reporter.update(|p| p.worker = Some(strategy.label()));
        let outcome = match &pair.slots {
            Err(reason) if strategy.needs_shared_memory() => Outcome::Unavailable {
                reason: (*reason).to_owned(),
            },
            _ => {
                if !strategy.needs_shared_memory() {
                    pair.connect()?;
                }
                let set = ToWorker::CancelSet {
                    strategy,
                    points_us: points_us.clone(),
                    wait_ms: config.wait_ms,
                };
                let wait = ToWorker::CancelWait {
                    strategy,
                    rounds: config.rounds,
                    wait_ms: config.wait_ms,
                };
                pair.measure(&set, &wait, limit_ms, after_cancel_ms).await?
            }
        };
        results.push(CancelResult { strategy, outcome });
        reporter.update(|p| p.done += config.rounds);
    }
    Ok(CancelWaits {
        config: config.clone(),
        skew_ms: pair.skew_ms,
        results,
    })
}

/// Runs experiment 6 with `config`.
async fn run_cancel_waits(config: CancelConfig, publish: Publish) -> Report {
    let scope = RunScope::begin();
    let reporter = Reporter::new(publish, config.rounds * Strategy::BROWSER.len() as u32);
    let result = measure(&config, &reporter).await;
    scope.finish_with(result)
}

crate::runner::chunks::runner!(CancelConfig, cancel_waits, run_cancel_waits);
