//! Experiment 2b's lesson: Thread.Sleep holds its thread; await
//! Task.Delay frees it.

use super::PoolStarvation;
use crate::experiments::JobMode;
use crate::lesson::{Article, Pair, Reading, Taught};

/// Await a timer (Task.Delay); don't hold a thread asleep (Thread.Sleep).
pub const SLEEP_VS_DELAY: &str = "sleep_vs_delay";

pub(super) const LESSONS: &[Taught] = &[Taught {
    id: SLEEP_VS_DELAY,
    article: Article::Pair("pool_sleep_batch", "pool_delay_batch"),
}];

/// The batch's time with blocking jobs against awaiting ones.
pub(super) fn reading(pool: &PoolStarvation, lesson: &str) -> Option<Reading> {
    if lesson != SLEEP_VS_DELAY {
        return None;
    }
    let batch = |mode| {
        pool.runs
            .iter()
            .find(|r| r.mode == mode)
            .map(|r| r.batch_ms)
    };
    Some(Reading::Pair(Pair::ms(
        batch(JobMode::Blocking)?,
        batch(JobMode::Async)?,
    )))
}
