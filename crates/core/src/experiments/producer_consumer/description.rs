//! Experiment 9 as every layer knows it: its name, its comparison columns
//! and rows, its CSV and its link section.

use super::{Channel, ProducerConsumer};
use crate::compare::{Measured, Value};
use crate::environment::Environment;
use crate::experiments::{Column, Description, Tried};
use crate::shared_memory::Lacks;
use crate::stats::Summary;

/// What a channel measured: its paced items' latencies, and its burst's
/// rate (a rate is only as resolved as the burst's time).
type Items = (Summary, Value);

/// A column of its table.
type C = Column<Items>;

impl Description for ProducerConsumer {
    type Measure = Items;
    const COLUMNS: &'static [C] = &[
        C::ms("p50", |(s, _)| Value::of(s.p50)).charted(),
        C::ms("p99", |(s, _)| Value::of(s.p99)).charted(),
        C::ms("max", |(s, _)| Value::of(s.max)),
        C::count("rate", |(_, rate)| rate.clone()),
        C::count("n", |(s, _)| Value::count(s.n)),
    ];
    type Config = super::ProducerConsumerConfig;

    fn tried(&self) -> Vec<Tried<'_>> {
        Tried::each(&self.runs, |r| (r.channel, &r.outcome), None)
    }

    fn rows(&self, env: &Environment) -> Vec<Measured<Items>> {
        let rows = self.runs.iter().zip(self.tried()).map(|(r, t)| {
            let rate = r
                .items_per_s(self.config.burst)
                .zip(r.burst_ms)
                .map_or(Value::Absent, |(rate, ms)| Value::per(rate, ms, env.clock));
            Measured::of_tried(&t, |s| (*s, rate))
        });
        rows.collect()
    }

    fn lacks() -> Lacks {
        Lacks::ways(Channel::needs_shared_memory)
    }
}
