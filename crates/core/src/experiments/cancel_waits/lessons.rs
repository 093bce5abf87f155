//! Experiment 6's lesson: cancel through the wait, not after it.

use super::CancelWaits;
use crate::lesson::{Article, Pair, Reading, Taught, least};

/// Cancel through the wait, not after it.
pub const CANCEL_THROUGH_WAIT: &str = "cancel_through_wait";

pub(super) const LESSONS: &[Taught] = &[Taught {
    id: CANCEL_THROUGH_WAIT,
    article: Article::Nothing,
}];

/// A blind sleep's median against the quickest wait a cancel wakes.
pub(super) fn reading(cancel: &CancelWaits, lesson: &str) -> Option<Reading> {
    if lesson != CANCEL_THROUGH_WAIT {
        return None;
    }
    let woken = least(
        cancel
            .results
            .iter()
            .filter_map(|r| r.strategy.wakes_on_cancel().then(|| r.outcome.p50())?),
    )?;
    Some(Reading::Pair(Pair::ms(cancel.blind_p50()?, woken)))
}
