//! Experiment 7 as every layer knows it: its name, its comparison columns
//! and rows, its CSV and its link section.

use super::PeriodicWork;
use crate::compare::{Measured, Value};
use crate::experiments::{Column, Description, Experiment, Meta};
use crate::export::{Sample, series};
use crate::key;
use crate::link::LinkError;
use crate::link::wire::{Reader, Writer};
use crate::schema::{Environment, Report};
use crate::stats::Summary;

/// What a scheduler measured: its ticks' lateness, how far its last tick
/// drifted, and how many ticks were late.
type Ticks = (Summary, Option<f64>, Option<usize>);

/// A column of its table.
type C = Column<Ticks>;

impl Description for PeriodicWork {
    const EXPERIMENT: Experiment = Experiment::PeriodicWork;
    const META: Meta = Meta {
        id: "periodic_work",
        slug: "periodic-work",
        badge: "7",
        heading: key!("periodic_work.heading"),
        explanation: &[
            key!("periodic_work.article"),
            key!("periodic_work.browser"),
            key!("periodic_work.native"),
        ],
        progress: key!("progress.ticks"),
        link_bit: 8,
    };
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

    fn of(report: &Report) -> Option<&Self> {
        report.periodic_work.as_ref()
    }

    fn slot(report: &mut Report) -> &mut Option<Self> {
        &mut report.periodic_work
    }

    fn measured_anything(&self) -> bool {
        self.results.iter().any(|r| r.outcome.summary().is_some())
    }

    fn rows(&self, _: &Environment) -> Vec<Measured<Ticks>> {
        self.results
            .iter()
            .map(|r| {
                let (drift, late) = (r.drift_ms(), r.late_ticks(self.config.interval_ms));
                Measured::of_outcome(
                    r.scheduler.label(),
                    r.scheduler.analogue(),
                    &r.outcome,
                    |s| (*s, drift, late),
                )
            })
            .collect()
    }

    fn samples(&self) -> Vec<Sample<'_>> {
        let mut out = Vec::new();
        for result in &self.results {
            let interval = Some(self.config.interval_ms);
            series(&mut out, result.scheduler.id(), interval, &result.outcome);
        }
        out
    }

    fn write(&self, w: &mut Writer) {
        w.periodic_work(self);
    }

    fn read(r: &mut Reader<'_>) -> Result<Self, LinkError> {
        r.periodic_work()
    }
}
