//! The experiments: one folder each, named by its id, where its
//! [`Description`] says who it is, its comparison columns and rows, its
//! findings, its CSV and its link section; and [`Experiment`], which names
//! one of them for code that handles every experiment alike. The list in
//! `experiments!` is the only place that names them all.

pub mod cancel_waits;
mod column;
pub mod concurrency_limit;
pub mod config;
mod description;
pub mod hidden_tab;
mod job_mode;
pub mod main_starvation;
pub mod own_way;
pub mod paired;
pub mod periodic_work;
pub mod pool_starvation;
pub mod producer_consumer;
mod seeded;
pub mod spin_ladder;
pub mod timed_waits;
mod tried;
pub mod wake_latency;

pub use crate::strategies::Way;
pub use crate::value::Unit;
pub use column::{Column, Spec};
pub use config::Config;
pub use description::{BROWSER_ONLY, Description, Findings, Lacks, Meta, NATIVE_TOO, NO_NATIVE};
pub use job_mode::JobMode;
pub use tried::{Measured, Sample, Tried, series};

use crate::environment::{Environment, Failure};
use crate::lesson::Lessons;
use crate::text::{Key, Phrase};
use serde::{Deserialize, Serialize};

/// The message type an embedded page posts to its parent with its height,
/// as `{ type, height }`: the app (`waitlab-browser`'s `location`) and the
/// embed's first screen (`www/embed.js`, given it by `cargo xtask
/// post-build`) both send it, and the embed code listens for it.
pub const EMBED_HEIGHT_MESSAGE: &str = "waitlab:height";

/// Declares [`Experiment`] from [`each_experiment!`]'s list: each
/// variant, its folder (its id: its field on `Report`, its link section's
/// name, its catalog prefix) with the result type that describes it, its
/// slug, and who it is on the page ([`Meta`]: its badge, explanation,
/// progress unit and link bit).
macro_rules! experiments {
    ($(
        $(#[$doc:meta])* $variant:ident => $module:ident::$result:ident as $slug:literal
            { $badge:literal, $explained:expr, $progress:literal, bit $bit:literal, run_all $place:literal },
    )*) => {
        /// Who each experiment is on the page, in [`Experiment::ALL`]'s order.
        static METAS: [Meta; [$($slug),*].len()] = [
            $(Meta::new($badge, $explained, $crate::key!($progress), $bit),)*
        ];

        /// The experiments, as named in stated figures and comparison
        /// tables.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum Experiment {
            $($(#[$doc])* $variant,)*
        }

        impl Experiment {
            /// Every experiment, in page order.
            pub const ALL: [Experiment; [$(stringify!($variant)),*].len()] =
                [$(Experiment::$variant),*];

            /// How many experiments Run all takes: those with a place in
            /// it (a place of 0 leaves one out: it needs the reader).
            pub const IN_RUN_ALL: usize = {
                let places: [usize; Experiment::ALL.len()] = [$($place),*];
                let (mut n, mut i) = (0, 0);
                while i < places.len() {
                    n += (places[i] > 0) as usize;
                    i += 1;
                }
                n
            };

            /// The experiments Run all takes, in its order (each one's
            /// `run_all` place in the list, from 1; checked to be each
            /// place once when compiled).
            pub const RUN_ALL: [Experiment; Experiment::IN_RUN_ALL] = {
                let places: [usize; Experiment::ALL.len()] = [$($place),*];
                let mut order = [Experiment::ALL[0]; Experiment::IN_RUN_ALL];
                let mut taken = [false; Experiment::IN_RUN_ALL];
                let mut i = 0;
                while i < places.len() {
                    if places[i] > 0 {
                        let place = places[i] - 1;
                        assert!(place < Experiment::IN_RUN_ALL, "a place in Run all past its end");
                        assert!(!taken[place], "two experiments share a place in Run all");
                        taken[place] = true;
                        order[place] = Experiment::ALL[i];
                    }
                    i += 1;
                }
                order
            };

            /// Does `v` with its [`Description`].
            pub fn visit<V: Visit>(self, v: V) -> V::Out {
                match self {
                    $(Experiment::$variant => v.visit::<$module::$result>(),)*
                }
            }

            /// Its one name: the schema's, the link's, its folders' and
            /// its catalog prefix (`producer_consumer`).
            pub fn id(self) -> &'static str {
                match self {
                    $(Experiment::$variant => stringify!($module),)*
                }
            }

            /// The same name as the page's section ids, `?embed=` values
            /// and file names spell it (`producer-consumer`).
            pub fn slug(self) -> &'static str {
                match self {
                    $(Experiment::$variant => $slug,)*
                }
            }

            /// Its section's heading (`ID.heading`).
            pub fn heading(self) -> Key {
                match self {
                    $(Experiment::$variant => Key::of(concat!(stringify!($module), ".heading")),)*
                }
            }
        }

        $(impl Listed for $module::$result {
            const EXPERIMENT: Experiment = Experiment::$variant;
        })*
    };
}

/// A result type in the list of experiments: which experiment it is
/// (written for each by `experiments!`, from `each_experiment!`'s list).
pub trait Listed {
    /// Which experiment it is.
    const EXPERIMENT: Experiment;
}

/// An experiment of the list, whole: what it is ([`Description`]), what it
/// teaches ([`Lessons`]), which it is ([`Listed`]) and where a report
/// keeps it ([`Stored`]), as code that handles every experiment alike
/// reaches it ([`Visit`]).
pub trait Registered: Description + Lessons + Listed + Stored {}

impl<E: Description + Lessons + Listed + Stored> Registered for E {}

/// Something done with one experiment's [`Description`], whichever it is
/// ([`Experiment::visit`]). Each use is its own small type, compiled where
/// it is used: a wasm module that only names experiments carries no
/// experiment's rows, CSV or link section.
pub trait Visit {
    /// What it gives.
    type Out;
    /// Does it with `E`.
    fn visit<E: Registered>(self) -> Self::Out;
}

/// The experiments, in page order, the one list of them: calls
/// `$callback!` with each one's variant, folder (its id) with the result
/// type that describes it, slug, and `{ badge, explanation parts,
/// progress unit, link bit, place in Run all }`. Run all takes the main
/// thread's freeze and the signal against polling first (a few seconds
/// each, and the article's sharpest contrasts), then the pool,
/// cancellation and the handoffs, and the long tails last: the spin
/// ladder and timed waits' hundreds of samples. `experiments!` declares
/// [`Experiment`] from it, `report!` the [`Report`] with a field each and
/// their [`Stored`].
macro_rules! each_experiment {
    ($callback:path) => {
        $callback! {
        /// Experiment 1.
        TimedWaits => timed_waits::TimedWaits as "timed-waits"
            { "1", NATIVE_TOO, "progress.samples", bit 0, run_all 9 },
        /// Experiment 2a.
        MainStarvation => main_starvation::MainStarvation as "main-starvation"
            { "2a", BROWSER_ONLY, "progress.batches", bit 1, run_all 1 },
        /// Experiment 2b.
        PoolStarvation => pool_starvation::PoolStarvation as "pool-starvation"
            { "2b", BROWSER_ONLY, "progress.jobs", bit 2, run_all 3 },
        /// Experiment 3.
        SpinLadder => spin_ladder::SpinLadder as "spin-ladder"
            { "3", &["article", "browser", "calibration"], "progress.runs", bit 3, run_all 8 },
        /// Experiment 4.
        WakeLatency => wake_latency::WakeLatency as "wake-latency"
            { "4", BROWSER_ONLY, "progress.rounds", bit 4, run_all 2 },
        /// Experiment 6 (5 is the clock itself, measured for every run).
        CancelWaits => cancel_waits::CancelWaits as "cancel-waits"
            { "6", NATIVE_TOO, "progress.rounds", bit 6, run_all 4 },
        /// Experiment 7.
        PeriodicWork => periodic_work::PeriodicWork as "periodic-work"
            { "7", NATIVE_TOO, "progress.ticks", bit 8, run_all 7 },
        /// Experiment 8.
        ConcurrencyLimit => concurrency_limit::ConcurrencyLimit as "concurrency-limit"
            { "8", NATIVE_TOO, "progress.gates", bit 9, run_all 6 },
        /// Experiment 9.
        ProducerConsumer => producer_consumer::ProducerConsumer as "producer-consumer"
            { "9", NATIVE_TOO, "progress.channels", bit 10, run_all 5 },
        /// Experiment 10: waiting in a hidden tab (the web's own; it needs
        /// the reader to switch tabs, so Run all leaves it out).
        HiddenTab => hidden_tab::HiddenTab as "hidden-tab"
            { "10", NO_NATIVE, "progress.seconds", bit 12, run_all 0 },
        }
    };
}

each_experiment!(experiments);

/// Declares [`Report`] from [`each_experiment!`]'s list: a field for each
/// experiment, named by its id, absent from the JSON when it did not run,
/// and each one's [`Stored`].
macro_rules! report {
    ($($(#[$doc:meta])* $variant:ident => $module:ident::$result:ident as $slug:literal { $($meta:tt)* },)*) => {
        /// A complete result file.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        pub struct Report {
            /// Always [`SCHEMA_NAME`](crate::schema::SCHEMA_NAME).
            pub schema: String,
            /// Always [`SCHEMA_VERSION`](crate::schema::SCHEMA_VERSION) when written by this build.
            pub version: u32,
            /// Where it was measured.
            pub env: Environment,
            $(
                $(#[$doc])*
                /// Its results, if it was run.
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub $module: Option<$module::$result>,
            )*
            /// Why the run failed, if it did (its results are then absent).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub failure: Option<Failure>,
            /// Figures stated by a source rather than measured (the article's).
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            pub stated: Vec<StatedFigure>,
            /// Whether this report was decoded from a share link: its statistics
            /// are quantized and its samples reconstructed (see `share`).
            #[serde(default, skip_serializing_if = "std::ops::Not::not")]
            pub from_link: bool,
            /// The run's timeline, if this report is of a run on this page (or a
            /// native run asked for one): never in its JSON or links.
            #[serde(skip)]
            pub trace: Option<std::sync::Arc<crate::trace::Trace>>,
        }

        impl Report {
            /// A report of `schema` and `version`, measured on `env`, with
            /// no results yet.
            pub(crate) fn empty(schema: String, version: u32, env: Environment) -> Report {
                Report {
                    schema,
                    version,
                    env,
                    $($module: None,)*
                    failure: None,
                    stated: Vec::new(),
                    from_link: false,
                    trace: None,
                }
            }
        }

        $(impl Stored for $module::$result {
            fn of(report: &Report) -> Option<&Self> {
                report.$module.as_ref()
            }

            fn slot(report: &mut Report) -> &mut Option<Self> {
                &mut report.$module
            }
        })*
    };
}

each_experiment!(report);

/// Every experiment's English texts (`www/i18n/ID/en.json`,
/// `en.runs.json` and `en.compare.json`), for the tests' English catalog.
#[cfg(test)]
macro_rules! english_texts {
    ($($(#[$doc:meta])* $variant:ident => $module:ident::$result:ident as $slug:literal { $($meta:tt)* },)*) => {
        /// Each experiment's English parts, in the list's order.
        pub(crate) const ENGLISH_TEXTS: &[&str] = &[$(
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../www/i18n/", stringify!($module), "/en.json")),
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../www/i18n/", stringify!($module), "/en.runs.json")),
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../www/i18n/", stringify!($module), "/en.compare.json")),
        )*];
    };
}

#[cfg(test)]
each_experiment!(english_texts);

/// Where a report keeps an experiment's results: written for each
/// experiment by `report!` from [`each_experiment!`](crate::experiments)'s
/// list, its id naming its field.
pub trait Stored: Sized {
    /// Its results in `report`.
    fn of(report: &Report) -> Option<&Self>;
    /// Where `report` keeps its results.
    fn slot(report: &mut Report) -> &mut Option<Self>;
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
    /// The column it fills ([`Spec::id`]).
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

impl Experiment {
    /// Who it is on the page.
    pub fn meta(self) -> &'static Meta {
        &METAS[self as usize]
    }

    /// The experiment named `slug`, if any.
    pub fn from_slug(slug: &str) -> Option<Experiment> {
        Experiment::ALL.into_iter().find(|e| e.slug() == slug)
    }

    /// Its number on the page.
    pub fn badge(self) -> &'static str {
        self.meta().badge
    }

    /// What its progress counts: a phrase of `done` and `count`.
    pub fn progress_unit(self) -> Key {
        self.meta().progress
    }

    /// Its short name (`ID.name`: "at most N at once").
    pub fn name(self) -> Phrase {
        Phrase::new(Key::of(&format!("{}.name", self.id())))
    }

    /// Its section's explanation, a key per paragraph (`ID.PART` for
    /// each of its [`Meta::explanation`]).
    pub fn explanation(self) -> Vec<Key> {
        self.meta()
            .explanation
            .iter()
            .map(|part| Key::of(&format!("{}.{part}", self.id())))
            .collect()
    }

    /// The statistic columns of its comparison table.
    pub fn columns(self) -> Vec<Spec> {
        struct Columns;
        impl Visit for Columns {
            type Out = Vec<Spec>;
            fn visit<E: Registered>(self) -> Vec<Spec> {
                E::COLUMNS.iter().map(|c| c.spec).collect()
            }
        }
        self.visit(Columns)
    }

    /// The header of one of its columns.
    pub fn header(self, column: &Spec) -> Phrase {
        Phrase::new(Key::of(&format!("{}.column.{}", self.id(), column.id)))
    }

    pub(crate) fn column_index(self, id: &str) -> Option<usize> {
        self.columns().iter().position(|c| c.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The comparison chart plots the figures the article compares, all
    /// on one time or ratio axis.
    #[test]
    fn charted_columns_are_the_compared_figures() {
        let charted = |e: Experiment| -> Vec<&str> {
            e.columns()
                .iter()
                .filter(|c| c.charted)
                .map(|c| c.id)
                .collect()
        };
        assert_eq!(charted(Experiment::TimedWaits), ["p50", "overshoot"]);
        assert_eq!(
            charted(Experiment::MainStarvation),
            ["batch", "longest_gap"]
        );
        assert_eq!(charted(Experiment::PoolStarvation), ["batch", "extra_wait"]);
        assert_eq!(
            charted(Experiment::SpinLadder),
            ["spins_0_9", "spins_10_19", "sleep1_each"]
        );
        assert_eq!(charted(Experiment::WakeLatency), ["ratio"]);
        assert_eq!(charted(Experiment::CancelWaits), ["p50", "p99"]);
        assert_eq!(charted(Experiment::PeriodicWork), ["p50", "drift"]);
        assert_eq!(charted(Experiment::ConcurrencyLimit), ["p50", "max"]);
        assert_eq!(charted(Experiment::ProducerConsumer), ["p50", "p99"]);
        // The units of `e`'s columns that `which` picks.
        let units_of = |e: Experiment, which: fn(&Spec) -> bool| -> Vec<Unit> {
            e.columns()
                .iter()
                .filter(|c| which(c))
                .map(|c| c.unit)
                .collect()
        };
        for e in Experiment::ALL {
            assert!(charted(e).len() <= 3, "the chart has three mark shapes");
            let units = units_of(e, |c| c.charted);
            assert!(units.iter().all(|u| u.to_axis(1.0).is_some()), "{}", e.id());
            let ratios = units.iter().filter(|&&u| u == Unit::Times).count();
            assert!(ratios == 0 || ratios == units.len(), "{}: one axis", e.id());
            // Plotted instead only of ratios, as times, and as few.
            let instead = units_of(e, |c| c.instead);
            assert!(instead.len() <= 3, "{}", e.id());
            assert!(
                instead.is_empty()
                    || ratios > 0
                        && instead
                            .iter()
                            .all(|u| matches!(u, Unit::Ms | Unit::Us | Unit::Ns)),
                "{}",
                e.id()
            );
        }
    }

    /// One name per experiment: the slug is the id with dashes, each
    /// experiment has its own link bit, and the bits avoid the failure's
    /// (5, 11) and the second byte's marker (7).
    #[test]
    fn one_name_and_one_bit_each() {
        let mut bits = Vec::new();
        for e in Experiment::ALL {
            let m = e.meta();
            assert_eq!(e.slug(), e.id().replace('_', "-"));
            assert_eq!(Experiment::from_slug(e.slug()), Some(e));
            assert!(
                ![5, 7, 11].contains(&m.link_bit) && m.link_bit < 16,
                "{}",
                e.id()
            );
            bits.push(m.link_bit);
        }
        assert!(
            bits.windows(2).all(|w| w[0] < w[1]),
            "ascending and distinct, in page order: {bits:?}"
        );
    }
}
