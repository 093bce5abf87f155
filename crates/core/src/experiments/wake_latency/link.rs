//! Experiment 4's section: the configuration, the clocks' skew, and each
//! strategy's sketch.

use crate::experiments::wake_latency::{Strategy, WakeConfig, WakeLatency, WakeResult};
use crate::link::LinkError;
use crate::link::wire::{Reader, Writer};

impl Writer {
    pub(crate) fn wake_latency(&mut self, wl: &WakeLatency) {
        self.uvar(u64::from(wl.config.rounds));
        self.uvar(u64::from(wl.config.max_delay_us));
        self.uvar(wl.config.seed);
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
        let config = WakeConfig {
            rounds: self.upto(u64::from(WakeConfig::MAX_ROUNDS))?,
            max_delay_us: self.upto(1_000_000)?,
            seed: self.uvar()?,
        };
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
