//! Experiment 2b: what blocking does to a pool of workers.
//!
//! A pool of K workers runs N jobs that wait by `Atomics.wait` (blocking
//! their worker) or by an async timer (a worker's event loop holds any
//! number of pending timers). This module holds the configuration, the
//! measured shape, and the expected shape the article predicts.

use crate::experiments::JobMode;
use crate::experiments::config::config;
use crate::field::{self};
use crate::key;
use crate::text::Phrase;
use serde::{Deserialize, Serialize};

mod description;
mod findings;
pub mod job;
pub mod lessons;
mod link;

config! {
    /// Configuration of experiment 2b (worker pool).
    pub struct PoolConfig {
        /// Workers in the pool.
        workers: u32 = 4, form("workers", "workers", "pool_starvation.workers", 1, 16) link(64);
        /// Jobs in the batch.
        jobs: u32 = 24, form("jobs", "jobs", "main_starvation.jobs", 1, 400) link(10_000);
        /// How long each job waits, ms.
        wait_ms: u32 = 150,
            quick(50) form("wait", "wait", "main_starvation.each_waits", 1, 2000) link(100_000);
    }
    // At most four workers, so the blocking batch shows the queueing in
    // seconds.
    for_cores: |cores| PoolConfig { workers: cores.clamp(1, 4), ..PoolConfig::default() },
    check: |c| field::check_blocking_ms(c.expected_batch_ms(JobMode::Blocking)),
    estimate: |c| JobMode::ALL.iter().map(|&m| c.expected_batch_ms(m)).sum(),
    hint: |c| {
        Phrase::new(key!("pool_starvation.hint"))
            .ms("blocking", c.expected_batch_ms(JobMode::Blocking) / 1000.0)
            .ms("async", c.expected_batch_ms(JobMode::Async) / 1000.0)
    },
}

impl PoolConfig {
    /// The batch time the article predicts: `ceil(N / K) · T` when each job
    /// holds a worker, `T` when none does.
    pub fn expected_batch_ms(&self, mode: JobMode) -> f64 {
        match mode {
            JobMode::Blocking => {
                f64::from(self.jobs.div_ceil(self.workers)) * f64::from(self.wait_ms)
            }
            JobMode::Async => f64::from(self.wait_ms),
        }
    }

    /// Which worker gets job `job`: round robin, as a pool's queue would
    /// hand them out when every worker is equally busy.
    pub fn worker_for(&self, job: u32) -> u32 {
        job % self.workers
    }
}

/// One job's life in a worker, ms since the batch was queued.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct JobSpan {
    /// The worker that ran it.
    pub worker: u32,
    /// The job (the extra job is number `jobs`).
    pub job: u32,
    /// When it started.
    pub start_ms: f64,
    /// When it finished.
    pub end_ms: f64,
}

/// One mode's measurements in the pool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PoolRun {
    /// How the jobs waited.
    pub mode: JobMode,
    /// When the last job of the batch finished.
    pub batch_ms: f64,
    /// How long the extra job, queued after the batch, waited to start.
    pub extra_job_wait_ms: f64,
    /// Every job's span, the extra job included.
    pub spans: Vec<JobSpan>,
}

/// Results of experiment 2b.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PoolStarvation {
    /// The configuration that was run.
    pub config: PoolConfig,
    /// One run per mode, blocking first.
    pub runs: Vec<PoolRun>,
    /// Whether blocking jobs slept in `Atomics.wait` (shared memory) or,
    /// without it, busy-waited.
    pub blocking_sleeps: bool,
}

#[cfg(test)]
mod tests;
