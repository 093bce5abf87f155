//! Runs experiment 4: a setter worker and a waiter worker, one strategy at
//! a time, after measuring the skew between their clocks.
//!
//! Every strategy faces the same delays. A strategy that needs shared
//! memory (or `Atomics.waitAsync`) and cannot have it here is reported as
//! unavailable; postMessage runs everywhere. A strategy that does not
//! finish in time fails the run, and dropping the workers ends them.

use crate::runner::Reporter;
use crate::runner::pair::{Pair, Roles, Ways};
use waitlab_browser::memory::{self};
use waitlab_core::clock::corrected_ms;
use waitlab_core::experiments::wake_latency::job::WakeJob;
use waitlab_core::experiments::wake_latency::{Strategy, WakeConfig, WakeLatency};
use waitlab_core::key;
use waitlab_core::outcome::reason;
use waitlab_core::protocol::ToWorker;
use waitlab_core::text::Phrase;

async fn measure(config: &WakeConfig, reporter: &Reporter) -> Result<WakeLatency, Phrase> {
    let mut pair = Pair::start(
        reporter,
        Roles::setter_and_waiter(key!("wake_latency.too_slow")),
    )
    .await?;
    let delays_us = config.delays_us();
    let limit_ms = config.rounds * 20 + 5000;
    let ways = Ways {
        needs_memory: Strategy::needs_shared_memory,
        missing: |s| {
            let lacks = s == Strategy::AsyncEvent && !memory::has_wait_async();
            lacks.then_some(reason::NO_WAIT_ASYNC)
        },
        by_message: |s| s == Strategy::PostMessage,
    };
    let ways = (&Strategy::BROWSER[..], ways);
    pair.paired(config, reporter, ways, async |pair, strategy| {
        let delays_us = delays_us.clone();
        let set = ToWorker::job(&WakeJob::Set {
            strategy,
            delays_us,
        });
        let rounds = config.rounds;
        let wait = ToWorker::job(&WakeJob::Wait { strategy, rounds });
        pair.measure(&set, &wait, limit_ms, corrected_ms).await
    })
    .await
}

crate::runner::chunks::runner!(
    WakeConfig,
    wake_latency,
    units |c| c.rounds * Strategy::BROWSER.len() as u32,
    measure measure
);
