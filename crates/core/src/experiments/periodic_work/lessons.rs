//! Experiment 7's lesson: a periodic timer does not drift; a delay loop
//! does.

use super::PeriodicWork;
use crate::lesson::{Article, Pair, Reading, Taught, least};

/// A periodic timer does not drift; a delay loop does.
pub const PERIODIC_NO_DRIFT: &str = "periodic_no_drift";

pub(super) const LESSONS: &[Taught] = &[Taught {
    id: PERIODIC_NO_DRIFT,
    article: Article::Nothing,
}];

/// The least drift of a loop that waits after its work against that of
/// one kept by its schedule.
pub(super) fn reading(periodic: &PeriodicWork, lesson: &str) -> Option<Reading> {
    if lesson != PERIODIC_NO_DRIFT {
        return None;
    }
    let drift = |after_work: bool| {
        least(periodic.results.iter().filter_map(|r| {
            (r.scheduler.waits_after_work() == after_work).then(|| r.drift_ms().map(f64::abs))?
        }))
    };
    Some(Reading::Pair(Pair::ms(drift(true)?, drift(false)?)))
}
