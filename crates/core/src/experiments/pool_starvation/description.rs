//! Experiment 2b as every layer knows it: its name, its comparison columns
//! and rows, its CSV and its link section.

use super::{PoolRun, PoolStarvation};
use crate::compare::{Measured, Value};
use crate::environment::Environment;
use crate::experiments::{Column, Description};
use crate::export::Sample;
use crate::key;
use crate::text::Phrase;

/// What a run measured: the run, the batch time the article predicts and
/// the pool's workers.
type Run = (PoolRun, f64, u32);

/// A column of its table.
type C = Column<Run>;

impl Description for PoolStarvation {
    type Measure = Run;
    const COLUMNS: &'static [C] = &[
        C::ms("batch", |(run, ..)| Value::of(run.batch_ms)).charted(),
        C::ms("model", |(_, expected, _)| Value::of(*expected)),
        C::ms("extra_wait", |(run, ..)| Value::of(run.extra_job_wait_ms)).charted(),
        C::count("threads", |(.., workers)| Value::count(*workers)),
    ];
    type Config = super::PoolConfig;

    fn measured_anything(&self) -> bool {
        !self.runs.is_empty()
    }

    fn rows(&self, env: &Environment) -> Vec<Measured<Run>> {
        let c = &self.config;
        let native = env.is_native();
        let blocking = if self.blocking_sleeps {
            Phrase::new(key!("code")).code("code", "Atomics.wait")
        } else {
            Phrase::new(key!("row.busy_wait"))
        };
        let key = if native {
            key!("row.pool.native")
        } else {
            key!("row.pool.browser")
        };
        self.runs
            .iter()
            .map(|run| {
                let what = Phrase::new(key)
                    .count("jobs", c.jobs)
                    .phrase("call", run.mode.call(native, blocking.clone()))
                    .digits("wait", c.wait_ms)
                    .count("workers", c.workers);
                let measure = (run.clone(), c.expected_batch_ms(run.mode), c.workers);
                Measured::new(what, run.mode.pool_analogue(), measure)
            })
            .collect()
    }

    fn samples(&self) -> Vec<Sample<'_>> {
        let mut out = Vec::new();
        for run in &self.runs {
            for span in &run.spans {
                out.push(Sample {
                    series: run.mode.name(),
                    requested_ms: None,
                    index: span.job as usize,
                    at_ms: Some(span.start_ms),
                    value_ms: span.end_ms - span.start_ms,
                });
            }
        }
        out
    }
}
