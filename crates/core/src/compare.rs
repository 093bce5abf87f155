//! Results side by side: one table shape per experiment that a browser
//! run, a native run and a set of figures stated by the article all fill.
//!
//! Every source becomes a [`Group`] of [`Row`]s with one [`Value`] per
//! [`Spec`](crate::experiments::Spec) of the experiment. Measured
//! sections are read from the report; stated figures fill only the cells
//! their source states, so a figure the article does not give stays
//! [`Value::Absent`], never derived or invented.

use crate::clock::ClockInfo;
use crate::experiments::{Experiment, Registered, Tried, Unit, Visit};
use crate::key;
use crate::schema::Report;
use crate::stats::Summary;
use crate::text::Phrase;

pub mod engines;
pub mod verdict;
pub use crate::experiments::Measured;
pub use crate::value::Value;

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
    /// The id of the way of waiting it measured, if it is one.
    pub id: Option<&'static str>,
    /// Its samples, ms (empty where only figures are known).
    pub samples: Vec<f64>,
    /// Their median as its source gives it, ms (a link's exact median,
    /// which its rebuilt samples only approach).
    pub median_ms: Option<f64>,
    /// How far a rerun's median may lie from theirs, ms, as the run saw
    /// its median wander ([`crate::stats::rerun_spread`]); `None` where it
    /// is not known (few samples, a link made before links carried it).
    pub spread_ms: Option<f64>,
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

/// Where a group's numbers come from, in the order a comparison lists
/// them: browsers first (this one, shared runs, bundled engines), then
/// native runs and the article.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Origin {
    /// Measured in this browser.
    Browser,
    /// Measured in someone's browser and opened from a result link.
    Linked,
    /// Measured by waitlab in a browser engine under a test driver, and
    /// bundled (`cargo xtask gallery`).
    Engine,
    /// Measured by the native probe.
    Native,
    /// Stated by a text.
    Stated,
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
    /// The clock that read its numbers, if known.
    pub clock: Option<ClockInfo>,
    /// Whether its samples were rebuilt from a link's quantile sketch.
    pub sketched: bool,
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

/// What a comparison chart plots of its sources.
#[derive(Debug, Clone, PartialEq)]
pub struct Charted {
    /// The columns it plots, by index, all on one axis.
    pub columns: Vec<usize>,
    /// That axis, in words.
    pub axis: Phrase,
    /// Whether they are the columns plotted instead of the charted ones
    /// ([`Spec::instead`](crate::experiments::Spec)).
    pub instead: bool,
}

/// What the comparison chart of `experiment` plots of `groups`: its
/// charted columns; or, where a source measured values of the columns
/// plotted instead but none of the charted ones (wake latency's ratios to
/// an event wait that a page without shared memory cannot measure),
/// those, so that no source that measured something is left out. A
/// figure stated only in the charted columns then has no place on it.
pub fn chart_columns<'a>(
    experiment: Experiment,
    groups: impl IntoIterator<Item = &'a Group>,
) -> Charted {
    let specs = experiment.columns();
    let pick = |wanted: fn(&crate::experiments::Spec) -> bool| -> Vec<usize> {
        (0..specs.len())
            .filter(|&c| wanted(&specs[c]) && specs[c].unit.to_axis(1.0).is_some())
            .collect()
    };
    let (charted, instead) = (pick(|c| c.charted), pick(|c| c.instead));
    let any_in = |g: &Group, columns: &[usize]| {
        g.rows
            .iter()
            .any(|r| columns.iter().any(|&c| r.values[c].span().is_some()))
    };
    let left_out = groups
        .into_iter()
        .any(|g| any_in(g, &instead) && !any_in(g, &charted));
    let (columns, instead) = if left_out && !instead.is_empty() {
        (instead, true)
    } else {
        (charted, false)
    };
    let ratios = columns.iter().any(|&c| specs[c].unit == Unit::Times);
    Charted {
        axis: Phrase::new(if ratios {
            crate::key!("axis.ratio_log")
        } else {
            crate::key!("axis.ms_log")
        }),
        columns,
        instead,
    }
}

impl Charted {
    /// Per row of `group`, whether the chart of `experiment` draws it
    /// when it shows waits of `wait` ms: a row of its headline with a
    /// value the axis has a place for.
    pub fn drawn(&self, experiment: Experiment, group: &Group, wait: Option<u32>) -> Vec<bool> {
        let specs = experiment.columns();
        let own = group.own_wait(wait);
        let placed = |r: &Row| {
            self.columns
                .iter()
                .any(|&c| r.values[c].on_axis(specs[c].unit).is_some())
        };
        group
            .rows
            .iter()
            .map(|r| r.in_headline(own) && placed(r))
            .collect()
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
    let native = report.env.is_native();
    let columns = experiment.columns();
    let (mut rows, marks_its_own) = experiment.visit(RowsOf(report));
    if let Some(clock) = report.env.clock.filter(|_| !marks_its_own) {
        for row in &mut rows {
            for (v, c) in row.values.iter_mut().zip(&columns) {
                *v = std::mem::replace(v, Value::Absent).resolved_by(c.unit, clock);
            }
        }
    }
    rows.extend(stated_rows(experiment, report));
    for row in &mut rows {
        row.values.resize(columns.len(), Value::Absent);
    }
    if rows.is_empty() {
        return None;
    }
    let origin = match (native, report.stated.is_empty()) {
        (false, _) if report.env.is_engine() => Origin::Engine,
        (false, _) if report.from_link => Origin::Linked,
        (false, _) => Origin::Browser,
        (true, true) => Origin::Native,
        (true, false) => Origin::Stated,
    };
    // Whose run, in words that tell this reader's own from one a link
    // gave them (which may be of the same browser).
    let source = match origin {
        Origin::Browser => {
            Phrase::new(key!("compare.source.you")).phrase("who", report.env.short_name())
        }
        Origin::Linked => {
            Phrase::new(key!("compare.source.shared")).phrase("run", report.env.run_name())
        }
        Origin::Engine | Origin::Native | Origin::Stated => report.env.short_name(),
    };
    Some(Group {
        source,
        origin,
        rows,
        clock: report.env.clock,
        sketched: report.from_link,
    })
}

/// Names `groups`' sources apart: a source whose name an earlier one
/// already has (two links of one browser and day) gets its place among
/// them, "(2)", after it.
pub fn distinct_names<'a>(groups: impl IntoIterator<Item = &'a mut Group>) {
    let mut seen: Vec<Phrase> = Vec::new();
    for g in groups {
        let n = seen.iter().filter(|s| **s == g.source).count() as u64;
        seen.push(g.source.clone());
        if n > 0 {
            g.source = Phrase::new(key!("compare.source.nth"))
                .phrase("source", g.source.clone())
                .count("n", n + 1);
        }
    }
}

/// The letter that marks the `i`th source of a comparison in its chart,
/// legend, table and sentences, so that no source is told by its colour
/// alone: A to Z, then again.
pub fn marker(i: usize) -> char {
    char::from(b'A' + (i % 26) as u8)
}

/// An experiment's rows in a report, their values read by its columns,
/// and whether they mark unresolved values themselves.
struct RowsOf<'a>(&'a Report);

impl Visit for RowsOf<'_> {
    type Out = (Vec<Row>, bool);
    fn visit<E: Registered>(self) -> (Vec<Row>, bool) {
        let measured = E::of(self.0).map_or_else(Vec::new, |e| e.rows(&self.0.env));
        let rows = measured
            .into_iter()
            .map(|m| Row {
                values: m.measure.as_ref().map_or_else(Vec::new, |measure| {
                    E::COLUMNS.iter().map(|c| (c.value)(measure)).collect()
                }),
                what: m.what,
                analogue: m.analogue,
                notes: m.notes,
                requested_ms: m.requested_ms,
                id: m.id,
                samples: m.samples,
                median_ms: m.median_ms,
                spread_ms: m.spread_ms,
            })
            .collect();
        (rows, E::MARKS_ITS_OWN)
    }
}

impl Measured<Summary> {
    /// The rows of the ways an experiment tried, each measured by its
    /// summary.
    pub fn summaries(tried: &[Tried<'_>]) -> Vec<Self> {
        tried
            .iter()
            .map(|t| Measured::of_tried(t, |s| *s))
            .collect()
    }
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
                    id: None,
                    samples: Vec::new(),
                    median_ms: None,
                    spread_ms: None,
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
mod figures_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod words_tests;
