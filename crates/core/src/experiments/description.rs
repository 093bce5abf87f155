//! What one experiment is, said once in its folder ([`Description`]), and
//! how code that handles every experiment alike (the report, the
//! comparison, the CSV, the link) reaches it through [`Experiment`]
//! ([`Visit`]), so that none of it lists the experiments.

use super::tried::{Measured, Sample, Tried, series};
use super::{Column, Config};
use crate::clock::ClockInfo;
use crate::environment::Environment;
use crate::link::wire::Section;
use crate::strategies::Way;
use crate::text::{Key, Phrase};

/// Who an experiment is on the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Meta {
    /// Its number on the page, the article's order ("1", "2a", …; the
    /// article's experiment 5 has no browser counterpart).
    pub badge: &'static str,
    /// Its section's explanation, a catalog entry `ID.PART` per paragraph:
    /// what the article measured (`article`), what the browser's
    /// counterpart is (`browser`), what the native numbers or the
    /// calibration add.
    pub explanation: &'static [&'static str],
    /// What its progress counts: a phrase of `done` and `count`.
    pub progress: Key,
    /// Its section's bit in a result link's body (`link::encode_body`):
    /// 0-4 and 6 in the first byte, 8 and up in the second.
    pub link_bit: u8,
}

impl Meta {
    /// Whether a native program can run it (the native probe does).
    pub fn runs_natively(&self) -> bool {
        !matches!(self.explanation, ["article", "browser", "no_native"])
    }

    /// Its badge, explanation parts, progress unit and link bit.
    pub const fn new(
        badge: &'static str,
        explanation: &'static [&'static str],
        progress: Key,
        link_bit: u8,
    ) -> Meta {
        Meta {
            badge,
            explanation,
            progress,
            link_bit,
        }
    }
}

/// The explanation of an experiment that the native probe measures too:
/// the article's, the browser's and the native numbers' parts.
pub const NATIVE_TOO: &[&str] = &["article", "browser", "native"];
/// The explanation of an experiment only a browser measures.
pub const BROWSER_ONLY: &[&str] = &["article", "browser"];
/// The explanation of an experiment no native program can run (a hidden
/// tab): its third part says why, and the native probe leaves it out.
pub const NO_NATIVE: &[&str] = &["article", "browser", "no_native"];

/// What an experiment lacks without shared memory.
#[derive(Debug, Clone, PartialEq)]
pub enum Lacks {
    /// Nothing: every row runs (experiment 2b's blocking jobs busy-wait
    /// instead, which its results say).
    Nothing,
    /// These rows, named as its table names them.
    Rows(Vec<Phrase>),
    /// Everything: it has no row without shared memory.
    Everything,
}

impl Lacks {
    /// The rows of `all` that `needs` shared memory, named by `label`.
    pub fn rows<T: Copy>(all: &[T], needs: fn(T) -> bool, label: fn(T) -> Phrase) -> Lacks {
        Lacks::Rows(
            all.iter()
                .copied()
                .filter(|&x| needs(x))
                .map(label)
                .collect(),
        )
    }

    /// The ways of the page that `needs` shared memory.
    pub fn ways<W: Way>(needs: fn(W) -> bool) -> Lacks {
        Lacks::rows(W::BROWSER, needs, W::label)
    }
}

/// What a result says in words: the findings the page leads with, read
/// with the `clock` the run read (a figure it does not resolve is marked).
/// Each experiment's are in its folder's `findings.rs`.
pub trait Findings {
    /// Its findings.
    fn findings(&self, clock: Option<ClockInfo>) -> Vec<Phrase>;
}

/// One experiment, described by its result type: who it is, where a report
/// keeps it, its comparison columns and rows, its CSV samples, its link
/// section, and what it lacks without shared memory. (Its [`Findings`] are
/// in the folder's `findings.rs`.)
/// Adding an experiment is its folder with this, and a line in
/// `each_experiment!`.
pub trait Description: Findings + Section + Clone + 'static {
    /// Its configuration.
    type Config: Config;
    /// What one comparison row measured, which its columns read.
    type Measure;
    /// Its comparison columns, in table order.
    const COLUMNS: &'static [Column<Self::Measure>];
    /// Whether its rows mark unresolved values themselves (a figure that
    /// is not itself a reading of the clock), rather than each value being
    /// checked against the clock.
    const MARKS_ITS_OWN: bool = false;

    /// The ways of waiting it tried, in display order (none for an
    /// experiment that compares something else).
    fn tried(&self) -> Vec<Tried<'_>> {
        Vec::new()
    }
    /// Whether it measured anything: a result to show rather than only
    /// the reasons why nothing ran.
    fn measured_anything(&self) -> bool {
        self.tried().iter().any(|t| t.outcome.summary().is_some())
    }
    /// Its comparison rows, measured on `env`.
    fn rows(&self, env: &Environment) -> Vec<Measured<Self::Measure>>;
    /// Its CSV lines before the environment's columns: every sample of
    /// every way it tried.
    fn samples(&self) -> Vec<Sample<'_>> {
        let mut out = Vec::new();
        for t in self.tried() {
            series(&mut out, t.id, t.requested_ms, t.outcome);
        }
        out
    }
    /// What it lacks without shared memory.
    fn lacks() -> Lacks {
        Lacks::Nothing
    }
}
