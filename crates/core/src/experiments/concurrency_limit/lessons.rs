//! Experiment 8's lesson: limit concurrency with a semaphore, not a
//! polled counter.

use super::ConcurrencyLimit;
use crate::lesson::{Article, Pair, Reading, Taught};

/// Limit concurrency with a semaphore, not a polled counter.
pub const LIMIT_WITH_SEMAPHORE: &str = "limit_with_semaphore";

pub(super) const LESSONS: &[Taught] = &[Taught {
    id: LIMIT_WITH_SEMAPHORE,
    article: Article::Nothing,
}];

/// The polling gate's handoff median against the semaphore's.
pub(super) fn reading(limit: &ConcurrencyLimit, lesson: &str) -> Option<Reading> {
    if lesson != LIMIT_WITH_SEMAPHORE {
        return None;
    }
    let p50 = |polls: bool| {
        limit
            .runs
            .iter()
            .find(|r| r.gate.polls() == polls)
            .and_then(|r| r.outcome.p50())
    };
    Some(Reading::Pair(Pair::ms(p50(true)?, p50(false)?)))
}
