//! Results side by side: one table shape per experiment that a browser
//! run, a native run and a set of figures stated by the article all fill.
//!
//! Every source becomes a [`Group`] of [`Row`]s with one [`Value`] per
//! [`Column`](crate::experiment::Column) of the experiment. Measured
//! sections are read from the report; stated figures fill only the cells
//! their source states, so a figure the article does not give stays
//! [`Value::Absent`], never derived or invented.

use crate::clock::ClockInfo;
use crate::experiment::{Experiment, Unit};
use crate::key;
use crate::ladder::{NS_PER_SPIN_UNIT, SLEEP1_THRESHOLD, SpinLadder, Step, YIELD_THRESHOLD};
use crate::outcome::Outcome;
use crate::schema::Report;
use crate::starvation::{JobMode, MainStarvation, PoolStarvation};
use crate::stats::Samples;
use crate::text::{Arg, Phrase};
use crate::wake::WakeLatency;

/// One cell of a comparison table.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// Not measured or not stated.
    Absent,
    /// Measured.
    Measured(f64),
    /// Measured, but from figures spanning fewer than
    /// [`crate::clock::RESOLVED_STEPS`] steps of its source's clock:
    /// rounding, not a measurement (the page marks it ‡).
    Unresolved {
        /// The value.
        value: f64,
        /// The figure under the clock's resolution, ms: the value itself,
        /// or for a ratio the time it divides by.
        figure_ms: f64,
        /// The clock that read it.
        clock: ClockInfo,
    },
    /// Stated by the source: a value or a range, maybe approximate.
    Stated {
        /// Low end (or the value).
        low: f64,
        /// High end of a range.
        high: Option<f64>,
        /// "About".
        approximate: bool,
    },
}

impl Value {
    /// A measured value, absent if not finite.
    fn of(v: f64) -> Value {
        if v.is_finite() {
            Value::Measured(v)
        } else {
            Value::Absent
        }
    }

    /// The text of the cell.
    pub fn format(&self, unit: Unit) -> String {
        match self {
            Value::Absent => "–".to_owned(),
            Value::Measured(v) => unit.format(*v),
            Value::Unresolved { value, .. } => format!("{}‡", unit.format(*value)),
            Value::Stated {
                low,
                high,
                approximate,
            } => {
                let about = if *approximate { "≈" } else { "" };
                match high {
                    Some(h) => format!("{about}{}–{}", unit.format(*low), unit.format(*h)),
                    None => format!("{about}{}", unit.format(*low)),
                }
            }
        }
    }

    /// Marks a measured time of `unit` below `clock`'s resolution; other
    /// values stay as they are.
    fn resolved_by(self, unit: Unit, clock: ClockInfo) -> Value {
        let Value::Measured(value) = self else {
            return self;
        };
        let figure_ms = match unit {
            Unit::Ms => value,
            Unit::Us => value / 1000.0,
            Unit::Times | Unit::Count => return self,
        };
        if clock.resolves(figure_ms) {
            self
        } else {
            Value::Unresolved {
                value,
                figure_ms,
                clock,
            }
        }
    }

    /// For a figure under its clock's resolution, the span one step of that
    /// clock either way of the figure makes of the value, `(low, high)`
    /// (for a ratio, the step moves the time it divides by): what the
    /// figure cannot tell apart. `None` for any other value.
    pub fn clock_band(&self) -> Option<(f64, f64)> {
        let Value::Unresolved {
            value,
            figure_ms,
            clock,
        } = *self
        else {
            return None;
        };
        let step = clock.typical_step_ms / figure_ms.max(f64::MIN_POSITIVE);
        Some(((value * (1.0 - step)).max(0.0), value * (1.0 + step)))
    }

    /// The span the value covers, `(low, high)`, if it has a number.
    pub fn span(&self) -> Option<(f64, f64)> {
        match self {
            Value::Absent => None,
            Value::Measured(v) | Value::Unresolved { value: v, .. } => Some((*v, *v)),
            Value::Stated { low, high, .. } => Some((*low, high.unwrap_or(*low))),
        }
    }
}

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
mod tests {
    use super::*;
    use crate::experiment::{StatedFigure, StatedValue};
    use crate::schema::{Cell, Environment, NativeEnv, NestedChain, Source, TimedWaits};
    use crate::timed::{CellKey, Mechanism, TimedWaitsConfig};

    fn asking(requested: &[Option<u32>]) -> Group {
        Group {
            source: Phrase::new(key!("data")),
            origin: Origin::Browser,
            rows: requested
                .iter()
                .map(|&requested_ms| Row {
                    what: Phrase::new(key!("data")),
                    analogue: Phrase::new(key!("data")),
                    values: Vec::new(),
                    notes: Vec::new(),
                    requested_ms,
                })
                .collect(),
        }
    }

    #[test]
    fn the_headline_shows_one_wait_beside_the_waits_that_ask_for_none() {
        let browser = asking(&[Some(0), Some(1), Some(10), None]);
        assert_eq!(headline_wait(browser.rows.iter()), Some(1));
        let shown = |g: &Group, wait| g.rows.iter().filter(|r| r.in_headline(wait)).count();
        assert_eq!(shown(&browser, Some(1)), 2, "1 ms and the one asking none");
        // Without a 1 ms row, the shortest positive wait asked for.
        let other = asking(&[Some(0), Some(15), Some(10)]);
        assert_eq!(headline_wait(other.rows.iter()), Some(10));
        // One wait for every source, so they line up.
        assert_eq!(
            headline_wait(other.rows.iter().chain(&browser.rows)),
            Some(1)
        );
        // Nothing positive asked: every row shows.
        let none = asking(&[Some(0), None]);
        assert_eq!(headline_wait(none.rows.iter()), None);
        assert_eq!(shown(&none, None), 2);
        // A source that asked for none of the chart's wait still shows its
        // own: beside sources of 1 ms, a run of 0 ms timers alone keeps its
        // rows, and one of 0 and 10 ms its 10 ms rows.
        let headline = |g: &Group, wait| g.headline_rows(wait).count();
        assert_eq!(headline(&browser, Some(1)), 2);
        assert_eq!(browser.own_wait(Some(1)), Some(1));
        assert_eq!(asking(&[Some(0), Some(10)]).own_wait(Some(1)), Some(10));
        assert_eq!(asking(&[Some(0)]).own_wait(Some(1)), None);
        assert_eq!(
            asking(&[None]).own_wait(Some(1)),
            Some(1),
            "asked for no wait"
        );
        assert_eq!(headline(&asking(&[Some(0)]), Some(1)), 1);
        assert_eq!(headline(&asking(&[Some(0), Some(10), None]), Some(1)), 2);
        assert_eq!(headline(&none, None), 2);
    }

    fn env(native: bool) -> Environment {
        Environment {
            native: native.then(|| NativeEnv {
                name: ".NET 10 (article)".into(),
                runtime: ".NET 10".into(),
                os: "macOS".into(),
                cpu: "M4".into(),
                source: Source::Article("the article".into()),
                samples: Some(200),
            }),
            ..Environment::test_chrome()
        }
    }

    fn stated(column: &str, low: f64, high: Option<f64>) -> StatedFigure {
        StatedFigure {
            id: None,
            experiment: Experiment::PoolStarvation,
            what: "200 × Thread.Sleep(1000)".into(),
            analogue: "Thread.Sleep(T) in each work item".into(),
            value: Some(StatedValue {
                column: column.into(),
                low,
                high,
                approximate: false,
            }),
            quote: "q".into(),
        }
    }

    #[test]
    fn stated_figures_fill_only_their_cells() {
        let mut r = Report::new(env(true), None);
        r.stated = vec![
            stated("batch", 18000.0, None),
            stated("extra_wait", 17000.0, None),
        ];
        check_stated(&r).unwrap();
        let g = group(Experiment::PoolStarvation, &r).unwrap();
        assert_eq!(g.origin, Origin::Stated);
        assert_eq!(g.rows.len(), 1, "figures with one subject share a row");
        let v = &g.rows[0].values;
        assert_eq!(v.len(), Experiment::PoolStarvation.columns().len());
        assert_eq!(v[0].format(Unit::Ms), "18000");
        assert_eq!(
            v[1],
            Value::Absent,
            "the model is not stated, so it stays absent"
        );
        assert_eq!(g.rows[0].notes.len(), 2);
        assert!(group(Experiment::SpinLadder, &r).is_none());

        r.stated.push(stated("nonsense", 1.0, None));
        assert!(
            check_stated(&r)
                .unwrap_err()
                .to_string()
                .contains("nonsense")
        );
    }

    #[test]
    fn ranges_and_approximations_format() {
        let v = Value::Stated {
            low: 0.3,
            high: Some(2.0),
            approximate: false,
        };
        assert_eq!(v.format(Unit::Ms), "0.3–2.00");
        assert_eq!(v.span(), Some((0.3, 2.0)));
        let v = Value::Stated {
            low: 50.0,
            high: None,
            approximate: true,
        };
        assert_eq!(v.format(Unit::Times), "≈50.0×");
        assert_eq!(Value::of(f64::NAN), Value::Absent);
        assert_eq!(Unit::Us.to_axis(1265.0), Some(1.265));
        assert_eq!(Unit::Count.to_axis(1.0), None);
    }

    #[test]
    fn measured_cells_become_rows_with_every_column() {
        let config = TimedWaitsConfig::default();
        let cells = vec![
            Cell {
                key: CellKey {
                    mechanism: Mechanism::ThreadSleep,
                    requested_ms: Some(10),
                },
                outcome: Outcome::measured(vec![10.2, 10.4, 10.3]).unwrap(),
            },
            Cell {
                key: CellKey {
                    mechanism: Mechanism::TokioYield,
                    requested_ms: None,
                },
                outcome: Outcome::Unavailable { reason: "x".into() },
            },
        ];
        let r = Report::new(
            env(false),
            Some(TimedWaits {
                config,
                cells,
                chain: NestedChain { levels: Vec::new() },
            }),
        );
        let g = group(Experiment::TimedWaits, &r).unwrap();
        assert_eq!(g.origin, Origin::Browser);
        let en = crate::text::Catalog::english();
        assert_eq!(en.render(&g.source), "Chrome 156 on Linux");
        assert_eq!(en.render(&g.rows[0].what), "std::thread::sleep(10)");
        assert_eq!(en.render(&g.rows[0].analogue), "Thread.Sleep(10)");
        assert_eq!(g.rows[0].values[0], Value::Measured(10.3));
        let at = |id| Experiment::TimedWaits.column_index(id).unwrap();
        let overshoot = g.rows[0].values[at("overshoot")].span().unwrap().0;
        assert!((overshoot - 0.3).abs() < 1e-9);
        assert_eq!(g.rows[0].values[at("n")], Value::Measured(3.0));
        assert_eq!(
            g.rows[1].values,
            vec![Value::Absent; Experiment::TimedWaits.columns().len()]
        );
        let notes: Vec<String> = g.rows[1].notes.iter().map(|n| en.render(n)).collect();
        assert_eq!(notes, ["not available: x"]);
        assert!(r.measured_anything(Experiment::TimedWaits));
        let mut nothing = r.clone();
        if let Some(tw) = nothing.timed_waits.as_mut() {
            tw.cells.remove(0);
        }
        assert!(!nothing.measured_anything(Experiment::TimedWaits));
        assert!(!r.measured_anything(Experiment::SpinLadder));
    }

    /// With a clock of 5 µs steps (0.1 ms resolves), a 0.01 ms median is
    /// marked, a 10.3 ms one is not, and a ratio to an unresolved event
    /// wait is marked with the event's figure.
    #[test]
    fn figures_under_the_clock_are_marked() {
        use crate::wake::{Strategy, WakeConfig, WakeResult};
        let clock = ClockInfo {
            min_step_ms: 0.005,
            typical_step_ms: 0.005,
            readings: 100,
        };
        let mut e = env(false);
        e.clock = Some(clock);
        let cell = |mechanism, requested_ms, v: f64| Cell {
            key: CellKey {
                mechanism,
                requested_ms,
            },
            outcome: Outcome::measured(vec![v; 3]).unwrap(),
        };
        let tw = TimedWaits {
            config: TimedWaitsConfig::default(),
            cells: vec![
                cell(Mechanism::ThreadSleep, Some(10), 10.3),
                cell(Mechanism::ResolvedPromise, None, 0.01),
            ],
            chain: NestedChain { levels: Vec::new() },
        };
        let mut r = Report::new(e, Some(tw));
        let g = group(Experiment::TimedWaits, &r).unwrap();
        assert_eq!(g.rows[0].values[0], Value::Measured(10.3));
        let overshoot = Experiment::TimedWaits.column_index("overshoot").unwrap();
        assert!(
            matches!(g.rows[0].values[overshoot], Value::Measured(_)),
            "an overshoot of 0.3 ms spans 60 steps"
        );
        assert_eq!(
            g.rows[1].values[0],
            Value::Unresolved {
                value: 0.01,
                figure_ms: 0.01,
                clock
            }
        );
        assert_eq!(g.rows[1].values[0].format(Unit::Ms), "0.01‡");
        // A step of its clock either way: what the figure cannot tell apart.
        let (lo, hi) = g.rows[1].values[0].clock_band().unwrap();
        assert!(lo == 0.01 - clock.typical_step_ms || lo == 0.0);
        assert!((hi - (0.01 + clock.typical_step_ms)).abs() < 1e-12);
        assert_eq!(g.rows[0].values[0].clock_band(), None);
        r.wake_latency = Some(WakeLatency {
            config: WakeConfig::default(),
            skew_ms: None,
            results: [(Strategy::Event, 0.03), (Strategy::SleepPoll, 1.5)]
                .into_iter()
                .map(|(strategy, v)| WakeResult {
                    strategy,
                    outcome: Outcome::measured(vec![v; 3]).unwrap(),
                })
                .collect(),
        });
        let g = group(Experiment::WakeLatency, &r).unwrap();
        assert!(matches!(g.rows[0].values[0], Value::Unresolved { .. }));
        assert_eq!(g.rows[1].values[0], Value::Measured(1.5));
        match g.rows[1].values[Experiment::WakeLatency.column_index("ratio").unwrap()] {
            Value::Unresolved {
                value, figure_ms, ..
            } => assert!((value - 50.0).abs() < 1e-9 && figure_ms == 0.03),
            ref other => panic!("{other:?}"),
        }
        // A ratio's band: the step moves the time it divides by.
        let ratio = &g.rows[1].values[Experiment::WakeLatency.column_index("ratio").unwrap()];
        let (lo, hi) = ratio.clock_band().unwrap();
        let step = clock.typical_step_ms / 0.03;
        assert!((lo - 50.0 * (1.0 - step)).abs() < 1e-9 && (hi - 50.0 * (1.0 + step)).abs() < 1e-9);
        // Cancellable waits: a row per strategy with its label and .NET
        // call, a short figure marked, an unavailable one with its reason.
        use crate::cancel::{CancelConfig, CancelResult, CancelWaits, Strategy as Cancel};
        r.cancel_waits = Some(CancelWaits {
            config: CancelConfig::default(),
            skew_ms: None,
            results: vec![
                CancelResult {
                    strategy: Cancel::BlindSleep,
                    outcome: Outcome::measured(vec![9.5; 3]).unwrap(),
                },
                CancelResult {
                    strategy: Cancel::CancelEvent,
                    outcome: Outcome::measured(vec![0.02; 3]).unwrap(),
                },
                CancelResult {
                    strategy: Cancel::AbortTimer,
                    outcome: Outcome::Unavailable {
                        reason: crate::outcome::reason::NOT_ISOLATED.into(),
                    },
                },
            ],
        });
        let g = group(Experiment::CancelWaits, &r).unwrap();
        assert_eq!(g.rows.len(), 3);
        assert_eq!(g.rows[0].what, Cancel::BlindSleep.label());
        assert_eq!(g.rows[0].analogue, Cancel::NativeSleep.analogue());
        assert_eq!(g.rows[0].values[0], Value::Measured(9.5));
        assert_eq!(g.rows[0].values[3], Value::Measured(3.0));
        assert!(matches!(g.rows[1].values[1], Value::Unresolved { .. }));
        assert!(g.rows[2].values.iter().all(|v| *v == Value::Absent));
        assert_eq!(g.rows[2].notes.len(), 1);
    }
}
