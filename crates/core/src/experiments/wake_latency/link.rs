//! Experiment 4's section: the configuration, the clocks' skew, and each
//! strategy's sketch.

use crate::experiments::wake_latency::{Strategy, WakeConfig, WakeLatency, WakeResult};
use crate::link::LinkError;
use crate::link::wire::{Reader, Writer};

impl Writer {
    pub(crate) fn wake_latency(&mut self, wl: &WakeLatency) {
        wl.config.write(self);
        self.maybe_q(wl.skew_ms);
        self.len(wl.results.len());
        for r in &wl.results {
            self.byte(r.strategy.code());
            self.outcome(&r.outcome, wl.config.rounds);
        }
    }
}

impl Reader<'_> {
    pub(crate) fn wake_latency(&mut self) -> Result<WakeLatency, LinkError> {
        let config = WakeConfig::read(self)?;
        let skew_ms = self.maybe_q()?;
        let n = self.upto(Strategy::every().count() as u64)?;
        let results = (0..n)
            .map(|_| {
                Ok(WakeResult {
                    strategy: self.strategy()?,
                    outcome: self.outcome(config.rounds)?,
                })
            })
            .collect::<Result<Vec<_>, LinkError>>()?;
        Ok(WakeLatency {
            config,
            skew_ms,
            results,
        })
    }
}
