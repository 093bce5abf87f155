//! What an experiment's results give a reader's own way of waiting timed
//! beside them ([`Beside`]), and a report with the ways timed here put in
//! ([`attach`]).

use super::{LinkedRuns, OwnWays, Timed};
use std::sync::Arc;
use waitlab_core::clock::ClockInfo;
use waitlab_core::experiments::own_way::OwnWay;
use waitlab_core::own_wait::{Kind, Told};
use waitlab_core::sampling::Sampling;
use waitlab_core::schema::Report;
use waitlab_core::stats::Summary;
use waitlab_core::text::Phrase;

/// An experiment's results a reader's own way is timed beside.
pub trait Beside: Clone + Send + Sync + 'static {
    /// Its built-in ways of waiting.
    type Way: Copy + PartialEq + Send + Sync + std::fmt::Debug + 'static;
    /// What the reader's code is.
    const KIND: Kind;
    /// Its results in `report`, if it has them.
    fn of(report: &mut Report) -> Option<&mut Self>;
    /// The page's own ways for it.
    fn ways_of(runs: &LinkedRuns) -> OwnWays<Self::Way>;
    /// Its built-in ways with times, each with its summary.
    fn timed_ways(&self) -> Vec<(Self::Way, Summary)>;
    /// The way a reader's is compared with unless they pick another.
    fn default_way(&self) -> Option<Self::Way>;
    /// A way's id (a picker's value) and its name.
    fn name(way: Self::Way) -> (String, Phrase);
    /// What the code is asked for, ms, beside `way`: the wait, or the
    /// setter's largest delay.
    fn ms(&self, way: Self::Way) -> f64;
    /// How many calls at most, sampled how.
    fn sampling(&self) -> (u32, Sampling);
    /// The way these results carry (a shared run's).
    fn own(&self) -> Option<&Arc<OwnWay<Self::Way>>>;
    /// Puts `way` in these results.
    fn set_own(&mut self, way: Arc<OwnWay<Self::Way>>);
    /// What `own` says beside these results, read with `clock`: of the
    /// reader's code, or of a `shared` run's.
    fn tell(&self, clock: Option<ClockInfo>, own: &OwnWay<Self::Way>, shared: bool)
    -> Option<Told>;
}

/// `report` with `timed` beside its results of `R`, if that is this
/// browser's run the way was judged against.
pub fn attach<R: Beside>(mut report: Report, timed: Timed<R::Way>) -> Report {
    let from_link = report.from_link;
    if let (Some(results), Some((against, way))) = (R::of(&mut report), timed)
        && !from_link
        && results
            .timed_ways()
            .iter()
            .any(|(k, s)| *k == way.against && *s == against)
    {
        results.set_own(way);
    }
    report
}
