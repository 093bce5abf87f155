//! Experiment 7 as every layer knows it: its name, its comparison columns
//! and rows, its CSV and its link section.

use super::PeriodicWork;
use crate::compare::{Measured, Value};
use crate::environment::Environment;
use crate::experiments::{Column, Description, Tried};
use crate::stats::Summary;

/// What a scheduler measured: its ticks' lateness, how far its last tick
/// drifted, and how many ticks were late.
type Ticks = (Summary, Option<f64>, Option<usize>);

/// A column of its table.
type C = Column<Ticks>;

impl Description for PeriodicWork {
    type Measure = Ticks;
    const COLUMNS: &'static [C] = &[
        C::ms("p50", |(s, ..)| Value::of(s.p50)).charted(),
        C::ms("p99", |(s, ..)| Value::of(s.p99)),
        C::ms("drift", |(_, drift, _)| Value::maybe(*drift)).charted(),
        C::count("late", |(.., late)| {
            late.map_or(Value::Absent, |n| Value::count(n as u32))
        }),
        C::count("n", |(s, ..)| Value::count(s.n)),
    ];
    type Config = super::PeriodicConfig;

    fn tried(&self) -> Vec<Tried<'_>> {
        Tried::each(
            &self.results,
            |r| (r.scheduler, &r.outcome),
            Some(self.config.interval_ms),
        )
    }

    fn rows(&self, _: &Environment) -> Vec<Measured<Ticks>> {
        let rows = self.results.iter().zip(self.tried()).map(|(r, t)| {
            let (drift, late) = (r.drift_ms(), r.late_ticks(self.config.interval_ms));
            Measured::of_tried(&t, |s| (*s, drift, late))
        });
        rows.collect()
    }
}
