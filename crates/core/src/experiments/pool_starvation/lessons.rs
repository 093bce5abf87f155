//! Experiment 2b's lesson: Thread.Sleep holds its thread; await
//! Task.Delay frees it.

use super::PoolStarvation;
use crate::clock::ClockInfo;
use crate::experiments::JobMode;
use crate::lesson::{Article, Pair, Reading, lessons};

lessons! {
    PoolStarvation {
        /// Await a timer (Task.Delay); don't hold a thread asleep (Thread.Sleep).
        SLEEP_VS_DELAY = "sleep_vs_delay", Article::Pair("pool_sleep_batch", "pool_delay_batch") => sleep_vs_delay;
    }
}

/// The batch's time with blocking jobs against awaiting ones.
fn sleep_vs_delay(pool: &PoolStarvation, _clock: Option<ClockInfo>) -> Option<Reading> {
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
