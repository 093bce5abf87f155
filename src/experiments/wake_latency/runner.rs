//! Runs experiment 4: a setter worker and a waiter worker, one strategy at
//! a time, after measuring the skew between their clocks.
//!
//! Every strategy faces the same delays. A strategy that needs shared
//! memory (or `Atomics.waitAsync`) and cannot have it here is reported as
//! unavailable; postMessage runs everywhere. A strategy that does not
//! finish in time fails the run, and dropping the workers ends them.

use crate::runner::pair::{Pair, Roles};
use crate::runner::{Publish, Reporter, RunScope};
use waitlab_browser::memory::{self, Slots};
use waitlab_core::experiments::wake_latency::{Strategy, WakeConfig, WakeLatency, WakeResult};
use waitlab_core::key;
use waitlab_core::outcome::Outcome;
use waitlab_core::outcome::reason;
use waitlab_core::protocol::ToWorker;
use waitlab_core::schema::Report;
use waitlab_core::text::Phrase;

fn unavailable(strategy: Strategy, slots: &Result<Slots, &'static str>) -> Option<&'static str> {
    match slots {
        Err(reason) if strategy.needs_shared_memory() => Some(reason),
        _ if strategy == Strategy::AsyncEvent && !memory::has_wait_async() => {
            Some(reason::NO_WAIT_ASYNC)
        }
        _ => None,
    }
}

async fn measure(config: &WakeConfig, reporter: &Reporter) -> Result<WakeLatency, Phrase> {
    let mut pair = Pair::start(
        reporter,
        Roles::setter_and_waiter(key!("wake_latency.too_slow")),
    )
    .await?;
    let delays_us = config.delays_us();
    let limit_ms = config.rounds * 20 + 5000;
    let mut results = Vec::new();
    for strategy in Strategy::BROWSER {
        reporter.update(|p| p.worker = Some(strategy.label()));
        let outcome = match unavailable(strategy, &pair.slots) {
            Some(reason) => Outcome::Unavailable {
                reason: reason.to_owned(),
            },
            None => {
                if strategy == Strategy::PostMessage {
                    pair.connect()?;
                }
                let set = ToWorker::WakeSet {
                    strategy,
                    delays_us: delays_us.clone(),
                };
                let wait = ToWorker::WakeWait {
                    strategy,
                    rounds: config.rounds,
                };
                pair.measure(&set, &wait, limit_ms, |raw, skew| raw + skew)
                    .await?
            }
        };
        results.push(WakeResult { strategy, outcome });
        reporter.update(|p| p.done += config.rounds);
    }
    Ok(WakeLatency {
        config: config.clone(),
        skew_ms: pair.skew_ms,
        results,
    })
}

/// Runs experiment 4 with `config`.
async fn run_wake_latency(config: WakeConfig, publish: Publish) -> Report {
    let scope = RunScope::begin();
    let reporter = Reporter::new(publish, config.rounds * Strategy::BROWSER.len() as u32);
    let result = measure(&config, &reporter).await;
    scope.finish_with(result)
}

crate::runner::chunks::runner!(WakeConfig, wake_latency, run_wake_latency);
