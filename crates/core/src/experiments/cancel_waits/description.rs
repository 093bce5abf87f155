//! Experiment 6 as every layer knows it: its name, its comparison columns
//! and rows, its CSV and its link section.

use super::{CancelWaits, Strategy};
use crate::compare::{Measured, Value};
use crate::environment::Environment;
use crate::experiments::{Column, Description, Tried};
use crate::shared_memory::Lacks;
use crate::stats::Summary;

/// A column of its table.
type C = Column<Summary>;

impl Description for CancelWaits {
    type Measure = Summary;
    const COLUMNS: &'static [C] = &[
        C::ms("p50", |s| Value::of(s.p50)).charted(),
        C::ms("p99", |s| Value::of(s.p99)).charted(),
        C::ms("max", |s| Value::of(s.max)),
        C::count("n", |s| Value::count(s.n)),
    ];
    type Config = super::CancelConfig;

    fn tried(&self) -> Vec<Tried<'_>> {
        Tried::each(
            &self.results,
            |r| (r.strategy, &r.outcome),
            Some(self.config.wait_ms),
        )
    }

    fn rows(&self, _: &Environment) -> Vec<Measured<Summary>> {
        Measured::summaries(&self.tried())
    }

    fn lacks() -> Lacks {
        Lacks::ways(Strategy::needs_shared_memory)
    }
}
