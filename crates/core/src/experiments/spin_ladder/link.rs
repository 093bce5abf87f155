//! Experiment 3's section: the configuration, the spin unit's
//! calibration, each step's cost and block, and the spin-untils.

use crate::experiments::spin_ladder::{
    LadderConfig, MAX_BLOCK, SLEEP1_THRESHOLD, SpinCalibration, SpinLadder, SpinUntil, StepCost,
    UNCALIBRATED_MAX_SPIN_UNITS, step,
};
use crate::link::wire::{Reader, Writer};
use crate::link::{LinkError, damaged};

impl Writer {
    pub(crate) fn spin_ladder(&mut self, l: &SpinLadder) {
        l.config.write(self);
        // The page measures calls 0, 1, 2, …; then the call numbers are implied
        // (odd flags). 4 and 5 carry the spin unit's calibration and each
        // step's block; 2 and 3 blocks only (links made before calibration);
        // 0 and 1 neither (links made before blocks).
        let implied = l
            .steps
            .iter()
            .enumerate()
            .all(|(i, s)| s.count as usize == i);
        self.byte(if l.calibration.is_some() { 4 } else { 2 } + u8::from(implied));
        if let Some(c) = l.calibration {
            self.uvar(u64::from(c.turns_per_unit));
            self.q(c.unit_ns);
        }
        self.len(l.steps.len());
        for s in &l.steps {
            if !implied {
                self.uvar(u64::from(s.count));
            }
            self.q(s.p50_ms);
            self.q(s.max_ms);
            self.uvar(u64::from(s.block));
        }
        self.len(l.spin_until.len());
        for s in &l.spin_until {
            self.byte(u8::from(s.sleep_stage));
            self.q(s.wall_ms);
            self.q(s.busy_ms);
            self.uvar(u64::from(s.calls));
        }
    }
}

impl Reader<'_> {
    pub(crate) fn spin_ladder(&mut self) -> Result<SpinLadder, LinkError> {
        let config = LadderConfig::read(self)?;
        let (implied, blocks, calibrated) = match self.byte()? {
            b @ 0..=5 => (b % 2 == 1, b >= 2, b >= 4),
            _ => return damaged("a bad flag"),
        };
        let calibration = if calibrated {
            Some(SpinCalibration {
                turns_per_unit: self.upto(u64::from(u32::MAX))?.max(1),
                unit_ns: self.q()?,
            })
        } else {
            None
        };
        let cap = calibration.map_or(UNCALIBRATED_MAX_SPIN_UNITS, |c| c.max_units());
        let n = self.upto(u64::from(config.steps))?;
        let steps = (0..n)
            .map(|i| {
                let count = if implied {
                    i
                } else {
                    self.upto(u64::from(config.steps))?
                };
                Ok(StepCost {
                    count,
                    step: step(count, Some(SLEEP1_THRESHOLD), cap),
                    p50_ms: self.q()?,
                    max_ms: self.q()?,
                    block: if blocks {
                        self.upto(u64::from(MAX_BLOCK))?.max(1)
                    } else {
                        1
                    },
                })
            })
            .collect::<Result<Vec<_>, LinkError>>()?;
        let n = self.upto(2)?;
        let spin_until = (0..n)
            .map(|_| {
                Ok(SpinUntil {
                    sleep_stage: self.flag()?,
                    wall_ms: self.q()?,
                    busy_ms: self.q()?,
                    calls: self.upto(u64::from(u32::MAX))?,
                })
            })
            .collect::<Result<Vec<_>, LinkError>>()?;
        Ok(SpinLadder {
            config,
            steps,
            spin_until,
            calibration,
        })
    }
}
