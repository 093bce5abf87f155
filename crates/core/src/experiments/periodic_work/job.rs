//! Experiment 7's worker job: a loop of ticks scheduled in a worker,
//! answered with `Done` and each tick's lateness as samples.

use super::Scheduler;
use crate::protocol::job::{Job, message};

/// `work_us.len()` ticks every `interval_ms`, each busy for its work,
/// scheduled by `scheduler` (a worker's).
#[derive(Debug, Clone, PartialEq)]
pub struct WorkerLoop {
    /// How the ticks are scheduled.
    pub scheduler: Scheduler,
    /// The interval, ms.
    pub interval_ms: u32,
    /// Each tick's work, µs.
    pub work_us: Vec<u32>,
}

message! {
    struct WorkerLoop { scheduler, interval_ms, work_us }
}

impl Job for WorkerLoop {
    const OF: &'static str = "periodic_work";

    /// The loop says nothing until its last tick; every tick is due an
    /// interval after the last, or at once after longer work.
    fn longest_silence_ms(&self) -> u32 {
        self.work_us.iter().fold(0u32, |total, &w| {
            total
                .saturating_add(self.interval_ms)
                .saturating_add(w.div_ceil(1000))
        })
    }
}
