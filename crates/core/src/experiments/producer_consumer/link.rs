//! Experiment 9's section: the configuration, the clocks' skew, and each
//! channel's sketch of latencies and its burst's time (the codec's
//! precision).

use crate::experiments::producer_consumer::{ChannelRun, ProducerConsumer, ProducerConsumerConfig};
use crate::link::LinkError;
use crate::link::wire::{Reader, Writer};

impl Writer {
    pub(crate) fn producer_consumer(&mut self, h: &ProducerConsumer) {
        h.config.write(self);
        self.maybe_q(h.skew_ms);
        self.ways(
            &h.runs,
            |r| r.channel,
            |w, r| {
                w.outcome(&r.outcome, h.config.items);
                w.maybe_q(r.burst_ms);
            },
        );
    }
}

impl Reader<'_> {
    pub(crate) fn producer_consumer(&mut self) -> Result<ProducerConsumer, LinkError> {
        let config = ProducerConsumerConfig::read(self)?;
        let skew_ms = self.maybe_q()?;
        let runs = self.ways(|r, channel| {
            Ok(ChannelRun {
                channel,
                outcome: r.outcome(config.items)?,
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
