//! Experiment 4 as every layer knows it: its name, its comparison columns
//! and rows, its CSV and its link section.

use super::{Strategy, WakeLatency};
use crate::compare::{Measured, Value};
use crate::experiments::{Column, Description, Experiment, Meta};
use crate::export::{Sample, series};
use crate::key;
use crate::link::LinkError;
use crate::link::wire::{Reader, Writer};
use crate::schema::{Environment, Report};
use crate::shared_memory::Lacks;
use crate::stats::Summary;

/// What a strategy measured, and its ratio to the event wait (marked when
/// the clock does not resolve the event wait it divides by).
type Wake = (Summary, Value);

/// A column of its table.
type C = Column<Wake>;

impl Description for WakeLatency {
    const EXPERIMENT: Experiment = Experiment::WakeLatency;
    const META: Meta = Meta {
        id: "wake_latency",
        slug: "wake-latency",
        badge: "4",
        heading: key!("wake_latency.heading"),
        explanation: &[key!("wake_latency.article"), key!("wake_latency.browser")],
        progress: key!("progress.rounds"),
        link_bit: 4,
    };
    type Measure = Wake;
    const COLUMNS: &'static [C] = &[
        C::ms("p50", |(s, _)| Value::of(s.p50)),
        C::ms("p99", |(s, _)| Value::of(s.p99)),
        C::ms("max", |(s, _)| Value::of(s.max)),
        C::times("ratio", |(_, ratio)| ratio.clone()).charted(),
        C::count("n", |(s, _)| Value::count(s.n)),
    ];

    fn of(report: &Report) -> Option<&Self> {
        report.wake_latency.as_ref()
    }

    fn slot(report: &mut Report) -> &mut Option<Self> {
        &mut report.wake_latency
    }

    fn measured_anything(&self) -> bool {
        self.results.iter().any(|r| r.outcome.summary().is_some())
    }

    fn rows(&self, env: &Environment) -> Vec<Measured<Wake>> {
        let ratios = self.ratios_to_event();
        let event = self.event_p50();
        self.results
            .iter()
            .map(|r| {
                let ratio = ratios.iter().find(|(s, _)| *s == r.strategy).map_or(
                    Value::Absent,
                    |&(_, value)| match event {
                        Some(figure_ms) => Value::per(value, figure_ms, env.clock),
                        None => Value::of(value),
                    },
                );
                Measured::of_outcome(r.strategy.label(), r.strategy.analogue(), &r.outcome, |s| {
                    (*s, ratio)
                })
            })
            .collect()
    }

    fn samples(&self) -> Vec<Sample<'_>> {
        let mut out = Vec::new();
        for result in &self.results {
            series(&mut out, result.strategy.id(), None, &result.outcome);
        }
        out
    }

    fn write(&self, w: &mut Writer) {
        w.wake_latency(self);
    }

    fn read(r: &mut Reader<'_>) -> Result<Self, LinkError> {
        r.wake_latency()
    }

    fn lacks() -> Lacks {
        Lacks::rows(
            &Strategy::BROWSER,
            Strategy::needs_shared_memory,
            Strategy::label,
        )
    }
}
