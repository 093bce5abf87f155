//! A lesson of the article as the experiment that teaches it declares it
//! (its [`Lessons`], in its folder's `lessons.rs`): its id,
//! what the article states of it, and what a run measured of it (a
//! [`Reading`]) with the rules that read a verdict from that. A leaf: the
//! summary (`crate::summary`) gathers the lessons of every experiment.

mod figures;
mod verdict;

use crate::clock::ClockInfo;

pub use figures::{Minimum, Pair, Reading};
pub use verdict::{HOLDS_RATIO, Verdict};

/// The article's lessons an experiment measures, and what a run of it
/// measured of each: written for each experiment by `lessons!` in its
/// folder's `lessons.rs` (the summary has a line for each lesson of every
/// experiment).
pub trait Lessons {
    /// Its lessons, in order.
    const LESSONS: &'static [Taught];
    /// What it measured of each of its lessons, in order, read with
    /// `clock` (none for one it did not measure both ways of).
    fn readings(&self, clock: Option<ClockInfo>) -> Vec<Option<Reading>>;
}

/// Declares an experiment's lessons in its folder's `lessons.rs`: for each,
/// its id's constant and value, what the article states of it, and the
/// function that reads it from a result (`fn(&Result, Option<ClockInfo>)
/// -> Option<Reading>`); writes the constants and the [`Lessons`] impl.
macro_rules! lessons {
    ($result:ty {
        $( $(#[$doc:meta])* $name:ident = $id:literal, $article:expr => $read:path; )+
    }) => {
        $( $(#[$doc])* pub const $name: &str = $id; )+

        impl $crate::lesson::Lessons for $result {
            const LESSONS: &'static [$crate::lesson::Taught] =
                &[$($crate::lesson::Taught::new($name, $article)),+];

            fn readings(
                &self,
                clock: Option<$crate::clock::ClockInfo>,
            ) -> Vec<Option<$crate::lesson::Reading>> {
                vec![$($read(self, clock)),+]
            }
        }
    };
}

pub(crate) use lessons;

/// A lesson an experiment teaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Taught {
    /// Its stable name (catalog keys `summary.lesson.ID` and
    /// `summary.pair.ID`, test ids, the recipes' files).
    pub id: &'static str,
    /// What the article states of it, by the ids of its stated figures.
    pub article: Article,
}

impl Taught {
    /// The lesson `id`, of which the article states `article`.
    pub const fn new(id: &'static str, article: Article) -> Taught {
        Taught { id, article }
    }
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
