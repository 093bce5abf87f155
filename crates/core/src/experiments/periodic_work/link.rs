//! Experiment 7's section: the configuration and each scheduler's ticks,
//! their lateness in order (the drift is the order), each value
//! log-quantized as every other figure, its code delta-coded.

use crate::experiments::periodic_work::{PeriodicConfig, PeriodicResult, PeriodicWork, Scheduler};
use crate::link::LinkError;
use crate::link::wire::{Reader, Writer};
use crate::outcome::Outcome;

impl Writer {
    pub(crate) fn periodic_work(&mut self, p: &PeriodicWork) {
        p.config.write(self);
        self.len(p.results.len());
        for r in &p.results {
            self.byte(r.scheduler.code());
            match r.outcome.samples() {
                Some(lateness) => {
                    self.flag(true);
                    self.len(lateness.len());
                    let codes: Vec<i64> = lateness.iter().map(|&l| self.1.quantize(l)).collect();
                    self.deltas(codes);
                }
                None => {
                    self.flag(false);
                    self.outcome(&r.outcome, p.config.ticks);
                }
            }
        }
    }
}

impl Reader<'_> {
    pub(crate) fn periodic_work(&mut self) -> Result<PeriodicWork, LinkError> {
        let config = PeriodicConfig::read(self)?;
        let n = self.upto(Scheduler::every().count() as u64)?;
        let results = (0..n)
            .map(|_| {
                let scheduler = Scheduler::from_code(self.byte()?)
                    .ok_or(LinkError::Damaged("an unknown scheduler"))?;
                let outcome = if self.flag()? {
                    let n = self.upto(u64::from(PeriodicConfig::MAX_TICKS))? as usize;
                    let codes = self.deltas(n)?;
                    let scale = self.scale;
                    Outcome::measured(codes.into_iter().map(|c| scale.dequantize(c)).collect())
                        .map_err(|_| LinkError::Damaged("a scheduler without ticks"))?
                } else {
                    self.outcome(config.ticks)?
                };
                Ok(PeriodicResult { scheduler, outcome })
            })
            .collect::<Result<Vec<_>, LinkError>>()?;
        Ok(PeriodicWork { config, results })
    }
}
