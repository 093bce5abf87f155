//! Experiment 3 as every layer knows it: its name, its comparison columns
//! and row, its CSV and its link section.
//!
//! Each call was timed in a block of calls that spans the clock's
//! resolution, so a total is marked only where one of its blocks did not
//! (data made before blocks timed each call alone).

use super::{NS_PER_SPIN_UNIT, SLEEP1_THRESHOLD, SpinLadder, Step, Turn, YIELD_THRESHOLD};
use crate::clock::ClockInfo;
use crate::compare::{Measured, Value};
use crate::environment::Environment;
use crate::experiments::{Column, Description};
use crate::export::Sample;
use crate::key;
use crate::shared_memory::Lacks;
use crate::stats::Samples;
use crate::text::{Arg, Phrase};

/// What the ladder measured, the clock that timed it, and whether it ran
/// natively.
type Ladder = (SpinLadder, Option<ClockInfo>, bool);

/// The time of the calls `from..to`, µs, if the ladder reached `to`.
fn total((l, clock, _): &Ladder, from: u32, to: u32) -> Value {
    if !l.steps.iter().any(|s| s.count + 1 >= to) {
        return Value::Absent;
    }
    let shortest_block = l
        .steps
        .iter()
        .filter(|s| (from..to).contains(&s.count))
        .map(|s| f64::from(s.block) * s.p50_ms)
        .fold(f64::INFINITY, f64::min);
    Value::per(l.cumulative_ms(from..to) * 1000.0, shortest_block, *clock)
}

/// The median `Sleep(1)` call, µs.
fn each_sleep((l, ..): &Ladder) -> Value {
    let sleeps: Vec<f64> = l
        .steps
        .iter()
        .filter(|s| s.step == Step::Sleep1)
        .map(|s| s.p50_ms)
        .collect();
    Samples::new(sleeps).map_or(Value::Absent, |s| Value::of(s.quantile(0.5) * 1000.0))
}

/// What one spin hint took, ns: a turn of the native loop
/// (`std::hint::spin_loop()`, the CPU's pause instruction) or one
/// `Atomics.pause()` in the browser, each timed in blocks spanning 20
/// clock steps; none for a browser without the hint (an empty turn).
fn hint((l, _, native): &Ladder) -> Value {
    l.calibration
        .filter(|c| *native || c.turn == Turn::Pause)
        .map_or(Value::Absent, |c| Value::of(c.turn_ns()))
}

/// A column of its table.
type C = Column<Ladder>;

impl Description for SpinLadder {
    type Measure = Ladder;
    const COLUMNS: &'static [C] = &[
        C::us("spins_0_9", |l| total(l, 0, YIELD_THRESHOLD)).charted(),
        C::us("spins_10_19", |l| {
            total(l, YIELD_THRESHOLD, SLEEP1_THRESHOLD)
        })
        .charted(),
        C::us("sleep1_each", each_sleep).charted(),
        C::ns("hint", hint),
    ];
    type Config = super::LadderConfig;
    const MARKS_ITS_OWN: bool = true;

    fn measured_anything(&self) -> bool {
        !self.steps.is_empty()
    }

    fn rows(&self, env: &Environment) -> Vec<Measured<Ladder>> {
        let what = Phrase::new(if env.is_native() {
            key!("row.ladder.native")
        } else {
            key!("row.ladder.browser")
        })
        .count("count", self.config.repeats);
        let analogue = Phrase::new(key!("code")).code("code", "SpinWait.SpinOnce()");
        let note = match self.calibration {
            Some(c) => Phrase::new(key!("note.ladder.calibrated"))
                .phrase("unit", c.describe())
                .arg("target", Arg::Fixed(NS_PER_SPIN_UNIT, 0)),
            None => Phrase::new(key!("note.ladder.uncalibrated")),
        };
        let mut row = Measured::new(what, analogue, (self.clone(), env.clock, env.is_native()));
        row.notes.push(note);
        vec![row]
    }

    fn samples(&self) -> Vec<Sample<'_>> {
        self.steps
            .iter()
            .map(|step| Sample {
                series: match step.step {
                    Step::Spin { .. } => "spin",
                    Step::Yield => "yield",
                    Step::Sleep0 => "sleep0",
                    Step::Sleep1 => "sleep1",
                },
                requested_ms: None,
                index: step.count as usize,
                at_ms: None,
                value_ms: step.p50_ms,
            })
            .collect()
    }

    fn lacks() -> Lacks {
        Lacks::Everything
    }
}
