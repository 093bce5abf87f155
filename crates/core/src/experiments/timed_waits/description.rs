//! Experiment 1 as every layer knows it: its name, its comparison columns
//! and rows, its CSV and its link section.

use super::{Mechanism, TimedWaits};
use crate::compare::{Measured, Value};
use crate::experiments::{Column, Description, Experiment, Meta};
use crate::export::{Sample, series};
use crate::key;
use crate::link::LinkError;
use crate::link::wire::{Reader, Writer};
use crate::schema::{Environment, Report};
use crate::shared_memory::Lacks;
use crate::stats::Summary;

/// What a cell measured: its summary and the wait it asked for.
type Cell = (Summary, Option<u32>);

/// A column of its table.
type C = Column<Cell>;

impl Description for TimedWaits {
    const EXPERIMENT: Experiment = Experiment::TimedWaits;
    const META: Meta = Meta {
        id: "timed_waits",
        slug: "timed-waits",
        badge: "1",
        heading: key!("timed_waits.heading"),
        explanation: &[
            key!("timed_waits.article"),
            key!("timed_waits.browser"),
            key!("timed_waits.native"),
        ],
        progress: key!("progress.samples"),
        link_bit: 0,
    };
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

    fn of(report: &Report) -> Option<&Self> {
        report.timed_waits.as_ref()
    }

    fn slot(report: &mut Report) -> &mut Option<Self> {
        &mut report.timed_waits
    }

    fn measured_anything(&self) -> bool {
        self.cells.iter().any(|c| c.outcome.summary().is_some())
    }

    fn rows(&self, _: &Environment) -> Vec<Measured<Cell>> {
        self.cells
            .iter()
            .map(|c| {
                let asked = c.key.requested_ms;
                Measured {
                    requested_ms: asked,
                    ..Measured::of_outcome(c.key.label(), c.key.analogue(), &c.outcome, |s| {
                        (*s, asked)
                    })
                }
            })
            .collect()
    }

    fn samples(&self) -> Vec<Sample<'_>> {
        let mut out = Vec::new();
        for cell in &self.cells {
            let (name, wait) = (cell.key.mechanism.id(), cell.key.requested_ms);
            series(&mut out, name, wait, &cell.outcome);
        }
        out
    }

    fn write(&self, w: &mut Writer) {
        w.timed_waits(self);
    }

    fn read(r: &mut Reader<'_>) -> Result<Self, LinkError> {
        r.timed_waits()
    }

    fn lacks() -> Lacks {
        Lacks::rows(
            &Mechanism::BROWSER,
            Mechanism::needs_shared_memory,
            Mechanism::label,
        )
    }
}
