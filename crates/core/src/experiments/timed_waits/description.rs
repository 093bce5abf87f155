//! Experiment 1 as every layer knows it: its name, its comparison columns
//! and rows, its CSV and its link section.

use super::{Mechanism, TimedWaits};
use crate::compare::{Measured, Value};
use crate::environment::Environment;
use crate::experiments::{Column, Description, Tried};
use crate::shared_memory::Lacks;
use crate::stats::Summary;
use crate::text::Key;
use crate::trace;

/// What a cell measured: its summary and the wait it asked for.
type Cell = (Summary, Option<u32>);

/// A column of its table.
type C = Column<Cell>;

impl Description for TimedWaits {
    type Measure = Cell;
    const COLUMNS: &'static [C] = &[
        C::ms("p50", |(s, _)| Value::of(s.p50)).charted(),
        C::ms("p90", |(s, _)| Value::of(s.p90)),
        C::ms("p99", |(s, _)| Value::of(s.p99)),
        C::ms("max", |(s, _)| Value::of(s.max)),
        C::ms("mean", |(s, _)| Value::of(s.mean)),
        C::ms("overshoot", |(s, asked)| {
            Value::maybe(asked.map(|d| s.overshoot(f64::from(d))))
        })
        .charted(),
        C::count("n", |(s, _)| Value::count(s.n)),
    ];
    type Config = super::TimedWaitsConfig;

    fn tried(&self) -> Vec<Tried<'_>> {
        let tried = self.cells.iter().map(|c| Tried {
            id: c.key.mechanism.id(),
            label: c.key.label(),
            analogue: c.key.analogue(),
            requested_ms: c.key.requested_ms,
            outcome: &c.outcome,
        });
        tried.collect()
    }

    fn rows(&self, _: &Environment) -> Vec<Measured<Cell>> {
        let tried = self.tried();
        let rows = tried
            .iter()
            .map(|t| Measured::of_tried(t, |s| (*s, t.requested_ms)));
        rows.collect()
    }

    fn lacks() -> Lacks {
        Lacks::rows(
            &Mechanism::BROWSER,
            Mechanism::needs_shared_memory,
            Mechanism::label,
        )
    }
}

impl Mechanism {
    /// How one of its waits shows on a timeline: holding its thread (a
    /// blocking call) or not, named by its label with `requested_ms`.
    pub fn timeline(self, requested_ms: Option<u32>) -> (trace::Kind, trace::Name) {
        let holds = matches!(
            self,
            Mechanism::WorkerAtomicsWait | Mechanism::ThreadSleep | Mechanism::ThreadYield
        );
        let key = Key::of(&format!("timed_waits.mechanism.{}", self.id()));
        let arg = requested_ms.unwrap_or(trace::NO_ARG);
        (trace::Kind::waiting(holds), trace::Name { key, arg })
    }
}
