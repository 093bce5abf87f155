//! Experiment 9 as every layer knows it: its name, its comparison columns
//! and rows, its CSV and its link section.

use super::{Channel, ProducerConsumer};
use crate::compare::{Measured, Value};
use crate::experiments::{Column, Description, Experiment, Meta};
use crate::export::{Sample, series};
use crate::key;
use crate::link::LinkError;
use crate::link::wire::{Reader, Writer};
use crate::schema::{Environment, Report};
use crate::shared_memory::Lacks;
use crate::stats::Summary;

/// What a channel measured: its paced items' latencies, and its burst's
/// rate (a rate is only as resolved as the burst's time).
type Items = (Summary, Value);

/// A column of its table.
type C = Column<Items>;

impl Description for ProducerConsumer {
    const EXPERIMENT: Experiment = Experiment::ProducerConsumer;
    const META: Meta = Meta {
        id: "producer_consumer",
        slug: "producer-consumer",
        badge: "9",
        heading: key!("producer_consumer.heading"),
        explanation: &[
            key!("producer_consumer.article"),
            key!("producer_consumer.browser"),
            key!("producer_consumer.native"),
        ],
        progress: key!("progress.channels"),
        link_bit: 10,
    };
    type Measure = Items;
    const COLUMNS: &'static [C] = &[
        C::ms("p50", |(s, _)| Value::of(s.p50)).charted(),
        C::ms("p99", |(s, _)| Value::of(s.p99)).charted(),
        C::ms("max", |(s, _)| Value::of(s.max)),
        C::count("rate", |(_, rate)| rate.clone()),
        C::count("n", |(s, _)| Value::count(s.n)),
    ];

    fn of(report: &Report) -> Option<&Self> {
        report.producer_consumer.as_ref()
    }

    fn slot(report: &mut Report) -> &mut Option<Self> {
        &mut report.producer_consumer
    }

    fn measured_anything(&self) -> bool {
        self.runs.iter().any(|r| r.outcome.summary().is_some())
    }

    fn rows(&self, env: &Environment) -> Vec<Measured<Items>> {
        self.runs
            .iter()
            .map(|r| {
                let rate = r
                    .items_per_s(self.config.burst)
                    .zip(r.burst_ms)
                    .map_or(Value::Absent, |(rate, ms)| Value::per(rate, ms, env.clock));
                Measured::of_outcome(r.channel.label(), r.channel.analogue(), &r.outcome, |s| {
                    (*s, rate)
                })
            })
            .collect()
    }

    fn samples(&self) -> Vec<Sample<'_>> {
        let mut out = Vec::new();
        for run in &self.runs {
            series(&mut out, run.channel.id(), None, &run.outcome);
        }
        out
    }

    fn write(&self, w: &mut Writer) {
        w.producer_consumer(self);
    }

    fn read(r: &mut Reader<'_>) -> Result<Self, LinkError> {
        r.producer_consumer()
    }

    fn lacks() -> Lacks {
        Lacks::rows(
            &Channel::BROWSER,
            Channel::needs_shared_memory,
            Channel::label,
        )
    }
}
