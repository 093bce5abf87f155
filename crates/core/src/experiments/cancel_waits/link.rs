//! Experiment 6's section: the configuration, the clocks' skew, and each
//! strategy's sketch.

use crate::experiments::cancel_waits::{CancelConfig, CancelResult, CancelWaits};
use crate::link::LinkError;
use crate::link::wire::{Reader, Writer};

impl Writer {
    pub(crate) fn cancel_waits(&mut self, c: &CancelWaits) {
        c.config.write(self);
        self.maybe_q(c.skew_ms);
        let rounds = c.config.rounds;
        self.ways(
            &c.results,
            |r| r.strategy,
            |w, r| w.outcome(&r.outcome, rounds),
        );
    }
}

impl Reader<'_> {
    pub(crate) fn cancel_waits(&mut self) -> Result<CancelWaits, LinkError> {
        let config = CancelConfig::read(self)?;
        let skew_ms = self.maybe_q()?;
        let results = self.ways(|r, strategy| {
            let outcome = r.outcome(config.rounds)?;
            Ok(CancelResult { strategy, outcome })
        })?;
        Ok(CancelWaits {
            config,
            skew_ms,
            results,
        })
    }
}
