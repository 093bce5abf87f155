//! Experiment 9's section: the configuration, the clocks' skew, and each
//! channel's sketch of latencies and its burst's time (the codec's
//! precision).

use crate::experiments::producer_consumer::{
    Channel, ChannelRun, ProducerConsumer, ProducerConsumerConfig,
};
use crate::link::LinkError;
use crate::link::wire::{Reader, Writer};

impl Writer {
    pub(crate) fn producer_consumer(&mut self, h: &ProducerConsumer) {
        h.config.write(self);
        self.maybe_q(h.skew_ms);
        self.len(h.runs.len());
        for r in &h.runs {
            self.byte(r.channel.code());
            self.outcome(&r.outcome, h.config.items);
            self.maybe_q(r.burst_ms);
        }
    }
}

impl Reader<'_> {
    pub(crate) fn producer_consumer(&mut self) -> Result<ProducerConsumer, LinkError> {
        let config = ProducerConsumerConfig::read(self)?;
        let skew_ms = self.maybe_q()?;
        let n = self.upto(Channel::every().count() as u64)?;
        let runs = (0..n)
            .map(|_| {
                Ok(ChannelRun {
                    channel: Channel::from_code(self.byte()?)
                        .ok_or(LinkError::Damaged("an unknown channel"))?,
                    outcome: self.outcome(config.items)?,
                    burst_ms: match self.maybe_q()? {
                        Some(ms) if !(ms > 0.0 && ms.is_finite()) => {
                            return Err(LinkError::Damaged("a burst that took no time"));
                        }
                        burst => burst,
                    },
                })
            })
            .collect::<Result<Vec<_>, LinkError>>()?;
        Ok(ProducerConsumer {
            config,
            skew_ms,
            runs,
        })
    }
}
