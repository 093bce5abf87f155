//! Experiment 6's lesson: cancel through the wait, not after it.

use super::CancelWaits;
use crate::clock::ClockInfo;
use crate::lesson::{Article, Pair, Reading, least, lessons};

lessons! {
    CancelWaits {
        /// Cancel through the wait, not after it.
        CANCEL_THROUGH_WAIT = "cancel_through_wait", Article::Nothing => cancel_through_wait;
    }
}

/// A blind sleep's median against the quickest wait a cancel wakes.
fn cancel_through_wait(cancel: &CancelWaits, _clock: Option<ClockInfo>) -> Option<Reading> {
    let woken = least(
        cancel
            .results
            .iter()
            .filter_map(|r| r.strategy.wakes_on_cancel().then(|| r.outcome.p50())?),
    )?;
    Some(Reading::Pair(Pair::ms(cancel.blind_p50()?, woken)))
}
