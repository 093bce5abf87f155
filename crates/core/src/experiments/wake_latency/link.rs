//! Experiment 4's section: the configuration, the clocks' skew, and each
//! strategy's sketch.

use crate::experiments::wake_latency::{WakeConfig, WakeLatency, WakeResult};
use crate::link::LinkError;
use crate::link::wire::{Reader, Writer};

impl Writer {
    pub(crate) fn wake_latency(&mut self, wl: &WakeLatency) {
        wl.config.write(self);
        self.maybe_q(wl.skew_ms);
        let rounds = wl.config.rounds;
        self.ways(
            &wl.results,
            |r| r.strategy,
            |w, r| w.outcome(&r.outcome, rounds),
        );
    }
}

impl Reader<'_> {
    pub(crate) fn wake_latency(&mut self) -> Result<WakeLatency, LinkError> {
        let config = WakeConfig::read(self)?;
        let skew_ms = self.maybe_q()?;
        let results = self.ways(|r, strategy| {
            let outcome = r.outcome(config.rounds)?;
            Ok(WakeResult { strategy, outcome })
        })?;
        Ok(WakeLatency {
            config,
            skew_ms,
            results,
        })
    }
}
