//! Experiment 9's section: the configuration, the clocks' skew, and each
//! channel's sketch of latencies and its burst's time (the codec's
//! precision).

use crate::bytes::Bytes;
use crate::experiments::producer_consumer::{ChannelRun, ProducerConsumer, ProducerConsumerConfig};
use crate::link::codec::LinkError;
use crate::link::wire::{Reader, Section, Writer};

impl Section for ProducerConsumer {
    fn write(&self, w: &mut Writer) {
        self.config.write(w);
        w.maybe_q(self.skew_ms);
        w.ways(
            &self.runs,
            |r| r.channel,
            |w, r| {
                w.outcome(&r.outcome, self.config.items);
                w.maybe_q(r.burst_ms);
            },
        );
    }

    fn read(r: &mut Reader<'_>) -> Result<Self, LinkError> {
        let config = ProducerConsumerConfig::read(r)?;
        let skew_ms = r.maybe_q()?;
        let runs = r.ways(|r, channel| {
            Ok(ChannelRun {
                channel,
                outcome: r.latencies(config.items)?,
                burst_ms: match r.maybe_q()? {
                    Some(ms) if !(ms > 0.0 && ms.is_finite()) => {
                        return Err(LinkError::Damaged("a burst that took no time"));
                    }
                    burst => burst,
                },
            })
        })?;
        Ok(ProducerConsumer {
            config,
            skew_ms,
            runs,
        })
    }
}
