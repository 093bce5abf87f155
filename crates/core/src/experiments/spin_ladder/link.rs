//! Experiment 3's section: the configuration, the spin unit's
//! calibration, each step's cost and block, and the spin-untils.

use crate::bytes::Bytes;
use crate::experiments::spin_ladder::{
    LadderConfig, MAX_BLOCK, SLEEP1_THRESHOLD, SpinCalibration, SpinLadder, SpinUntil, StepCost,
    Turn, UNCALIBRATED_MAX_SPIN_UNITS, step,
};
use crate::link::codec::{LinkError, damaged};
use crate::link::wire::{Reader, Section, Writer};

impl Section for SpinLadder {
    fn write(&self, w: &mut Writer) {
        self.config.write(w);
        // The page measures calls 0, 1, 2, …; then the call numbers are implied
        // (odd flags). 6 and 7 carry a calibration of pause hints, the empty
        // loop's beside it and each step's block; 4 and 5 the spin unit's
        // calibration and each step's block; 2 and 3 blocks only (links made
        // before calibration); 0 and 1 neither (links made before blocks).
        let implied = self
            .steps
            .iter()
            .enumerate()
            .all(|(i, s)| s.count as usize == i);
        let paused = self.calibration.is_some_and(|c| c.turn == Turn::Pause);
        let flag = match (paused, self.calibration) {
            (true, _) => 6,
            (false, Some(_)) => 4,
            (false, None) => 2,
        };
        w.byte(flag + u8::from(implied));
        for c in self
            .calibration
            .iter()
            .chain(self.bare.iter().filter(|_| paused))
        {
            w.uvar(u64::from(c.turns_per_unit));
            w.q(c.unit_ns);
        }
        w.len(self.steps.len());
        for s in &self.steps {
            if !implied {
                w.uvar(u64::from(s.count));
            }
            w.q(s.p50_ms);
            w.q(s.max_ms);
            w.uvar(u64::from(s.block));
        }
        w.len(self.spin_until.len());
        for s in &self.spin_until {
            w.byte(u8::from(s.sleep_stage));
            w.q(s.wall_ms);
            w.q(s.busy_ms);
            w.uvar(u64::from(s.calls));
        }
    }

    fn read(r: &mut Reader<'_>) -> Result<Self, LinkError> {
        let config = LadderConfig::read(r)?;
        let (implied, blocks, calibrated, paused) = match r.byte()? {
            b @ 0..=7 => (b % 2 == 1, b >= 2, b >= 4, b >= 6),
            _ => return damaged("a bad flag"),
        };
        let mut calibration = |turn| -> Result<SpinCalibration, LinkError> {
            Ok(SpinCalibration {
                turns_per_unit: r.upto(u64::from(u32::MAX))?.max(1),
                unit_ns: r.q()?,
                turn,
            })
        };
        let (calibration, bare) = match (calibrated, paused) {
            (true, true) => (
                Some(calibration(Turn::Pause)?),
                Some(calibration(Turn::Loop)?),
            ),
            (true, false) => (Some(calibration(Turn::Loop)?), None),
            _ => (None, None),
        };
        let cap = calibration.map_or(UNCALIBRATED_MAX_SPIN_UNITS, |c| c.max_units());
        let n = r.upto(u64::from(config.steps))?;
        let steps = (0..n)
            .map(|i| {
                let count = if implied {
                    i
                } else {
                    r.upto(u64::from(config.steps))?
                };
                Ok(StepCost {
                    count,
                    step: step(count, Some(SLEEP1_THRESHOLD), cap),
                    p50_ms: r.q()?,
                    max_ms: r.q()?,
                    block: if blocks {
                        r.upto(u64::from(MAX_BLOCK))?.max(1)
                    } else {
                        1
                    },
                })
            })
            .collect::<Result<Vec<_>, LinkError>>()?;
        let n = r.upto(2)?;
        let spin_until = (0..n)
            .map(|_| {
                Ok(SpinUntil {
                    sleep_stage: r.flag()?,
                    wall_ms: r.q()?,
                    busy_ms: r.q()?,
                    calls: r.upto(u64::from(u32::MAX))?,
                })
            })
            .collect::<Result<Vec<_>, LinkError>>()?;
        Ok(SpinLadder {
            config,
            steps,
            spin_until,
            calibration,
            bare,
        })
    }
}
