//! The experiments: their names, the statistic columns each one's
//! comparison table has, and the figures a source (the article) states
//! for them. A leaf: the schema, the comparison and the link codec all
//! name experiments through it.

use crate::chart::format_ms;
use crate::key;
use crate::text::Key;
use crate::text::Phrase;
use serde::{Deserialize, Serialize};

pub mod cancel_waits;
pub mod concurrency_limit;
pub mod main_starvation;
pub mod periodic_work;
pub mod pool_starvation;
pub mod producer_consumer;
pub mod spin_ladder;
pub mod timed_waits;
pub mod wake_latency;

/// The message type an embedded page posts to its parent with its height,
/// as `{ type, height }`: the app (`waitlab-browser`'s `location`) and the
/// embed's first screen (`www/embed.js`, given it by `cargo xtask
/// post-build`) both send it, and the embed code listens for it.
pub const EMBED_HEIGHT_MESSAGE: &str = "waitlab:height";

/// The experiments, as named in stated figures and comparison tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Experiment {
    /// Experiment 1.
    TimedWaits,
    /// Experiment 2a.
    MainStarvation,
    /// Experiment 2b.
    PoolStarvation,
    /// Experiment 3.
    SpinLadder,
    /// Experiment 4.
    WakeLatency,
    /// Experiment 6 (5 is the clock itself, measured for every run).
    CancelWaits,
    /// Experiment 7.
    PeriodicWork,
    /// Experiment 8.
    ConcurrencyLimit,
    /// Experiment 9.
    ProducerConsumer,
}

/// What a column's numbers count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Milliseconds.
    Ms,
    /// Microseconds.
    Us,
    /// A ratio ("50×").
    Times,
    /// A count (threads).
    Count,
}

impl Unit {
    /// A value of this unit on a chart axis: times in ms, ratios as they
    /// are; `None` for counts, which are not charted.
    pub fn to_axis(self, v: f64) -> Option<f64> {
        match self {
            Unit::Ms | Unit::Times => Some(v),
            Unit::Us => Some(v / 1000.0),
            Unit::Count => None,
        }
    }

    /// A number formatted for this unit (without the unit's name).
    pub fn format(self, v: f64) -> String {
        match self {
            Unit::Ms | Unit::Us => format_ms(v),
            Unit::Times => format!("{}×", crate::number::fixed(v, 1)),
            Unit::Count => crate::number::fixed(v, 0),
        }
    }
}

/// One statistic column of a comparison table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    /// Stable identifier, used by stated figures and the catalogs'
    /// `column.EXPERIMENT.ID` headers.
    pub id: &'static str,
    /// The unit of its values.
    pub unit: Unit,
}

const fn col(id: &'static str, unit: Unit) -> Column {
    Column { id, unit }
}

const TIMED_WAITS: &[Column] = &[
    col("p50", Unit::Ms),
    col("p90", Unit::Ms),
    col("p99", Unit::Ms),
    col("max", Unit::Ms),
    col("mean", Unit::Ms),
    col("overshoot", Unit::Ms),
    col("n", Unit::Count),
];
const MAIN_STARVATION: &[Column] = &[
    col("batch", Unit::Ms),
    col("expected", Unit::Ms),
    col("timer_wait", Unit::Ms),
    col("message_wait", Unit::Ms),
    col("median_gap", Unit::Ms),
    col("longest_gap", Unit::Ms),
    col("long_gaps", Unit::Count),
    col("frames", Unit::Count),
];
const POOL_STARVATION: &[Column] = &[
    col("batch", Unit::Ms),
    col("model", Unit::Ms),
    col("extra_wait", Unit::Ms),
    col("threads", Unit::Count),
];
const SPIN_LADDER: &[Column] = &[
    col("spins_0_9", Unit::Us),
    col("spins_10_19", Unit::Us),
    col("sleep1_each", Unit::Us),
];
const WAKE_LATENCY: &[Column] = &[
    col("p50", Unit::Ms),
    col("p99", Unit::Ms),
    col("max", Unit::Ms),
    col("ratio", Unit::Times),
    col("n", Unit::Count),
];
const CANCEL_WAITS: &[Column] = &[
    col("p50", Unit::Ms),
    col("p99", Unit::Ms),
    col("max", Unit::Ms),
    col("n", Unit::Count),
];
const CONCURRENCY_LIMIT: &[Column] = &[
    col("p50", Unit::Ms),
    col("p99", Unit::Ms),
    col("max", Unit::Ms),
    col("batch", Unit::Ms),
    col("peak", Unit::Count),
];
const PRODUCER_CONSUMER: &[Column] = &[
    col("p50", Unit::Ms),
    col("p99", Unit::Ms),
    col("max", Unit::Ms),
    col("rate", Unit::Count),
    col("n", Unit::Count),
];
const PERIODIC_WORK: &[Column] = &[
    col("p50", Unit::Ms),
    col("p99", Unit::Ms),
    col("drift", Unit::Ms),
    col("late", Unit::Count),
    col("n", Unit::Count),
];

impl Experiment {
    /// Every experiment, in page order.
    pub const ALL: [Experiment; 9] = [
        Experiment::TimedWaits,
        Experiment::MainStarvation,
        Experiment::PoolStarvation,
        Experiment::SpinLadder,
        Experiment::WakeLatency,
        Experiment::CancelWaits,
        Experiment::PeriodicWork,
        Experiment::ConcurrencyLimit,
        Experiment::ProducerConsumer,
    ];

    /// The page's name for it: section ids and `?embed=` values.
    pub fn slug(self) -> &'static str {
        match self {
            Experiment::TimedWaits => "timed-waits",
            Experiment::MainStarvation => "main-starvation",
            Experiment::PoolStarvation => "pool-starvation",
            Experiment::SpinLadder => "spin-ladder",
            Experiment::WakeLatency => "wake-latency",
            Experiment::CancelWaits => "cancel-waits",
            Experiment::PeriodicWork => "periodic-work",
            Experiment::ConcurrencyLimit => "concurrency-limit",
            Experiment::ProducerConsumer => "producer-consumer",
        }
    }

    /// The experiment named `slug`, if any.
    pub fn from_slug(slug: &str) -> Option<Experiment> {
        Experiment::ALL.into_iter().find(|e| e.slug() == slug)
    }

    /// Stable identifier in the schema.
    pub fn id(self) -> &'static str {
        match self {
            Experiment::TimedWaits => "timed_waits",
            Experiment::MainStarvation => "main_starvation",
            Experiment::PoolStarvation => "pool_starvation",
            Experiment::SpinLadder => "spin_ladder",
            Experiment::WakeLatency => "wake_latency",
            Experiment::CancelWaits => "cancel_waits",
            Experiment::PeriodicWork => "periodic_work",
            Experiment::ConcurrencyLimit => "concurrency_limit",
            Experiment::ProducerConsumer => "producer_consumer",
        }
    }

    /// Its number on the page, the article's order ("1", "2a", …; the
    /// article's experiment 5 has no browser counterpart).
    pub fn badge(self) -> &'static str {
        match self {
            Experiment::TimedWaits => "1",
            Experiment::MainStarvation => "2a",
            Experiment::PoolStarvation => "2b",
            Experiment::SpinLadder => "3",
            Experiment::WakeLatency => "4",
            Experiment::CancelWaits => "6",
            Experiment::PeriodicWork => "7",
            Experiment::ConcurrencyLimit => "8",
            Experiment::ProducerConsumer => "9",
        }
    }

    /// Its section's heading.
    pub fn heading(self) -> Key {
        match self {
            Experiment::TimedWaits => key!("timed.heading"),
            Experiment::MainStarvation => key!("main.heading"),
            Experiment::PoolStarvation => key!("pool.heading"),
            Experiment::SpinLadder => key!("ladder.heading"),
            Experiment::WakeLatency => key!("wake.heading"),
            Experiment::CancelWaits => key!("cancel.heading"),
            Experiment::PeriodicWork => key!("periodic.heading"),
            Experiment::ConcurrencyLimit => key!("limit.heading"),
            Experiment::ProducerConsumer => key!("handoff.heading"),
        }
    }

    /// What its progress counts: a phrase of `done` and `count`.
    pub fn progress_unit(self) -> Key {
        match self {
            Experiment::TimedWaits => key!("progress.samples"),
            Experiment::MainStarvation => key!("progress.batches"),
            Experiment::PoolStarvation => key!("progress.jobs"),
            Experiment::SpinLadder => key!("progress.runs"),
            Experiment::WakeLatency | Experiment::CancelWaits => key!("progress.rounds"),
            Experiment::PeriodicWork => key!("progress.ticks"),
            Experiment::ConcurrencyLimit => key!("progress.gates"),
            Experiment::ProducerConsumer => key!("progress.channels"),
        }
    }

    /// Its section's explanation, a key per paragraph: what the article
    /// measured, what the browser's counterpart is, and what the native
    /// numbers or the calibration add.
    pub fn explanation(self) -> &'static [Key] {
        match self {
            Experiment::TimedWaits => &[
                key!("timed.article"),
                key!("timed.browser"),
                key!("timed.native"),
            ],
            Experiment::MainStarvation => &[key!("main.article"), key!("main.browser")],
            Experiment::PoolStarvation => &[key!("pool.article"), key!("pool.browser")],
            Experiment::SpinLadder => &[
                key!("ladder.article"),
                key!("ladder.browser"),
                key!("ladder.calibration"),
            ],
            Experiment::WakeLatency => &[key!("wake.article"), key!("wake.browser")],
            Experiment::CancelWaits => &[
                key!("cancel.article"),
                key!("cancel.browser"),
                key!("cancel.native"),
            ],
            Experiment::PeriodicWork => &[
                key!("periodic.article"),
                key!("periodic.browser"),
                key!("periodic.native"),
            ],
            Experiment::ConcurrencyLimit => &[
                key!("limit.article"),
                key!("limit.browser"),
                key!("limit.native"),
            ],
            Experiment::ProducerConsumer => &[
                key!("handoff.article"),
                key!("handoff.browser"),
                key!("handoff.native"),
            ],
        }
    }

    /// The statistic columns of its comparison table.
    pub fn columns(self) -> &'static [Column] {
        match self {
            Experiment::TimedWaits => TIMED_WAITS,
            Experiment::MainStarvation => MAIN_STARVATION,
            Experiment::PoolStarvation => POOL_STARVATION,
            Experiment::SpinLadder => SPIN_LADDER,
            Experiment::WakeLatency => WAKE_LATENCY,
            Experiment::CancelWaits => CANCEL_WAITS,
            Experiment::PeriodicWork => PERIODIC_WORK,
            Experiment::ConcurrencyLimit => CONCURRENCY_LIMIT,
            Experiment::ProducerConsumer => PRODUCER_CONSUMER,
        }
    }

    /// The columns its comparison chart plots, as indexes into
    /// [`Experiment::columns`], all on one axis (times, or ratios).
    pub fn charted(self) -> &'static [usize] {
        match self {
            Experiment::TimedWaits => &[0, 5],
            Experiment::WakeLatency => &[3],
            Experiment::MainStarvation => &[0, 5],
            Experiment::PoolStarvation => &[0, 2],
            Experiment::SpinLadder => &[0, 1, 2],
            Experiment::CancelWaits => &[0, 1],
            Experiment::PeriodicWork => &[0, 2],
            Experiment::ConcurrencyLimit => &[0, 2],
            Experiment::ProducerConsumer => &[0, 1],
        }
    }

    /// The header of one of its columns.
    pub fn header(self, column: &Column) -> Phrase {
        Phrase::new(Key::of(&format!("column.{}.{}", self.id(), column.id)))
    }

    /// What the comparison chart's axis shows.
    pub fn chart_axis(self) -> Phrase {
        Phrase::new(match self {
            Experiment::WakeLatency => key!("axis.ratio_log"),
            _ => key!("axis.ms_log"),
        })
    }

    pub(crate) fn column_index(self, id: &str) -> Option<usize> {
        self.columns().iter().position(|c| c.id == id)
    }
}

/// A figure stated by a source (the article) rather than measured here.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StatedFigure {
    /// A stable name for its words in the page's catalogs
    /// (`stated.ID.what`, `.analogue`, `.quote`), which read it in the
    /// reader's language; without one (or without those entries) the page
    /// shows the source's own words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The experiment it belongs to.
    pub experiment: Experiment,
    /// What was measured, in the source's terms.
    pub what: String,
    /// What it corresponds to in the article's vocabulary.
    pub analogue: String,
    /// The number, if the statement has one (`None` for a fact such as
    /// "completes synchronously").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<StatedValue>,
    /// The statement, in a sentence.
    pub quote: String,
}

impl StatedFigure {
    /// One of its texts: the catalog's words for it where it has an id,
    /// the source's otherwise.
    fn text(&self, part: &str, own: &str) -> Phrase {
        match &self.id {
            Some(id) => Phrase::new(Key::of(&format!("stated.{id}.{part}"))).data("fallback", own),
            None => Phrase::written(own),
        }
    }

    /// Its subject.
    pub fn what_phrase(&self) -> Phrase {
        self.text("what", &self.what)
    }

    /// Its .NET construct.
    pub fn analogue_phrase(&self) -> Phrase {
        self.text("analogue", &self.analogue)
    }

    /// The statement.
    pub fn quote_phrase(&self) -> Phrase {
        self.text("quote", &self.quote)
    }
}

/// The number of a stated figure, in its column's unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StatedValue {
    /// The column it fills ([`Column::id`]).
    pub column: String,
    /// The value, or the low end of a stated range.
    pub low: f64,
    /// The high end of a stated range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub high: Option<f64>,
    /// Whether the source gives it as approximate ("about 50×").
    #[serde(default)]
    pub approximate: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The comparison chart plots the figures the article compares (the
    /// indexes follow the columns), each on a time or ratio axis.
    #[test]
    fn charted_columns_are_the_compared_figures() {
        let charted = |e: Experiment| -> Vec<&str> {
            e.charted().iter().map(|&c| e.columns()[c].id).collect()
        };
        assert_eq!(charted(Experiment::TimedWaits), ["p50", "overshoot"]);
        assert_eq!(
            charted(Experiment::MainStarvation),
            ["batch", "longest_gap"]
        );
        assert_eq!(charted(Experiment::PoolStarvation), ["batch", "extra_wait"]);
        assert_eq!(charted(Experiment::WakeLatency), ["ratio"]);
        assert_eq!(charted(Experiment::CancelWaits), ["p50", "p99"]);
        assert_eq!(charted(Experiment::PeriodicWork), ["p50", "drift"]);
        assert_eq!(charted(Experiment::ConcurrencyLimit), ["p50", "max"]);
        assert_eq!(charted(Experiment::ProducerConsumer), ["p50", "p99"]);
        for e in Experiment::ALL {
            assert!(charted(e).len() <= 3, "the chart has three mark shapes");
            for &c in e.charted() {
                assert!(e.columns()[c].unit.to_axis(1.0).is_some(), "{}", e.id());
            }
        }
    }
}
