//! Experiment 6 as every layer knows it: its name, its comparison columns
//! and rows, its CSV and its link section.

use super::{CancelWaits, Strategy};
use crate::compare::{Measured, Value};
use crate::experiments::{Column, Description, Experiment, Meta};
use crate::export::{Sample, series};
use crate::key;
use crate::link::LinkError;
use crate::link::wire::{Reader, Writer};
use crate::schema::{Environment, Report};
use crate::shared_memory::Lacks;
use crate::stats::Summary;

/// A column of its table.
type C = Column<Summary>;

impl Description for CancelWaits {
    const EXPERIMENT: Experiment = Experiment::CancelWaits;
    const META: Meta = Meta {
        id: "cancel_waits",
        slug: "cancel-waits",
        badge: "6",
        heading: key!("cancel_waits.heading"),
        explanation: &[
            key!("cancel_waits.article"),
            key!("cancel_waits.browser"),
            key!("cancel_waits.native"),
        ],
        progress: key!("progress.rounds"),
        link_bit: 6,
    };
    type Measure = Summary;
    const COLUMNS: &'static [C] = &[
        C::ms("p50", |s| Value::of(s.p50)).charted(),
        C::ms("p99", |s| Value::of(s.p99)).charted(),
        C::ms("max", |s| Value::of(s.max)),
        C::count("n", |s| Value::count(s.n)),
    ];

    fn of(report: &Report) -> Option<&Self> {
        report.cancel_waits.as_ref()
    }

    fn slot(report: &mut Report) -> &mut Option<Self> {
        &mut report.cancel_waits
    }

    fn measured_anything(&self) -> bool {
        self.results.iter().any(|r| r.outcome.summary().is_some())
    }

    fn rows(&self, _: &Environment) -> Vec<Measured<Summary>> {
        self.results
            .iter()
            .map(|r| {
                Measured::of_outcome(r.strategy.label(), r.strategy.analogue(), &r.outcome, |s| {
                    *s
                })
            })
            .collect()
    }

    fn samples(&self) -> Vec<Sample<'_>> {
        let mut out = Vec::new();
        for result in &self.results {
            let wait = Some(self.config.wait_ms);
            series(&mut out, result.strategy.id(), wait, &result.outcome);
        }
        out
    }

    fn write(&self, w: &mut Writer) {
        w.cancel_waits(self);
    }

    fn read(r: &mut Reader<'_>) -> Result<Self, LinkError> {
        r.cancel_waits()
    }

    fn lacks() -> Lacks {
        Lacks::rows(
            &Strategy::BROWSER,
            Strategy::needs_shared_memory,
            Strategy::label,
        )
    }
}
