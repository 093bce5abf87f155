//! A lesson of the article as the experiment that teaches it declares it
//! (its `Description::LESSONS`, in its folder's `lessons.rs`): its id,
//! what the article states of it, and what a run measured of it (a
//! [`Reading`]) with the rules that read a verdict from that. A leaf: the
//! summary (`crate::summary`) gathers the lessons of every experiment.

mod figures;
mod verdict;

pub use figures::{Minimum, Pair, Reading};
pub use verdict::{HOLDS_RATIO, Verdict};

/// A lesson an experiment teaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Taught {
    /// Its stable name (catalog keys `summary.lesson.ID` and
    /// `summary.pair.ID`, test ids, the recipes' files).
    pub id: &'static str,
    /// What the article states of it, by the ids of its stated figures.
    pub article: Article,
}

/// What the article states of a lesson, by the ids of its stated figures
/// (`StatedFigure::id` in the article's bundled set).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Article {
    /// Nothing.
    Nothing,
    /// Both figures: the wrong way's and the right way's.
    Pair(&'static str, &'static str),
    /// How many times faster the right way was.
    Ratio(&'static str),
    /// A range of overshoots, ms (its low and high).
    Range(&'static str),
    /// A finding without a figure.
    Said(&'static str),
}

/// The least of the figures there are, if any.
pub fn least(figures: impl Iterator<Item = f64>) -> Option<f64> {
    figures.reduce(f64::min)
}
