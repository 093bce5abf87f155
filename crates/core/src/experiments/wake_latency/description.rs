//! Experiment 4 as every layer knows it: its name, its comparison columns
//! and rows, its CSV and its link section.

use super::{Strategy, WakeLatency};
use crate::compare::{Measured, Value};
use crate::environment::Environment;
use crate::experiments::{Column, Description, Tried};
use crate::shared_memory::Lacks;
use crate::stats::Summary;

/// What a strategy measured, and its ratio to the event wait (marked when
/// the clock does not resolve the event wait it divides by).
type Wake = (Summary, Value);

/// A column of its table.
type C = Column<Wake>;

impl Description for WakeLatency {
    type Measure = Wake;
    const COLUMNS: &'static [C] = &[
        C::ms("p50", |(s, _)| Value::of(s.p50)).charted_instead(),
        C::ms("p99", |(s, _)| Value::of(s.p99)),
        C::ms("max", |(s, _)| Value::of(s.max)),
        C::times("ratio", |(_, ratio)| ratio.clone()).charted(),
        C::count("n", |(s, _)| Value::count(s.n)),
    ];
    type Config = super::WakeConfig;

    fn tried(&self) -> Vec<Tried<'_>> {
        Tried::each(&self.results, |r| (r.strategy, &r.outcome), None)
    }

    fn rows(&self, env: &Environment) -> Vec<Measured<Wake>> {
        let ratios = self.ratios_to_event();
        let event = self.event_p50();
        let ratio = |strategy| {
            let (_, value) = *ratios.iter().find(|(s, _)| *s == strategy)?;
            Some(match event {
                Some(figure_ms) => Value::per(value, figure_ms, env.clock),
                None => Value::of(value),
            })
        };
        let rows = self.results.iter().zip(self.tried()).map(|(r, t)| {
            let ratio = ratio(r.strategy).unwrap_or(Value::Absent);
            Measured::of_tried(&t, |s| (*s, ratio))
        });
        rows.collect()
    }

    fn lacks() -> Lacks {
        Lacks::ways(Strategy::needs_shared_memory)
    }
}
