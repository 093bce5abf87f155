//! Experiment 8 as every layer knows it: its name, its comparison columns
//! and rows, its CSV and its link section.

use super::ConcurrencyLimit;
use crate::compare::{Measured, Value};
use crate::experiments::{Column, Description, Experiment, Meta};
use crate::export::Sample;
use crate::key;
use crate::link::LinkError;
use crate::link::wire::{Reader, Writer};
use crate::schema::{Environment, Report};
use crate::stats::Summary;

/// What a gate measured: how long jobs waited for a slot, the batch's
/// time and the most jobs that ran at once.
type Gated = (Summary, f64, u32);

/// A column of its table.
type C = Column<Gated>;

impl Description for ConcurrencyLimit {
    const EXPERIMENT: Experiment = Experiment::ConcurrencyLimit;
    const META: Meta = Meta {
        id: "concurrency_limit",
        slug: "concurrency-limit",
        badge: "8",
        heading: key!("concurrency_limit.heading"),
        explanation: &[
            key!("concurrency_limit.article"),
            key!("concurrency_limit.browser"),
            key!("concurrency_limit.native"),
        ],
        progress: key!("progress.gates"),
        link_bit: 9,
    };
    type Measure = Gated;
    const COLUMNS: &'static [C] = &[
        C::ms("p50", |(s, ..)| Value::of(s.p50)).charted(),
        C::ms("p99", |(s, ..)| Value::of(s.p99)),
        C::ms("max", |(s, ..)| Value::of(s.max)).charted(),
        C::ms("batch", |(_, batch, _)| Value::of(*batch)),
        C::count("peak", |(.., peak)| Value::count(*peak)),
    ];

    fn of(report: &Report) -> Option<&Self> {
        report.concurrency_limit.as_ref()
    }

    fn slot(report: &mut Report) -> &mut Option<Self> {
        &mut report.concurrency_limit
    }

    fn measured_anything(&self) -> bool {
        self.runs.iter().any(|r| r.outcome.summary().is_some())
    }

    fn rows(&self, _: &Environment) -> Vec<Measured<Gated>> {
        self.runs
            .iter()
            .map(|r| {
                let (batch, peak) = (r.batch_ms(), r.peak());
                Measured::of_outcome(r.gate.label(), r.gate.analogue(), &r.outcome, |s| {
                    (*s, batch, peak)
                })
            })
            .collect()
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

    fn write(&self, w: &mut Writer) {
        w.concurrency_limit(self);
    }

    fn read(r: &mut Reader<'_>) -> Result<Self, LinkError> {
        r.concurrency_limit()
    }
}
