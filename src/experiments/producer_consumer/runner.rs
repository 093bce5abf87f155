//! Runs experiment 9: a producer worker and a consumer worker, one channel
//! at a time, after measuring the skew between their clocks.
//!
//! Every channel gets the same pauses. The two ring buffers need shared
//! memory and are reported as unavailable without it; the message channel
//! runs everywhere. A channel that does not finish in time fails the run,
//! and dropping the workers ends them.

use crate::runner::pair::{Pair, Roles};
use crate::runner::{Publish, Reporter, RunScope};
use waitlab_core::experiments::Config;
use waitlab_core::experiments::producer_consumer::{
    Channel, ChannelRun, ProducerConsumer, ProducerConsumerConfig,
};
use waitlab_core::key;
use waitlab_core::outcome::{Outcome, reason};
use waitlab_core::protocol::{FromWorker, ToWorker};
use waitlab_core::schema::Report;
use waitlab_core::text::Phrase;

async fn measure(
    config: &ProducerConsumerConfig,
    reporter: &Reporter,
) -> Result<ProducerConsumer, Phrase> {
    let roles = Roles {
        starting: key!("progress.starting_producer_consumer"),
        setter: key!("role.producer"),
        too_slow: key!("producer_consumer.too_slow"),
    };
    let mut pair = Pair::start(reporter, roles).await?;
    let gaps_us = config.gaps_us();
    let limit_ms = config.estimated_ms() as u32 * 4 + 5000;
    let mut runs = Vec::new();
    for channel in Channel::BROWSER {
        reporter.update(|p| p.worker = Some(channel.label()));
        let run = match &pair.slots {
            Err(why) if channel.needs_shared_memory() => ChannelRun::without(
                channel,
                Outcome::Unavailable {
                    reason: (*why).to_owned(),
                },
            ),
            _ => {
                if !channel.needs_shared_memory() {
                    pair.connect()?;
                }
                let produce = ToWorker::Produce {
                    channel,
                    gaps_us: gaps_us.clone(),
                    burst: config.burst,
                };
                let consume = ToWorker::Consume {
                    channel,
                    items: config.items,
                    burst: config.burst,
                };
                match pair.turn(&produce, &consume, limit_ms).await? {
                    FromWorker::ProducerConsumerDone { result } => {
                        let raw = result.map_err(|e| reason::phrase(&e))?;
                        ChannelRun::measured(channel, raw, pair.skew_ms.unwrap_or(0.0))
                    }
                    other => return Err(crate::runner::unexpected(key!("role.consumer"), &other)),
                }
            }
        };
        runs.push(run);
        reporter.update(|p| p.done += 1);
    }
    Ok(ProducerConsumer {
        config: config.clone(),
        skew_ms: pair.skew_ms,
        runs,
    })
}

/// Runs experiment 9 with `config`.
async fn run_producer_consumer(config: ProducerConsumerConfig, publish: Publish) -> Report {
    let scope = RunScope::begin();
    let reporter = Reporter::new(publish, Channel::BROWSER.len() as u32);
    let result = measure(&config, &reporter).await;
    scope.finish_with(result)
}

crate::runner::chunks::runner!(
    ProducerConsumerConfig,
    producer_consumer,
    run_producer_consumer
);
