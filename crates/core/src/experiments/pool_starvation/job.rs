//! Experiment 2b's worker job: one job of the pool, waiting blocked or
//! not, answered with its span.

use crate::experiments::JobMode;
use crate::protocol::job::{Job, message};

/// Wait `wait_ms`, blocking the worker or not, then say when it ran.
#[derive(Debug, Clone, PartialEq)]
pub struct PoolJob {
    /// Echoed in the reply.
    pub job: u32,
    /// How to wait.
    pub mode: JobMode,
    /// How long, ms.
    pub wait_ms: u32,
}

message! {
    struct PoolJob { job, mode, wait_ms }
}

impl Job for PoolJob {
    const OF: &'static str = "pool_starvation";

    fn longest_silence_ms(&self) -> u32 {
        self.wait_ms
    }
}

/// A pool job finished. Times are `timeOrigin + now()` of the worker, ms
/// since the Unix epoch.
#[derive(Debug, Clone, PartialEq)]
pub struct JobDone {
    /// The job.
    pub job: u32,
    /// When it started.
    pub start_ms: f64,
    /// When it finished.
    pub end_ms: f64,
}

message! {
    struct JobDone { job, start_ms, end_ms }
}
