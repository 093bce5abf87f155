//! Experiment 3's worker job: walk the `SpinOnce` ladder and run the
//! spin-untils (its [`LadderConfig`]), answered with a `Reply` of the
//! measured [`SpinLadder`].

use super::{LadderConfig, SpinCalibration, SpinLadder, SpinUntil, Step, StepCost};
use crate::bytes::{Bytes, Damaged, Reader, Writer};
use crate::protocol::job::{Job, MAX_ITEMS, read_u32};

impl Job for LadderConfig {
    const OF: &'static str = "spin_ladder";

    fn longest_silence_ms(&self) -> u32 {
        self.longest_ms()
    }
}

impl Bytes for SpinLadder {
    fn write(&self, w: &mut Writer) {
        self.config.write(w);
        w.len(self.steps.len());
        for s in &self.steps {
            w.uvar(u64::from(s.count));
            match s.step {
                Step::Spin { units } => {
                    w.byte(0);
                    w.uvar(u64::from(units));
                }
                Step::Yield => w.byte(1),
                Step::Sleep0 => w.byte(2),
                Step::Sleep1 => w.byte(3),
            }
            w.f64(s.p50_ms);
            w.f64(s.max_ms);
            w.uvar(u64::from(s.block));
        }
        w.len(self.spin_until.len());
        for s in &self.spin_until {
            w.flag(s.sleep_stage);
            w.f64(s.wall_ms);
            w.f64(s.busy_ms);
            w.uvar(u64::from(s.calls));
        }
        w.flag(self.calibration.is_some());
        if let Some(c) = self.calibration {
            w.uvar(u64::from(c.turns_per_unit));
            w.f64(c.unit_ns);
        }
    }

    fn read(r: &mut Reader) -> Result<Self, Damaged> {
        let config = LadderConfig::read(r)?;
        let n = r.len(MAX_ITEMS)?;
        let steps = (0..n)
            .map(|_| {
                Ok(StepCost {
                    count: read_u32(r)?,
                    step: match r.byte()? {
                        0 => Step::Spin {
                            units: read_u32(r)?,
                        },
                        1 => Step::Yield,
                        2 => Step::Sleep0,
                        3 => Step::Sleep1,
                        _ => return Err(Damaged("an unknown step")),
                    },
                    p50_ms: r.f64()?,
                    max_ms: r.f64()?,
                    block: read_u32(r)?,
                })
            })
            .collect::<Result<_, Damaged>>()?;
        let n = r.len(MAX_ITEMS)?;
        let spin_until = (0..n)
            .map(|_| {
                Ok(SpinUntil {
                    sleep_stage: r.flag()?,
                    wall_ms: r.f64()?,
                    busy_ms: r.f64()?,
                    calls: read_u32(r)?,
                })
            })
            .collect::<Result<_, Damaged>>()?;
        let calibration = if r.flag()? {
            Some(SpinCalibration {
                turns_per_unit: read_u32(r)?,
                unit_ns: r.f64()?,
            })
        } else {
            None
        };
        Ok(SpinLadder {
            config,
            steps,
            spin_until,
            calibration,
        })
    }
}
