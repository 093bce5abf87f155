//! Experiment 6's section: the configuration, the clocks' skew, and each
//! strategy's sketch.

use crate::experiments::cancel_waits::{CancelConfig, CancelResult, CancelWaits, Strategy};
use crate::link::LinkError;
use crate::link::wire::{Reader, Writer};

impl Writer {
    pub(crate) fn cancel_waits(&mut self, c: &CancelWaits) {
        c.config.write(self);
        self.maybe_q(c.skew_ms);
        self.len(c.results.len());
        for r in &c.results {
            self.byte(r.strategy.code());
            self.outcome(&r.outcome, c.config.rounds);
        }
    }
}

impl Reader<'_> {
    pub(crate) fn cancel_waits(&mut self) -> Result<CancelWaits, LinkError> {
        let config = CancelConfig::read(self)?;
        let skew_ms = self.maybe_q()?;
        let n = self.upto(Strategy::every().count() as u64)?;
        let results = (0..n)
            .map(|_| {
                Ok(CancelResult {
                    strategy: Strategy::from_code(self.byte()?)
                        .ok_or(LinkError::Damaged("an unknown strategy"))?,
                    outcome: self.outcome(config.rounds)?,
                })
            })
            .collect::<Result<Vec<_>, LinkError>>()?;
        Ok(CancelWaits {
            config,
            skew_ms,
            results,
        })
    }
}
