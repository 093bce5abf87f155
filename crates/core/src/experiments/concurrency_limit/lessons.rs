//! Experiment 8's lesson: limit concurrency with a semaphore, not a
//! polled counter.

use super::ConcurrencyLimit;
use crate::clock::ClockInfo;
use crate::lesson::{Article, Pair, Reading, lessons};

lessons! {
    ConcurrencyLimit {
        /// Limit concurrency with a semaphore, not a polled counter.
        LIMIT_WITH_SEMAPHORE = "limit_with_semaphore", Article::Nothing => limit_with_semaphore;
    }
}

/// The polling gate's handoff median against the semaphore's.
fn limit_with_semaphore(limit: &ConcurrencyLimit, _clock: Option<ClockInfo>) -> Option<Reading> {
    let p50 = |polls: bool| {
        limit
            .runs
            .iter()
            .find(|r| r.gate.polls() == polls)
            .and_then(|r| r.outcome.p50())
    };
    Some(Reading::Pair(Pair::ms(p50(true)?, p50(false)?)))
}
