//! Experiment 7's lesson: a periodic timer does not drift; a delay loop
//! does.

use super::PeriodicWork;
use crate::clock::ClockInfo;
use crate::lesson::{Article, Pair, Reading, least, lessons};

lessons! {
    PeriodicWork {
        /// A periodic timer does not drift; a delay loop does.
        PERIODIC_NO_DRIFT = "periodic_no_drift", Article::Nothing => periodic_no_drift;
    }
}

/// The least drift of a loop that waits after its work against that of
/// one kept by its schedule.
fn periodic_no_drift(periodic: &PeriodicWork, _clock: Option<ClockInfo>) -> Option<Reading> {
    let drift = |after_work: bool| {
        least(periodic.results.iter().filter_map(|r| {
            (r.scheduler.waits_after_work() == after_work).then(|| r.drift_ms().map(f64::abs))?
        }))
    };
    Some(Reading::Pair(Pair::ms(drift(true)?, drift(false)?)))
}
