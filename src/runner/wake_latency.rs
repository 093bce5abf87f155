//! Runs experiment 4: a setter worker and a waiter worker, one strategy at
//! a time, after measuring the skew between their clocks.
//!
//! Every strategy faces the same delays. A strategy that needs shared
//! memory (or `Atomics.waitAsync`) and cannot have it here is reported as
//! unavailable; postMessage runs everywhere. A strategy that does not
//! finish in time fails the run, and dropping the workers ends them.

use super::{Publish, Reporter, RunScope};
use crate::i18n::tr;
use futures::future::{Either, select, try_join};
use waitlab_browser::memory::{self, Slots};
use waitlab_browser::{wait, worker_host::ProbeWorker};
use waitlab_core::key;
use waitlab_core::outcome::Outcome;
use waitlab_core::outcome::reason;
use waitlab_core::protocol::{FromWorker, ToWorker, shared_slots};
use waitlab_core::schema::Report;
use waitlab_core::text::Phrase;
use waitlab_core::wake::{Strategy, WakeConfig, WakeLatency, WakeResult, skew_ms};

/// Ping-pong exchanges for the skew estimate.
const SKEW_EXCHANGES: u32 = 32;

/// Awaits the waiter's and then the setter's reply, within `limit_ms`.
async fn replies(
    waiter: &mut ProbeWorker,
    setter: &mut ProbeWorker,
    limit_ms: u32,
) -> Result<(FromWorker, FromWorker), Phrase> {
    let both = Box::pin(async {
        let w = waiter.next().await?;
        let s = setter.next().await?;
        Ok::<_, Phrase>((w, s))
    });
    match select(both, Box::pin(wait::timeout(limit_ms))).await {
        Either::Left((result, _)) => result,
        Either::Right(_) => {
            Err(Phrase::new(key!("wake.too_slow")).count("seconds", limit_ms / 1000))
        }
    }
}

fn setter_ok(reply: FromWorker) -> Result<(), Phrase> {
    match reply {
        FromWorker::SetterDone { result } => result.map_err(|e| reason::phrase(&e)),
        other => Err(super::unexpected(key!("role.setter"), &other)),
    }
}

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
    let slots = memory::new_shared_i32(shared_slots::LEN).map(Slots::new);
    reporter.update(|p| p.worker = Some(Phrase::new(key!("progress.starting_pair"))));
    let (mut setter, mut waiter) = try_join(ProbeWorker::start(), ProbeWorker::start()).await?;
    let mut skew = None;
    if let Ok(slots) = &slots {
        setter.share(slots.ints())?;
        waiter.share(slots.ints())?;
        setter.send(&ToWorker::SkewPong {
            exchanges: SKEW_EXCHANGES,
        })?;
        waiter.send(&ToWorker::SkewPing {
            exchanges: SKEW_EXCHANGES,
        })?;
        match replies(&mut waiter, &mut setter, 10_000).await? {
            (FromWorker::SkewDone { result }, s) => {
                setter_ok(s)?;
                skew = Some(skew_ms(&result.map_err(|e| reason::phrase(&e))?));
            }
            (other, _) => return Err(super::unexpected(key!("role.waiter"), &other)),
        }
    }
    let delays_us = config.delays_us();
    let limit_ms = config.rounds * 20 + 5000;
    let mut results = Vec::new();
    for strategy in Strategy::BROWSER {
        reporter.update(|p| p.worker = Some(strategy.label()));
        if let Some(reason) = unavailable(strategy, &slots) {
            results.push(WakeResult {
                strategy,
                outcome: Outcome::Unavailable {
                    reason: reason.to_owned(),
                },
            });
            reporter.update(|p| p.done += config.rounds);
            continue;
        }
        if strategy == Strategy::PostMessage {
            let channel = web_sys::MessageChannel::new().map_err(|e| {
                Phrase::new(key!("data")).data("text", waitlab_browser::js_error_message(&e))
            })?;
            waiter.share_port(&channel.port1())?;
            setter.share_port(&channel.port2())?;
        } else if let Ok(slots) = &slots {
            slots.store_and_notify(shared_slots::FLAG, 0);
            slots.store_and_notify(shared_slots::GO, 0);
        }
        setter.send(&ToWorker::WakeSet {
            strategy,
            delays_us: delays_us.clone(),
        })?;
        waiter.send(&ToWorker::WakeWait {
            strategy,
            rounds: config.rounds,
        })?;
        let outcome = match replies(&mut waiter, &mut setter, limit_ms).await? {
            (FromWorker::WakeDone { result }, s) => {
                setter_ok(s)?;
                let corrected = result
                    .map_err(|e| reason::phrase(&e))?
                    .into_iter()
                    .map(|raw| raw + skew.unwrap_or(0.0))
                    .collect();
                Outcome::measured(corrected).unwrap_or_else(|e| Outcome::Failed {
                    message: e.to_string(),
                })
            }
            (other, _) => return Err(super::unexpected(key!("role.waiter"), &other)),
        };
        results.push(WakeResult { strategy, outcome });
        reporter.update(|p| p.done += config.rounds);
    }
    Ok(WakeLatency {
        config: config.clone(),
        skew_ms: skew,
        results,
    })
}

/// Runs experiment 4 with `config`.
pub async fn run_wake_latency(config: WakeConfig, publish: Publish) -> Report {
    let scope = RunScope::begin();
    let reporter = Reporter::new(publish, config.rounds * Strategy::BROWSER.len() as u32);
    let result = measure(&config, &reporter).await;
    scope.finish(|r| match result {
        Ok(wake) => r.wake_latency = Some(wake),
        Err(why) => r.failure = Some(tr(&Phrase::new(key!("run.failed")).phrase("why", why))),
    })
}
