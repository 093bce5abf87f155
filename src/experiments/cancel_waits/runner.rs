//! Runs experiment 6: a canceller worker and a waiter worker, one strategy
//! at a time, after measuring the skew between their clocks.
//!
//! Every strategy faces the same cancel points. The two that wait in
//! `Atomics.wait` need shared memory and are reported as unavailable
//! without it; the aborted timer runs everywhere. A strategy that does not
//! finish in time fails the run, and dropping the workers ends them.

use crate::runner::Reporter;
use crate::runner::pair::{Pair, Roles, Ways};
use waitlab_core::clock::corrected_ms;
use waitlab_core::experiments::cancel_waits::job::CancelJob;
use waitlab_core::experiments::cancel_waits::{CancelConfig, CancelWaits, Strategy};
use waitlab_core::key;
use waitlab_core::protocol::ToWorker;
use waitlab_core::text::Phrase;

async fn measure(config: &CancelConfig, reporter: &Reporter) -> Result<CancelWaits, Phrase> {
    let mut pair = Pair::start(
        reporter,
        Roles::setter_and_waiter(key!("cancel_waits.too_slow")),
    )
    .await?;
    let points_us = config.cancel_points_us();
    let limit_ms = config.rounds.saturating_mul(config.wait_ms + 20) + 5000;
    let ways = Ways {
        needs_memory: Strategy::needs_shared_memory,
        missing: |_| None,
        by_message: |s| !s.needs_shared_memory(),
    };
    let ways = (&Strategy::BROWSER[..], ways);
    pair.paired(config, reporter, ways, async |pair, strategy| {
        let (rounds, wait_ms) = (config.rounds, config.wait_ms);
        let points_us = points_us.clone();
        let set = ToWorker::job(&CancelJob::Set {
            strategy,
            points_us,
            wait_ms,
        });
        let wait = ToWorker::job(&CancelJob::Wait {
            strategy,
            rounds,
            wait_ms,
        });
        pair.measure(&set, &wait, limit_ms, corrected_ms).await
    })
    .await
}

crate::runner::chunks::runner!(
    CancelConfig,
    cancel_waits,
    units |c| c.rounds * Strategy::BROWSER.len() as u32,
    measure measure
);
