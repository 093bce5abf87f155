//! Runs experiment 9: a producer worker and a consumer worker, one channel
//! at a time, after measuring the skew between their clocks.
//!
//! Every channel gets the same pauses. The two ring buffers need shared
//! memory and are reported as unavailable without it; the message channel
//! runs everywhere. A channel that does not finish in time fails the run,
//! and dropping the workers ends them.

use crate::runner::Reporter;
use crate::runner::pair::{Pair, Roles, Ways};
use waitlab_core::experiments::Config;
use waitlab_core::experiments::producer_consumer::job::ChannelJob;
use waitlab_core::experiments::producer_consumer::{
    Channel, ChannelRun, ProducerConsumer, ProducerConsumerConfig, RawChannelRun,
};
use waitlab_core::key;
use waitlab_core::outcome::reason;
use waitlab_core::protocol::ToWorker;
use waitlab_core::text::Phrase;

async fn measure(
    config: &ProducerConsumerConfig,
    reporter: &Reporter,
) -> Result<ProducerConsumer, Phrase> {
    let roles = Roles {
        starting: key!("producer_consumer.starting"),
        setter: key!("role.producer"),
        too_slow: key!("producer_consumer.too_slow"),
    };
    let mut pair = Pair::start(reporter, roles).await?;
    let gaps_us = config.gaps_us();
    let limit_ms = config.estimated_ms() as u32 * 4 + 5000;
    let ways = Ways {
        needs_memory: Channel::needs_shared_memory,
        missing: |_| None,
        by_message: |c| !c.needs_shared_memory(),
    };
    let without = ChannelRun::without;
    let runs = pair
        .each(
            reporter,
            &Channel::BROWSER,
            1,
            ways,
            without,
            async |pair: &mut Pair, channel| {
                let produce = ToWorker::job(&ChannelJob::Produce {
                    channel,
                    gaps_us: gaps_us.clone(),
                    burst: config.burst,
                });
                let consume = ToWorker::job(&ChannelJob::Consume {
                    channel,
                    items: config.items,
                    burst: config.burst,
                });
                let reply = pair.turn(&produce, &consume, limit_ms).await?;
                let result: Result<RawChannelRun, String> =
                    crate::runner::reply(key!("role.consumer"), reply)?;
                let raw = result.map_err(|e| reason::phrase(&e))?;
                Ok(ChannelRun::measured(
                    channel,
                    raw,
                    pair.skew_ms.unwrap_or(0.0),
                ))
            },
        )
        .await?;
    Ok(ProducerConsumer {
        config: config.clone(),
        skew_ms: pair.skew_ms,
        runs,
    })
}

crate::runner::chunks::runner!(
    ProducerConsumerConfig,
    producer_consumer,
    units |_| Channel::BROWSER.len() as u32,
    measure measure
);
