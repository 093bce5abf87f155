//! Experiment 2a: what blocking does to the page's main thread.
//!
//! The page's main thread is one "thread pool" of size one: N jobs that
//! each wait T ms either block it (busy-wait, the Thread.Sleep-on-a-pool-
//! thread analogue) or await a timer (Task.Delay). This module holds the
//! configuration, the measured shape, and the expected shape the article
//! predicts; how jobs wait (`JobMode`) is shared with experiment 2b, in
//! `experiments::job_mode`.

use crate::experiments::config::config;
use crate::field::{self};
use crate::key;
use crate::stats::Samples;
use crate::text::Phrase;
use serde::{Deserialize, Serialize};

mod description;
mod findings;
pub mod lessons;
mod link;

use crate::experiments::JobMode;

config! {
    /// Configuration of experiment 2a (main thread).
    pub struct MainConfig {
        /// Jobs in the batch.
        jobs: u32 = 8, quick(4) form("jobs", "jobs", "main_starvation.jobs", 1, 64) link(10_000);
        /// How long each job waits, ms.
        wait_ms: u32 = 150,
            quick(50) form("wait", "wait", "main_starvation.each_waits", 1, 2000) link(100_000);
    }
    check: |c| field::check_blocking_ms(c.expected_batch_ms(JobMode::Blocking)),
    estimate: |c| JobMode::ALL.iter().map(|&m| c.expected_batch_ms(m)).sum(),
    hint: |c| {
        Phrase::new(key!("main_starvation.hint"))
            .ms("seconds", c.expected_batch_ms(JobMode::Blocking) / 1000.0)
    },
}

impl MainConfig {
    /// The batch time the article predicts: blocking jobs run one after the
    /// other on the one thread; async jobs wait side by side.
    pub fn expected_batch_ms(&self, mode: JobMode) -> f64 {
        match mode {
            JobMode::Blocking => f64::from(self.jobs) * f64::from(self.wait_ms),
            JobMode::Async => f64::from(self.wait_ms),
        }
    }
}

/// One mode's measurements on the main thread. Times are ms since the batch
/// was queued.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MainRun {
    /// How the jobs waited.
    pub mode: JobMode,
    /// When the last job finished.
    pub batch_ms: f64,
    /// How long a `setTimeout(0)` queued right after the batch waited to run.
    pub timer_queue_wait_ms: f64,
    /// How long a `MessageChannel` message posted right after the batch
    /// waited to be delivered.
    pub message_queue_wait_ms: f64,
    /// Timestamps of the animation frames seen from the batch start to a
    /// little after its end.
    pub frames_ms: Vec<f64>,
}

impl MainRun {
    /// `(time, gap)` for each frame: the gap is the time since the
    /// previous frame, or since the batch was queued for the first one.
    pub fn frame_gaps(&self) -> Vec<(f64, f64)> {
        std::iter::once(0.0)
            .chain(self.frames_ms.iter().copied())
            .collect::<Vec<_>>()
            .windows(2)
            .map(|w| (w[1], w[1] - w[0]))
            .collect()
    }

    /// The longest time the page went without a frame; the whole batch if
    /// no frame came at all.
    pub fn longest_frame_gap(&self) -> f64 {
        self.frame_gaps()
            .into_iter()
            .map(|(_, g)| g)
            .reduce(f64::max)
            .unwrap_or(self.batch_ms)
    }

    /// The median gap between frames; the whole batch if no frame came.
    pub fn median_frame_gap(&self) -> f64 {
        Samples::new(self.frame_gaps().into_iter().map(|(_, g)| g).collect())
            .map_or(self.batch_ms, |g| g.quantile(0.5))
    }

    /// How many gaps between frames were long: over [`LONG_GAP_MS`].
    pub fn long_frame_gaps(&self) -> usize {
        self.frame_gaps()
            .iter()
            .filter(|(_, g)| *g > LONG_GAP_MS)
            .count()
    }
}

/// A gap between frames that a reader notices, ms: the threshold of a
/// long task in the browsers' performance APIs.
pub const LONG_GAP_MS: f64 = 50.0;

/// Results of experiment 2a.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MainStarvation {
    /// The configuration that was run.
    pub config: MainConfig,
    /// One run per mode, blocking first.
    pub runs: Vec<MainRun>,
}

#[cfg(test)]
mod tests;
