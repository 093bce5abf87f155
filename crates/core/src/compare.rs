//! Results side by side: one table shape per experiment that a browser
//! run, a native run and a set of figures stated by the article all fill.
//!
//! Every source becomes a [`Group`] of [`Row`]s with one [`Value`] per
//! [`Column`](crate::experiments::Column) of the experiment. Measured
//! sections are read from the report; stated figures fill only the cells
//! their source states, so a figure the article does not give stays
//! [`Value::Absent`], never derived or invented.

use crate::clock::ClockInfo;
use crate::experiments::Experiment;
use crate::experiments::main_starvation::{JobMode, MainStarvation};
use crate::experiments::pool_starvation::PoolStarvation;
use crate::experiments::spin_ladder::{
    NS_PER_SPIN_UNIT, SLEEP1_THRESHOLD, SpinLadder, Step, YIELD_THRESHOLD,
};
use crate::experiments::wake_latency::WakeLatency;
use crate::key;
use crate::outcome::Outcome;
use crate::schema::Report;
use crate::stats::Samples;
use crate::text::{Arg, Phrase};

mod value;
pub use value::Value;

/// One row of a comparison table.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// What ran, in the source's own terms.
    pub what: Phrase,
    /// What it is the analogue of in the article.
    pub analogue: Phrase,
    /// One value per column of the experiment.
    pub values: Vec<Value>,
    /// Statements and outcomes that are not numbers.
    pub notes: Vec<Phrase>,
    /// The wait a timed-waits row asked for (`None` for a mechanism that
    /// asks for no time, and in the other experiments).
    pub requested_ms: Option<u32>,
}

impl Row {
    /// Whether the headline chart shows this row when it shows waits of
    /// `wait` ms ([`headline_wait`]).
    pub fn in_headline(&self, wait: Option<u32>) -> bool {
        self.requested_ms.is_none() || wait.is_none() || self.requested_ms == wait
    }
}

/// The one wait the headline chart of timed waits shows beside the
/// mechanisms that ask for no time: 1 ms, the article's "wait 1 ms", if
/// one of `rows` (every source's) asked for it, else the shortest positive
/// wait one did; `None` when none asked for a positive wait (then every
/// row is shown).
pub fn headline_wait<'a>(rows: impl Iterator<Item = &'a Row>) -> Option<u32> {
    let asked: Vec<u32> = rows
        .filter_map(|r| r.requested_ms)
        .filter(|d| *d > 0)
        .collect();
    asked
        .iter()
        .find(|d| **d == 1)
        .or_else(|| asked.iter().min())
        .copied()
}

/// Where a group's numbers come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Measured in a browser.
    Browser,
    /// Measured by the native probe.
    Native,
    /// Stated by a text.
    Stated,
    /// Measured in someone's browser and opened from a result link.
    Linked,
}

/// The rows one source contributes to an experiment's table.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// The source's short name (browser and OS, or the native set's name).
    pub source: Phrase,
    /// Where the numbers come from.
    pub origin: Origin,
    /// Its rows.
    pub rows: Vec<Row>,
}

impl Group {
    /// The wait the headline chart shows of this source when it shows
    /// waits of `wait` ms ([`headline_wait`] of every source): `wait`, or
    /// for a source that asked for waits but none of `wait` its own
    /// headline wait, so that no source is missing from the chart.
    pub fn own_wait(&self, wait: Option<u32>) -> Option<u32> {
        let mut asked = self.rows.iter().filter_map(|r| r.requested_ms).peekable();
        if wait.is_none() || asked.peek().is_none() || asked.any(|d| Some(d) == wait) {
            wait
        } else {
            headline_wait(self.rows.iter())
        }
    }

    /// The rows the headline chart shows of this source when it shows
    /// waits of `wait` ms: those that asked for its [`Group::own_wait`] or
    /// for no time (every row, if it asked for no positive wait).
    pub fn headline_rows(&self, wait: Option<u32>) -> impl Iterator<Item = &Row> {
        let own = self.own_wait(wait);
        self.rows.iter().filter(move |r| r.in_headline(own))
    }
}

/// Why a stated figure cannot be placed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("stated figure \"{what}\" names column \"{column}\", which {experiment} does not have")]
pub struct UnknownColumn {
    /// The figure's subject.
    pub what: String,
    /// The column it names.
    pub column: String,
    /// The experiment's id.
    pub experiment: &'static str,
}

/// Checks that every stated figure of `report` names a column its
/// experiment has.
pub fn check_stated(report: &Report) -> Result<(), UnknownColumn> {
    for f in &report.stated {
        if let Some(v) = &f.value
            && f.experiment.column_index(&v.column).is_none()
        {
            return Err(UnknownColumn {
                what: f.what.chars().take(60).collect(),
                column: v.column.chars().take(40).collect(),
                experiment: f.experiment.id(),
            });
        }
    }
    Ok(())
}

/// The rows `report` contributes to `experiment`, or `None` if it has
/// nothing for it.
pub fn group(experiment: Experiment, report: &Report) -> Option<Group> {
    let native = report.env.native.is_some();
    let mut rows = match experiment {
        Experiment::TimedWaits => report.timed_waits.as_ref().map(|tw| {
            tw.cells
                .iter()
                .map(|c| {
                    let overshoot = |s: &crate::stats::Summary| {
                        c.key
                            .requested_ms
                            .map_or(Value::Absent, |d| Value::of(s.overshoot(f64::from(d))))
                    };
                    let row = outcome_row(c.key.label(), c.key.analogue(), &c.outcome, |s| {
                        vec![
                            Value::of(s.p50),
                            Value::of(s.p90),
                            Value::of(s.p99),
                            Value::of(s.max),
                            Value::of(s.mean),
                            overshoot(s),
                            count(s.n),
                        ]
                    });
                    Row {
                        requested_ms: c.key.requested_ms,
                        ..row
                    }
                })
                .collect()
        }),
        Experiment::MainStarvation => report
            .main_starvation
            .as_ref()
            .map(|m| main_rows(m, native)),
        Experiment::PoolStarvation => report
            .pool_starvation
            .as_ref()
            .map(|p| pool_rows(p, native)),
        Experiment::SpinLadder => report
            .spin_ladder
            .as_ref()
            .map(|l| vec![ladder_row(l, native, report.env.clock)]),
        Experiment::WakeLatency => report
            .wake_latency
            .as_ref()
            .map(|w| wake_rows(w, report.env.clock)),
        Experiment::CancelWaits => report.cancel_waits.as_ref().map(|c| {
            c.results
                .iter()
                .map(|r| {
                    outcome_row(r.strategy.label(), r.strategy.analogue(), &r.outcome, |s| {
                        vec![
                            Value::of(s.p50),
                            Value::of(s.p99),
                            Value::of(s.max),
                            count(s.n),
                        ]
                    })
                })
                .collect()
        }),
        Experiment::ConcurrencyLimit => report.concurrency_limit.as_ref().map(|c| {
            c.runs
                .iter()
                .map(|r| {
                    let (batch, peak) = (r.batch_ms(), r.peak());
                    outcome_row(r.gate.label(), r.gate.analogue(), &r.outcome, |s| {
                        vec![
                            Value::of(s.p50),
                            Value::of(s.p99),
                            Value::of(s.max),
                            Value::of(batch),
                            count(peak),
                        ]
                    })
                })
                .collect()
        }),
        Experiment::ProducerConsumer => report.producer_consumer.as_ref().map(|h| {
            h.runs
                .iter()
                .map(|r| {
                    // A rate is only as resolved as the burst's time.
                    let rate = r
                        .items_per_s(h.config.burst)
                        .zip(r.burst_ms)
                        .map_or(Value::Absent, |(rate, ms)| per(rate, ms, report.env.clock));
                    outcome_row(r.channel.label(), r.channel.analogue(), &r.outcome, |s| {
                        vec![
                            Value::of(s.p50),
                            Value::of(s.p99),
                            Value::of(s.max),
                            rate.clone(),
                            count(s.n),
                        ]
                    })
                })
                .collect()
        }),
        Experiment::PeriodicWork => report.periodic_work.as_ref().map(|p| {
            p.results
                .iter()
                .map(|r| {
                    let (drift, late) = (r.drift_ms(), r.late_ticks(p.config.interval_ms));
                    outcome_row(
                        r.scheduler.label(),
                        r.scheduler.analogue(),
                        &r.outcome,
                        |s| {
                            vec![
                                Value::of(s.p50),
                                Value::of(s.p99),
                                drift.map_or(Value::Absent, Value::of),
                                late.map_or(Value::Absent, |n| count(n as u32)),
                                count(s.n),
                            ]
                        },
                    )
                })
                .collect()
        }),
    }
    .unwrap_or_default();
    // The ladder's figures are block times, which its rows mark themselves.
    if let Some(clock) = report
        .env
        .clock
        .filter(|_| experiment != Experiment::SpinLadder)
    {
        for row in &mut rows {
            for (v, c) in row.values.iter_mut().zip(experiment.columns()) {
                *v = std::mem::replace(v, Value::Absent).resolved_by(c.unit, clock);
            }
        }
    }
    rows.extend(stated_rows(experiment, report));
    for row in &mut rows {
        row.values.resize(experiment.columns().len(), Value::Absent);
    }
    if rows.is_empty() {
        return None;
    }
    let origin = match (native, report.stated.is_empty()) {
        (false, _) if report.from_link => Origin::Linked,
        (false, _) => Origin::Browser,
        (true, true) => Origin::Native,
        (true, false) => Origin::Stated,
    };
    Some(Group {
        source: report.env.short_name(),
        origin,
        rows,
    })
}

/// A count as a value.
fn count(n: u32) -> Value {
    Value::Measured(f64::from(n))
}

/// A row from an outcome: `stats` of the summary if measured, otherwise
/// absent values and the reason as a note.
fn outcome_row(
    what: Phrase,
    analogue: Phrase,
    outcome: &Outcome,
    stats: impl Fn(&crate::stats::Summary) -> Vec<Value>,
) -> Row {
    let (values, note) = match outcome {
        Outcome::Measured { summary, .. } => (stats(summary), None),
        other => (Vec::new(), other.phrase()),
    };
    Row {
        what,
        analogue,
        values,
        notes: note.into_iter().collect(),
        requested_ms: None,
    }
}

/// How a starvation job waits: natively, or in the browser where
/// `browser_blocking` is the blocking wait.
fn job_call(mode: JobMode, native: bool, browser_blocking: Phrase) -> Phrase {
    let code = |c| Phrase::new(key!("code")).code("code", c);
    match (mode, native) {
        (JobMode::Blocking, true) => code("std::thread::sleep"),
        (JobMode::Blocking, false) => browser_blocking,
        (JobMode::Async, true) => code("tokio sleep"),
        (JobMode::Async, false) => code("await setTimeout"),
    }
}

fn main_rows(m: &MainStarvation, native: bool) -> Vec<Row> {
    let c = &m.config;
    let key = if native {
        key!("row.main.native")
    } else {
        key!("row.main.browser")
    };
    m.runs
        .iter()
        .map(|run| Row {
            what: Phrase::new(key)
                .count("jobs", c.jobs)
                .phrase(
                    "call",
                    job_call(run.mode, native, Phrase::new(key!("row.busy_wait"))),
                )
                .digits("wait", c.wait_ms),
            analogue: run.mode.main_analogue(),
            values: vec![
                Value::of(run.batch_ms),
                Value::of(c.expected_batch_ms(run.mode)),
                Value::of(run.timer_queue_wait_ms),
                Value::of(run.message_queue_wait_ms),
                Value::of(run.median_frame_gap()),
                Value::of(run.longest_frame_gap()),
                count(run.long_frame_gaps() as u32),
                count(run.frames_ms.len() as u32),
            ],
            notes: Vec::new(),
            requested_ms: None,
        })
        .collect()
}

fn pool_rows(p: &PoolStarvation, native: bool) -> Vec<Row> {
    let c = &p.config;
    let blocking = if p.blocking_sleeps {
        Phrase::new(key!("code")).code("code", "Atomics.wait")
    } else {
        Phrase::new(key!("row.busy_wait"))
    };
    let key = if native {
        key!("row.pool.native")
    } else {
        key!("row.pool.browser")
    };
    p.runs
        .iter()
        .map(|run| Row {
            what: Phrase::new(key)
                .count("jobs", c.jobs)
                .phrase("call", job_call(run.mode, native, blocking.clone()))
                .digits("wait", c.wait_ms)
                .count("workers", c.workers),
            analogue: run.mode.pool_analogue(),
            values: vec![
                Value::of(run.batch_ms),
                Value::of(c.expected_batch_ms(run.mode)),
                Value::of(run.extra_job_wait_ms),
                count(c.workers),
            ],
            notes: Vec::new(),
            requested_ms: None,
        })
        .collect()
}

/// Experiment 3's row. Each call was timed in a block of calls that spans
/// the clock's resolution, so a total is marked only where one of its
/// blocks did not (data made before blocks timed each call alone).
fn ladder_row(l: &SpinLadder, native: bool, clock: Option<ClockInfo>) -> Row {
    let us = |ms: f64| Value::of(ms * 1000.0);
    let sleeps: Vec<f64> = l
        .steps
        .iter()
        .filter(|s| s.step == Step::Sleep1)
        .map(|s| s.p50_ms)
        .collect();
    let each_sleep = Samples::new(sleeps).map_or(Value::Absent, |s| us(s.quantile(0.5)));
    let complete = |end: u32| l.steps.iter().any(|s| s.count + 1 >= end);
    let total = |from: u32, to: u32| {
        if !complete(to) {
            return Value::Absent;
        }
        let value = l.cumulative_ms(from..to);
        let shortest_block = l
            .steps
            .iter()
            .filter(|s| (from..to).contains(&s.count))
            .map(|s| f64::from(s.block) * s.p50_ms)
            .fold(f64::INFINITY, f64::min);
        per(value * 1000.0, shortest_block, clock)
    };
    Row {
        what: Phrase::new(if native {
            key!("row.ladder.native")
        } else {
            key!("row.ladder.browser")
        })
        .count("count", l.config.repeats),
        analogue: Phrase::new(key!("code")).code("code", "SpinWait.SpinOnce()"),
        values: vec![
            total(0, YIELD_THRESHOLD),
            total(YIELD_THRESHOLD, SLEEP1_THRESHOLD),
            each_sleep,
        ],
        notes: vec![match l.calibration {
            Some(c) => Phrase::new(key!("note.ladder.calibrated"))
                .phrase("unit", c.describe())
                .arg("target", Arg::Fixed(NS_PER_SPIN_UNIT, 0)),
            None => Phrase::new(key!("note.ladder.uncalibrated")),
        }],
        requested_ms: None,
    }
}

/// Experiment 4's rows; a ratio to an event wait shorter than the clock
/// resolves is marked with it.
/// A value got by dividing by a time of `figure_ms` (a ratio, a rate, a
/// total of blocks): marked when `clock` does not resolve that time.
fn per(value: f64, figure_ms: f64, clock: Option<ClockInfo>) -> Value {
    match clock.filter(|c| !c.resolves(figure_ms)) {
        Some(clock) => Value::Unresolved {
            value,
            figure_ms,
            clock,
        },
        None => Value::of(value),
    }
}

fn wake_rows(w: &WakeLatency, clock: Option<ClockInfo>) -> Vec<Row> {
    let ratios = w.ratios_to_event();
    let event = w.event_p50();
    w.results
        .iter()
        .map(|r| {
            let ratio = ratios.iter().find(|(s, _)| *s == r.strategy).map_or(
                Value::Absent,
                |&(_, value)| match event {
                    Some(figure_ms) => per(value, figure_ms, clock),
                    None => Value::of(value),
                },
            );
            outcome_row(r.strategy.label(), r.strategy.analogue(), &r.outcome, |s| {
                vec![
                    Value::of(s.p50),
                    Value::of(s.p99),
                    Value::of(s.max),
                    ratio.clone(),
                    count(s.n),
                ]
            })
        })
        .collect()
}

/// The stated figures of `experiment`, one row per subject, in file order.
fn stated_rows(experiment: Experiment, report: &Report) -> Vec<Row> {
    let mut rows: Vec<Row> = Vec::new();
    for f in report.stated.iter().filter(|f| f.experiment == experiment) {
        let what = f.what_phrase();
        let pos = match rows.iter().position(|r| r.what == what) {
            Some(i) => i,
            None => {
                rows.push(Row {
                    what,
                    analogue: f.analogue_phrase(),
                    values: vec![Value::Absent; experiment.columns().len()],
                    notes: Vec::new(),
                    requested_ms: None,
                });
                rows.len() - 1
            }
        };
        let row = &mut rows[pos];
        if let Some(v) = &f.value
            && let Some(i) = experiment.column_index(&v.column)
        {
            row.values[i] = Value::Stated {
                low: v.low,
                high: v.high,
                approximate: v.approximate,
            };
        }
        row.notes.push(f.quote_phrase());
    }
    rows
}

#[cfg(test)]
mod tests;
