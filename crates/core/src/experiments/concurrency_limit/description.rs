//! Experiment 8 as every layer knows it: its name, its comparison columns
//! and rows, its CSV and its link section.

use super::ConcurrencyLimit;
use crate::compare::{Measured, Value};
use crate::environment::Environment;
use crate::experiments::{Column, Description, Tried};
use crate::export::Sample;
use crate::stats::Summary;

/// What a gate measured: how long jobs waited for a slot, the batch's
/// time and the most jobs that ran at once.
type Gated = (Summary, f64, u32);

/// A column of its table.
type C = Column<Gated>;

impl Description for ConcurrencyLimit {
    type Measure = Gated;
    const COLUMNS: &'static [C] = &[
        C::ms("p50", |(s, ..)| Value::of(s.p50)).charted(),
        C::ms("p99", |(s, ..)| Value::of(s.p99)),
        C::ms("max", |(s, ..)| Value::of(s.max)).charted(),
        C::ms("batch", |(_, batch, _)| Value::of(*batch)),
        C::count("peak", |(.., peak)| Value::count(*peak)),
    ];
    type Config = super::LimitConfig;

    fn tried(&self) -> Vec<Tried<'_>> {
        Tried::each(&self.runs, |r| (r.gate, &r.outcome), None)
    }

    fn rows(&self, _: &Environment) -> Vec<Measured<Gated>> {
        let rows = self.runs.iter().zip(self.tried()).map(|(r, t)| {
            let (batch, peak) = (r.batch_ms(), r.peak());
            Measured::of_tried(&t, |s| (*s, batch, peak))
        });
        rows.collect()
    }

    fn samples(&self) -> Vec<Sample<'_>> {
        let mut out = Vec::new();
        for run in &self.runs {
            for (index, span) in run.spans.iter().enumerate() {
                out.push(Sample {
                    series: run.gate.id(),
                    requested_ms: None,
                    index,
                    at_ms: Some(span.start_ms),
                    value_ms: span.end_ms - span.start_ms,
                });
            }
        }
        out
    }
}
