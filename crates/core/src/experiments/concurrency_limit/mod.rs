//! Experiment 8: at most N at once. K jobs, each an asynchronous wait of
//! its own seeded length (an I/O call, say), go through a gate that lets
//! at most N run at once: an async semaphore (`SemaphoreSlim.WaitAsync`),
//! which hands a freed slot to the next job at once, or a polling gate
//! (`while (running >= N) await Task.Delay(1)`), which notices a free slot
//! only at its next poll.
//!
//! Each job's span is stamped on one clock. A slot's handoff is the time
//! from a job's end to the start of the job that took its slot: in start
//! order, the job after the first N takes the slot of the job that ended
//! (N places) earlier in end order.

use crate::experiments::Config;
use crate::experiments::config::config;
use crate::field::{self, FieldError};
use crate::key;
use crate::outcome::Outcome;
use crate::strategies::strategies;
use crate::text::Phrase;
use serde::{Deserialize, Serialize};

mod description;
mod findings;
pub mod lessons;
mod link;

strategies! {
    /// How the jobs wait for a slot.
    pub enum Gate in "concurrency_limit.gate." {
        browser {
            /// Main thread: a FIFO semaphore whose release wakes the next waiter
            /// (tokio's `Semaphore`, compiled to wasm).
            AsyncSemaphore = "async_semaphore",
            /// Main thread: a counter checked after each `setTimeout(1)`.
            PollingGate = "polling_gate",
        }
        native {
            /// Native: tokio's `Semaphore` on a current-thread runtime.
            TokioSemaphore = "tokio_semaphore",
            /// Native: a counter checked after each `tokio::time::sleep(1 ms)`.
            TokioPolling = "tokio_polling",
        }
    }
}

impl Gate {
    /// Whether waiting for a slot holds a thread: no gate does (they are
    /// async; the polling one sleeps a timer between checks).
    pub fn holds_thread(self) -> bool {
        false
    }

    /// The .NET code of the article it stands for.
    pub fn analogue(self) -> Phrase {
        Phrase::new(if self.polls() {
            key!("concurrency_limit.analogue.polling")
        } else {
            key!("concurrency_limit.analogue.semaphore")
        })
    }

    /// Whether it notices a free slot only when it next looks.
    pub fn polls(self) -> bool {
        matches!(self, Gate::PollingGate | Gate::TokioPolling)
    }
}

config! {
    /// Configuration of experiment 8.
    pub struct LimitConfig {
        /// Jobs per gate: more than the limit (checked across fields), else
        /// no slot changes hands.
        jobs: u32 = 40,
            quick(12) form("jobs", "jobs", "concurrency_limit.jobs", 2, 400) link(400);
        /// At most this many at once.
        limit: u32 = 4, form("limit", "limit", "concurrency_limit.limit", 1, 64) link(64);
        /// A job's typical wait, ms: each waits a seeded time between half
        /// and one and a half of it. A poll of 1 ms must be short beside it.
        job_ms: u32 = 20,
            form("job-ms", "wait", "concurrency_limit.job_ms", 5, 1000) link(1000);
        /// Seed of the jobs' waits (the same for every gate).
        seed: u64 = 0x5E3A_F0E5;
    }
    // More jobs than the limit, and each gate's batch within the longest
    // batch the page runs.
    check: |c| {
        if c.jobs <= c.limit {
            return Err(FieldError::OutOfRange { field: "jobs", min: c.limit + 1, max: 400, got: c.jobs });
        }
        field::check_blocking_ms(c.ideal_batch_ms() * 1.5 * Gate::BROWSER.len() as f64)
    },
    // Each gate's batch and a polling gate's late handoffs.
    estimate: |c| Gate::BROWSER.len() as f64 * c.ideal_batch_ms() * 1.2 + 100.0,
    hint: |c| field::about_seconds(c.estimated_ms()),
}

impl LimitConfig {
    /// Each job's wait, ms (whole, as a browser's timer takes it): the same
    /// for every gate.
    pub fn jobs_ms(&self) -> Vec<u32> {
        crate::experiments::seeded::sequence(
            self.seed,
            self.jobs,
            self.job_ms / 2..=self.job_ms / 2 * 3,
        )
    }

    /// The batch if slots changed hands at once, ms: the jobs' waits spread
    /// over `limit` slots in turn (a lower bound, from the mean).
    pub fn ideal_batch_ms(&self) -> f64 {
        let total: f64 = self.jobs_ms().iter().map(|&ms| f64::from(ms)).sum();
        (total / f64::from(self.limit)).max(f64::from(self.job_ms) / 2.0)
    }
}

/// One job's life, ms since the batch began.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Span {
    /// When it got its slot.
    pub start_ms: f64,
    /// When it gave the slot back.
    pub end_ms: f64,
}

/// One gate's batch: its jobs' spans in job order and its slots'
/// handoffs, or why there are none.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LimitRun {
    /// The gate.
    pub gate: Gate,
    /// Each job's span; empty when the batch failed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spans: Vec<Span>,
    /// The slots' handoffs, ms ([`handoffs_ms`]), or why there are none.
    pub outcome: Outcome,
}

impl LimitRun {
    /// A batch that ran: its spans, and the handoffs they show.
    pub fn measured(gate: Gate, spans: Vec<Span>, limit: u32) -> LimitRun {
        let outcome = Outcome::of_samples(handoffs_ms(&spans, limit));
        LimitRun {
            gate,
            spans,
            outcome,
        }
    }

    /// A batch that could not run.
    pub fn failed(gate: Gate, message: String) -> LimitRun {
        LimitRun {
            gate,
            spans: Vec::new(),
            outcome: Outcome::Failed { message },
        }
    }

    /// When the last job ended, ms.
    pub fn batch_ms(&self) -> f64 {
        self.spans.iter().map(|s| s.end_ms).fold(0.0, f64::max)
    }

    /// How many jobs ran at once over the batch: `(time, running)` at
    /// every start and end, in time order (an end before a start at the
    /// same instant).
    pub fn concurrency(&self) -> Vec<(f64, u32)> {
        let mut events: Vec<(f64, i32)> = self
            .spans
            .iter()
            .flat_map(|s| [(s.start_ms, 1), (s.end_ms, -1)])
            .collect();
        events.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut running = 0i32;
        events
            .into_iter()
            .map(|(t, d)| {
                running += d;
                (t, running.max(0) as u32)
            })
            .collect()
    }

    /// The most jobs that ran at once.
    pub fn peak(&self) -> u32 {
        self.concurrency()
            .iter()
            .map(|&(_, n)| n)
            .max()
            .unwrap_or(0)
    }
}

/// Each slot's handoff, ms: in start order, the job after the first
/// `limit` started this long after the job that ended `limit` places
/// earlier in end order (the slot it took). Never below zero.
pub fn handoffs_ms(spans: &[Span], limit: u32) -> Vec<f64> {
    let mut starts: Vec<f64> = spans.iter().map(|s| s.start_ms).collect();
    let mut ends: Vec<f64> = spans.iter().map(|s| s.end_ms).collect();
    starts.sort_by(f64::total_cmp);
    ends.sort_by(f64::total_cmp);
    starts
        .iter()
        .skip(limit as usize)
        .zip(&ends)
        .map(|(start, freed)| (start - freed).max(0.0))
        .collect()
}

/// Results of experiment 8.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConcurrencyLimit {
    /// The configuration that was run.
    pub config: LimitConfig,
    /// One batch per gate.
    pub runs: Vec<LimitRun>,
}

#[cfg(test)]
mod tests;
