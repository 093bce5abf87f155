//! Experiment 6's section: the configuration, the clocks' skew, and each
//! strategy's sketch.

use crate::experiments::cancel_waits::{CancelConfig, CancelResult, CancelWaits};
use crate::link::wire::{Reader, Writer};
use crate::link::{LinkError, Section};

impl Section for CancelWaits {
    fn write(&self, w: &mut Writer) {
        self.config.write(w);
        w.maybe_q(self.skew_ms);
        let rounds = self.config.rounds;
        w.ways(
            &self.results,
            |r| r.strategy,
            |w, r| w.outcome(&r.outcome, rounds),
        );
    }

    fn read(r: &mut Reader<'_>) -> Result<Self, LinkError> {
        let config = CancelConfig::read(r)?;
        let skew_ms = r.maybe_q()?;
        let results = r.ways(|r, strategy| {
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
