//! Experiment 7: periodic work. A loop does work of varying length every
//! interval; does its schedule drift with the work? A loop that waits the
//! interval after its work (`await Task.Delay(interval)`, a chained
//! `setTimeout`, `std::thread::sleep`) falls behind by the work of every
//! tick; a timer that keeps its own schedule (`PeriodicTimer`, tokio's
//! `interval`, a `setTimeout` aimed at the next tick's time) does not.
//!
//! Each tick's lateness is the time it began minus its time on the ideal
//! schedule: the `i`-th tick is due `i` intervals after the loop started.
//! The work of each tick is seeded, the same for every scheduler.

use crate::experiments::Config;
use crate::experiments::config::config;
use crate::field::{self};
use crate::key;
use crate::outcome::Outcome;
use crate::strategies::strategies;
use crate::text::Phrase;
use serde::{Deserialize, Serialize};

mod description;
mod findings;
pub mod job;
pub mod lessons;
mod link;

strategies! {
    /// How the next tick is scheduled, and where the loop runs.
    pub enum Scheduler in "periodic_work.scheduler." {
        browser {
            /// Main thread: `setTimeout(interval)` set after each tick's work.
            MainChained = "main_chained",
            /// Main thread: one `setInterval(interval)`.
            MainInterval = "main_interval",
            /// Main thread: `setTimeout` aimed at the next tick's time on the
            /// schedule, read from `performance.now()` (at once when late).
            MainCorrected = "main_corrected",
            /// A worker's [`Scheduler::MainChained`].
            WorkerChained = "worker_chained",
            /// A worker's [`Scheduler::MainInterval`].
            WorkerInterval = "worker_interval",
            /// A worker's [`Scheduler::MainCorrected`].
            WorkerCorrected = "worker_corrected",
        }
        native {
            /// Native: `std::thread::sleep(interval)` after the work.
            SleepLoop = "sleep_loop",
            /// Native: tokio's `interval` with `MissedTickBehavior::Burst`.
            TokioBurst = "tokio_burst",
            /// Native: tokio's `interval` with `MissedTickBehavior::Delay`.
            TokioDelay = "tokio_delay",
            /// Native: tokio's `interval` with `MissedTickBehavior::Skip`.
            TokioSkip = "tokio_skip",
        }
    }
}

/// How a browser loop schedules its next tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Schedule {
    /// The interval, counted from the end of the work.
    Chained,
    /// `setInterval`: the browser's own repeat.
    Interval,
    /// The next tick's time on the schedule, counted from the start.
    Corrected,
}

impl Schedule {
    /// What the code looks like, wherever it runs.
    pub fn label(self) -> Phrase {
        Phrase::new(match self {
            Schedule::Chained => key!("periodic_work.schedule.chained"),
            Schedule::Interval => key!("periodic_work.schedule.interval"),
            Schedule::Corrected => key!("periodic_work.schedule.corrected"),
        })
    }
}

impl Scheduler {
    /// Whether waiting for the next tick holds the loop's thread.
    pub fn holds_thread(self) -> bool {
        self == Scheduler::SleepLoop
    }

    /// The main thread's schedulers, in display order.
    pub const MAIN: [Scheduler; 3] = [
        Scheduler::MainChained,
        Scheduler::MainInterval,
        Scheduler::MainCorrected,
    ];

    /// A worker's schedulers, in display order.
    pub const WORKER: [Scheduler; 3] = [
        Scheduler::WorkerChained,
        Scheduler::WorkerInterval,
        Scheduler::WorkerCorrected,
    ];

    /// The .NET code of the article it stands for: a loop around
    /// `Task.Delay`, a `System.Threading.Timer`'s own period, or
    /// `PeriodicTimer`.
    pub fn analogue(self) -> Phrase {
        Phrase::new(match self {
            Scheduler::MainChained | Scheduler::WorkerChained | Scheduler::SleepLoop => {
                key!("periodic_work.analogue.delay_loop")
            }
            Scheduler::MainInterval | Scheduler::WorkerInterval => {
                key!("periodic_work.analogue.timer")
            }
            _ => key!("periodic_work.analogue.periodic_timer"),
        })
    }

    /// How a browser loop of this scheduler sets its timers (`None` for
    /// the native ones).
    pub fn schedule(self) -> Option<Schedule> {
        match self {
            Scheduler::MainChained | Scheduler::WorkerChained => Some(Schedule::Chained),
            Scheduler::MainInterval | Scheduler::WorkerInterval => Some(Schedule::Interval),
            Scheduler::MainCorrected | Scheduler::WorkerCorrected => Some(Schedule::Corrected),
            _ => None,
        }
    }

    /// Whether its loop counts its interval from the end of the work, so
    /// that every tick's work adds to the drift.
    pub fn waits_after_work(self) -> bool {
        matches!(
            self,
            Scheduler::MainChained | Scheduler::WorkerChained | Scheduler::SleepLoop
        )
    }
}

config! {
    /// Configuration of experiment 7.
    pub struct PeriodicConfig {
        /// Ticks per scheduler.
        ticks: u32 = 15,
            quick(10) form("ticks", "ticks", "periodic_work.ticks", 2, Self::MAX_TICKS)
            link(Self::MAX_TICKS);
        /// The interval, ms: above the 4 ms clamp of nested timers and any
        /// clock's step.
        interval_ms: u32 = 20,
            form("interval", "interval", "periodic_work.interval", 5, 200) link(200);
        /// The longest work of a tick, ms: each tick works a seeded time
        /// between none and this.
        work_ms: u32 = 24, form("work", "work", "periodic_work.work", 0, 400) link(400);
        /// Seed of the work times (the same for every scheduler).
        seed: u64 = 0x7E1C_4A11;
    }
    // The main thread works every tick of its three loops, which together
    // must stay within the longest blocking batch.
    check: |c| field::check_blocking_ms(c.loop_ms(true) * Scheduler::MAIN.len() as f64),
    // Three loops on the main thread and three in a worker (and the
    // worker's start).
    estimate: |c| 2.0 * (c.loop_ms(true) + 2.0 * c.loop_ms(false)) + 300.0,
    hint: |c| field::about_seconds(c.estimated_ms()),
}

impl PeriodicConfig {
    /// Largest accepted tick count.
    pub const MAX_TICKS: u32 = 200;

    /// How long one loop takes about, ms: its ticks' work on average and
    /// the interval after it (`after_work`), or the longer of the two.
    fn loop_ms(&self, after_work: bool) -> f64 {
        let (interval, work) = (f64::from(self.interval_ms), f64::from(self.work_ms) / 2.0);
        let tick = if after_work {
            interval + work
        } else {
            interval.max(work)
        };
        f64::from(self.ticks) * tick
    }

    /// Each tick's work, µs: the same for every scheduler.
    pub fn work_us(&self) -> Vec<u32> {
        crate::experiments::seeded::sequence(
            self.seed,
            self.ticks,
            0..=self.work_ms.saturating_mul(1000),
        )
    }
}

/// Each tick's lateness, ms, from the times the ticks began and the time
/// the loop started (one clock): the `i`-th tick (from 1) is due at
/// `start_ms + i * interval_ms`.
pub fn lateness_ms(start_ms: f64, interval_ms: u32, began_ms: &[f64]) -> Vec<f64> {
    let interval = f64::from(interval_ms);
    began_ms
        .iter()
        .zip(1u32..)
        .map(|(&t, i)| t - (start_ms + f64::from(i) * interval))
        .collect()
}

/// One scheduler's outcome: each tick's lateness, ms, in tick order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PeriodicResult {
    /// The scheduler.
    pub scheduler: Scheduler,
    /// Its ticks' lateness, or why there are none.
    pub outcome: Outcome,
}

impl PeriodicResult {
    /// How far behind its schedule the last tick began, ms, where the
    /// ticks' lateness is known in order.
    pub fn drift_ms(&self) -> Option<f64> {
        self.outcome.samples()?.last().copied()
    }

    /// How many ticks began a whole interval or more behind the schedule
    /// (a later tick was already due).
    pub fn late_ticks(&self, interval_ms: u32) -> Option<usize> {
        let late = f64::from(interval_ms);
        Some(
            self.outcome
                .samples()?
                .iter()
                .filter(|&&l| l >= late)
                .count(),
        )
    }
}

/// Results of experiment 7.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PeriodicWork {
    /// The configuration that was run.
    pub config: PeriodicConfig,
    /// One result per scheduler.
    pub results: Vec<PeriodicResult>,
}

#[cfg(test)]
mod tests;
