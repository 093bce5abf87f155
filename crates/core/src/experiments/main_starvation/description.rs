//! Experiment 2a as every layer knows it: its name, its comparison columns
//! and rows, its CSV and its link section.

use super::{MainRun, MainStarvation};
use crate::compare::{Measured, Value};
use crate::environment::Environment;
use crate::experiments::{Column, Description};
use crate::export::Sample;
use crate::key;
use crate::text::Phrase;

/// What a run measured: the run and the batch time the article predicts.
type Run = (MainRun, f64);

/// A column of its table.
type C = Column<Run>;

impl Description for MainStarvation {
    type Measure = Run;
    const COLUMNS: &'static [C] = &[
        C::ms("batch", |(run, _)| Value::of(run.batch_ms)).charted(),
        C::ms("expected", |(_, expected)| Value::of(*expected)),
        C::ms("timer_wait", |(run, _)| Value::of(run.timer_queue_wait_ms)),
        C::ms("message_wait", |(run, _)| {
            Value::of(run.message_queue_wait_ms)
        }),
        C::ms("median_gap", |(run, _)| Value::of(run.median_frame_gap())),
        C::ms("longest_gap", |(run, _)| Value::of(run.longest_frame_gap())).charted(),
        C::count("long_gaps", |(run, _)| {
            Value::count(run.long_frame_gaps() as u32)
        }),
        C::count(
            "frames",
            |(run, _)| Value::count(run.frames_ms.len() as u32),
        ),
    ];
    type Config = super::MainConfig;

    fn measured_anything(&self) -> bool {
        !self.runs.is_empty()
    }

    fn rows(&self, env: &Environment) -> Vec<Measured<Run>> {
        let c = &self.config;
        let native = env.is_native();
        let key = if native {
            key!("row.main.native")
        } else {
            key!("row.main.browser")
        };
        self.runs
            .iter()
            .map(|run| {
                let what = Phrase::new(key)
                    .count("jobs", c.jobs)
                    .phrase(
                        "call",
                        run.mode.call(native, Phrase::new(key!("row.busy_wait"))),
                    )
                    .digits("wait", c.wait_ms);
                let expected = c.expected_batch_ms(run.mode);
                Measured::new(what, run.mode.main_analogue(), (run.clone(), expected))
            })
            .collect()
    }

    fn samples(&self) -> Vec<Sample<'_>> {
        let mut out = Vec::new();
        for run in &self.runs {
            for (index, (at_ms, gap)) in run.frame_gaps().into_iter().enumerate() {
                out.push(Sample {
                    series: run.mode.name(),
                    requested_ms: None,
                    index,
                    at_ms: Some(at_ms),
                    value_ms: gap,
                });
            }
        }
        out
    }
}
