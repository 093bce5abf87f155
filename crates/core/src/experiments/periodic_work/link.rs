//! Experiment 7's section: the configuration and each scheduler's ticks,
//! their lateness in order (the drift is the order), each value
//! log-quantized as every other figure, its code delta-coded.

use crate::bytes::Bytes;
use crate::experiments::periodic_work::{PeriodicConfig, PeriodicResult, PeriodicWork};
use crate::link::codec::LinkError;
use crate::link::wire::{Reader, Section, Writer};
use crate::outcome::Outcome;

impl Section for PeriodicWork {
    fn write(&self, w: &mut Writer) {
        self.config.write(w);
        w.ways(
            &self.results,
            |r| r.scheduler,
            |w, r| match r.outcome.samples() {
                Some(lateness) => {
                    w.flag(true);
                    w.len(lateness.len());
                    let codes: Vec<i64> = lateness.iter().map(|&l| w.1.quantize(l)).collect();
                    w.deltas(codes);
                }
                None => {
                    w.flag(false);
                    w.outcome(&r.outcome, self.config.ticks);
                }
            },
        );
    }

    fn read(r: &mut Reader<'_>) -> Result<Self, LinkError> {
        let config = PeriodicConfig::read(r)?;
        let results = r.ways(|r, scheduler| {
            let outcome = if r.flag()? {
                let n = r.upto(u64::from(PeriodicConfig::MAX_TICKS))? as usize;
                let codes = r.deltas(n)?;
                let scale = r.scale;
                Outcome::measured(codes.into_iter().map(|c| scale.dequantize(c)).collect())
                    .map_err(|_| LinkError::Damaged("a scheduler without ticks"))?
            } else {
                r.outcome(config.ticks)?
            };
            Ok(PeriodicResult { scheduler, outcome })
        })?;
        Ok(PeriodicWork { config, results })
    }
}
