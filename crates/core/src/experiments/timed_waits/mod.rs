//! Experiment 1, timed waits: which waiting mechanisms exist, what each is the
//! analogue of in the article, and the validated configuration of a run.
//!
//! The mechanisms are plain data so that the page, the worker, the tables and
//! the result schema all name them the same way (by [`Mechanism::id`]).

use crate::experiments::Config;
use crate::key;
use crate::sampling::{MIN_SAMPLES, Sampling};
use crate::text::Key;
use crate::text::Phrase;
use serde::{Deserialize, Serialize};

mod description;
mod error;
mod findings;
pub mod job;
pub mod lessons;
mod link;
mod result;

pub use error::ConfigError;
pub use result::{Cell, NestedChain, TimedWaits};

/// Which thread of the page runs a probe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Thread {
    /// The page's main (UI) thread.
    Main,
    /// A dedicated Web Worker.
    Worker,
    /// An OS thread of the native probe (`waitlab-native`).
    Os,
}

/// One way of waiting, measured by experiment 1 ("timed waits").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mechanism {
    /// `await setTimeout(d)` back to back on the main thread.
    TimeoutAwaited,
    /// A `MessageChannel` hop to a fresh task, then `await setTimeout(d)`.
    TimeoutFreshTask,
    /// `await` of an already-resolved promise (a microtask).
    ResolvedPromise,
    /// A `MessageChannel` message to the page itself and back.
    MessageChannel,
    /// `await scheduler.yield()`.
    SchedulerYield,
    /// `await scheduler.postTask(f)`.
    SchedulerPostTask,
    /// `await` the next `requestAnimationFrame`.
    AnimationFrame,
    /// `Atomics.wait(i32, i, v, d)` in a worker: blocks the worker thread.
    WorkerAtomicsWait,
    /// `await setTimeout(d)` back to back in a worker (clamped like the
    /// main thread's after a few levels).
    WorkerTimeout,
    /// A `MessageChannel` hop to a fresh task, then `await setTimeout(d)`,
    /// in a worker.
    WorkerTimeoutFreshTask,
    /// `await Atomics.waitAsync(i32, i, v, d)` in a worker, raced with a timer.
    WorkerWaitAsync,
    /// Native: `std::thread::sleep(d)`.
    ThreadSleep,
    /// Native: `tokio::time::sleep(d).await` on a multi-thread runtime.
    TokioSleep,
    /// Native: `std::thread::yield_now()`.
    ThreadYield,
    /// Native: `tokio::task::yield_now().await`.
    TokioYield,
}

impl Mechanism {
    /// Its one-byte code on the wire (links, the worker protocol): its
    /// index in [`Mechanism::every`], which only ever grows at its end.
    pub fn code(self) -> u8 {
        Mechanism::every().position(|x| x == self).unwrap_or(0) as u8
    }

    /// The mechanism of a wire code, if there is one.
    pub fn from_code(code: u8) -> Option<Mechanism> {
        Mechanism::every().nth(usize::from(code))
    }

    /// Every mechanism the page measures, in display order.
    pub const BROWSER: [Mechanism; 11] = [
        Mechanism::TimeoutAwaited,
        Mechanism::TimeoutFreshTask,
        Mechanism::ResolvedPromise,
        Mechanism::MessageChannel,
        Mechanism::SchedulerYield,
        Mechanism::SchedulerPostTask,
        Mechanism::AnimationFrame,
        Mechanism::WorkerAtomicsWait,
        Mechanism::WorkerTimeout,
        Mechanism::WorkerTimeoutFreshTask,
        Mechanism::WorkerWaitAsync,
    ];

    /// The mechanisms `keys` name, each once, in the order they first come
    /// (what a run measured, read from its cells).
    pub fn named_by(keys: impl IntoIterator<Item = CellKey>) -> Vec<Mechanism> {
        let mut named = Vec::new();
        for key in keys {
            if !named.contains(&key.mechanism) {
                named.push(key.mechanism);
            }
        }
        named
    }

    /// [`Mechanism::BROWSER`], as a list (a configuration's default).
    pub fn every_browser() -> Vec<Mechanism> {
        Mechanism::BROWSER.to_vec()
    }

    /// What the page has measured since share links began to be made, in
    /// the order links code them after those of [`Mechanism::browser_v1`].
    pub const ADDED_SINCE_V1: [Mechanism; 1] = [Mechanism::WorkerTimeoutFreshTask];

    /// What the page measured before [`Mechanism::ADDED_SINCE_V1`] came,
    /// in display order: the cells of share links made then.
    pub fn browser_v1() -> Vec<Mechanism> {
        Mechanism::BROWSER
            .into_iter()
            .filter(|m| !Mechanism::ADDED_SINCE_V1.contains(m))
            .collect()
    }

    /// Every mechanism, in the order share links code them (a mechanism's
    /// code is its position here): the page's first ones, the native
    /// probe's, then those added since, so old links keep their meaning.
    pub fn every() -> impl Iterator<Item = Mechanism> {
        Mechanism::browser_v1()
            .into_iter()
            .chain(Mechanism::NATIVE)
            .chain(Mechanism::ADDED_SINCE_V1)
    }

    /// Every mechanism the native probe measures, in display order.
    pub const NATIVE: [Mechanism; 4] = [
        Mechanism::ThreadSleep,
        Mechanism::TokioSleep,
        Mechanism::ThreadYield,
        Mechanism::TokioYield,
    ];

    /// Stable identifier used in the schema and in `data-testid`s.
    pub fn id(self) -> &'static str {
        match self {
            Mechanism::TimeoutAwaited => "timeout_awaited",
            Mechanism::TimeoutFreshTask => "timeout_fresh_task",
            Mechanism::ResolvedPromise => "resolved_promise",
            Mechanism::MessageChannel => "message_channel",
            Mechanism::SchedulerYield => "scheduler_yield",
            Mechanism::SchedulerPostTask => "scheduler_post_task",
            Mechanism::AnimationFrame => "animation_frame",
            Mechanism::WorkerAtomicsWait => "worker_atomics_wait",
            Mechanism::WorkerTimeout => "worker_timeout",
            Mechanism::WorkerTimeoutFreshTask => "worker_timeout_fresh_task",
            Mechanism::WorkerWaitAsync => "worker_wait_async",
            Mechanism::ThreadSleep => "thread_sleep",
            Mechanism::TokioSleep => "tokio_sleep",
            Mechanism::ThreadYield => "thread_yield",
            Mechanism::TokioYield => "tokio_yield",
        }
    }

    /// What the code looks like, with `d` for the requested wait.
    pub fn label(self) -> Phrase {
        Phrase::new(Key::of(&format!("timed_waits.mechanism.{}", self.id()))).code("d", "d")
    }

    /// The key of the .NET construct of the article this stands in for.
    fn analogue_key(self) -> Key {
        match self {
            Mechanism::TimeoutAwaited
            | Mechanism::TimeoutFreshTask
            | Mechanism::WorkerTimeout
            | Mechanism::WorkerTimeoutFreshTask
            | Mechanism::TokioSleep => key!("timed_waits.analogue.delay"),
            Mechanism::ResolvedPromise => key!("timed_waits.analogue.delay_zero"),
            Mechanism::MessageChannel
            | Mechanism::SchedulerYield
            | Mechanism::SchedulerPostTask
            | Mechanism::TokioYield => key!("timed_waits.analogue.task_yield"),
            Mechanism::ThreadYield => key!("timed_waits.analogue.thread_yield"),
            Mechanism::AnimationFrame => key!("timed_waits.analogue.next_frame"),
            Mechanism::WorkerAtomicsWait | Mechanism::ThreadSleep => {
                key!("timed_waits.analogue.sleep")
            }
            Mechanism::WorkerWaitAsync => key!("timed_waits.analogue.tcs_timeout"),
        }
    }

    /// The thread the probe runs on.
    pub fn thread(self) -> Thread {
        match self {
            Mechanism::WorkerAtomicsWait
            | Mechanism::WorkerTimeout
            | Mechanism::WorkerTimeoutFreshTask
            | Mechanism::WorkerWaitAsync => Thread::Worker,
            Mechanism::ThreadSleep
            | Mechanism::TokioSleep
            | Mechanism::ThreadYield
            | Mechanism::TokioYield => Thread::Os,
            _ => Thread::Main,
        }
    }

    /// Whether the probe waits for a requested duration (otherwise it is a
    /// pure yield, measured once per run rather than once per duration).
    pub fn is_timed(self) -> bool {
        matches!(
            self,
            Mechanism::TimeoutAwaited
                | Mechanism::TimeoutFreshTask
                | Mechanism::WorkerAtomicsWait
                | Mechanism::WorkerTimeout
                | Mechanism::WorkerTimeoutFreshTask
                | Mechanism::WorkerWaitAsync
                | Mechanism::ThreadSleep
                | Mechanism::TokioSleep
        )
    }

    /// Whether the probe needs a `SharedArrayBuffer`, i.e. a cross-origin
    /// isolated page.
    pub fn needs_shared_memory(self) -> bool {
        matches!(
            self,
            Mechanism::WorkerAtomicsWait | Mechanism::WorkerWaitAsync
        )
    }
}

/// One measured series: a mechanism, and the requested wait if it is timed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CellKey {
    /// The mechanism.
    pub mechanism: Mechanism,
    /// Requested wait in ms (`None` for pure yields).
    pub requested_ms: Option<u32>,
}

impl CellKey {
    /// The mechanism's label with the requested wait filled in, such as
    /// "Atomics.wait(10) in a worker".
    pub fn label(&self) -> Phrase {
        self.fill_in(Phrase::new(Key::of(&format!(
            "timed_waits.mechanism.{}",
            self.mechanism.id()
        ))))
    }

    /// The .NET analogue with the requested wait filled in, such as
    /// "Thread.Sleep(10)".
    pub fn analogue(&self) -> Phrase {
        self.fill_in(Phrase::new(self.mechanism.analogue_key()))
    }

    fn fill_in(&self, p: Phrase) -> Phrase {
        match self.requested_ms {
            Some(d) => p.digits("d", d),
            None => p.code("d", "d"),
        }
    }

    /// A stable identifier such as `worker_atomics_wait-10` for
    /// `data-testid`s.
    pub fn id(&self) -> String {
        match self.requested_ms {
            Some(d) => format!("{}-{d}", self.mechanism.id()),
            None => self.mechanism.id().to_owned(),
        }
    }
}

/// Validated configuration of experiment 1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimedWaitsConfig {
    /// Requested waits, ms, ascending and distinct.
    pub durations_ms: Vec<u32>,
    /// Samples per cell: exactly these, or at most these when sampling
    /// stops once a cell's median is known.
    pub samples: u32,
    /// How many samples each cell takes. Reports from before adaptive
    /// sampling took a fixed count.
    #[serde(
        default = "Sampling::fixed",
        skip_serializing_if = "Sampling::is_fixed"
    )]
    pub sampling: Sampling,
    /// Depth of the nested `setTimeout(0)` chain.
    pub chain_depth: u32,
    /// How many chains are run (each level's statistics come from these).
    pub chain_runs: u32,
    /// The mechanisms a run measures: every one of the page's
    /// ([`Mechanism::BROWSER`]) unless the reader picked some (kept in
    /// display order), or the native probe's ([`Mechanism::NATIVE`]). A
    /// report does not write them: its cells say what was measured, and a
    /// report read back (from JSON or a link) takes them from its cells,
    /// in the order they come.
    #[serde(skip, default = "Mechanism::every_browser")]
    pub mechanisms: Vec<Mechanism>,
}

impl Default for TimedWaitsConfig {
    fn default() -> Self {
        Self {
            durations_ms: vec![0, 1, 10, 15],
            samples: 200,
            sampling: Sampling::Adaptive,
            chain_depth: 12,
            chain_runs: 20,
            mechanisms: Mechanism::every_browser(),
        }
    }
}

/// About how long one sample of a cell of `key` takes, ms: timers awaited
/// back to back count as clamped to 4 ms, an animation frame as 1/60 s,
/// and each wait gets half a millisecond of overhead, or a tenth for one
/// that waits for nothing (a yield, a 0 ms timer from a fresh task: some
/// 0.03 ms a sample in Chromium, so 100,000 of them are estimated at
/// 10 s, not 50).
fn sample_ms(key: CellKey) -> f64 {
    let d = f64::from(key.requested_ms.unwrap_or(0));
    let wait = match key.mechanism {
        Mechanism::TimeoutAwaited | Mechanism::WorkerTimeout => d.max(4.0),
        Mechanism::AnimationFrame => 1000.0 / 60.0,
        _ => d,
    };
    wait + if wait > 0.0 { 0.5 } else { 0.1 }
}

impl TimedWaitsConfig {
    /// Largest accepted duration, ms.
    pub const MAX_DURATION_MS: u32 = 1000;
    /// Most durations in one run.
    pub const MAX_DURATIONS: usize = 8;
    /// Largest accepted sample count per cell: a series this long (of a
    /// fast mechanism, picked alone) still draws at once.
    pub const MAX_SAMPLES: u32 = 100_000;
    /// Most samples one run takes in all (cells × samples per cell), so
    /// that a result link of any run stays within what a link may expand
    /// to ([`crate::link::MAX_TOTAL_SAMPLES`]) beside the other experiments.
    pub const MAX_RUN_SAMPLES: u32 = 200_000;
    /// Longest accepted estimated run time, minutes.
    pub const MAX_MINUTES: u32 = 5;

    /// Parses a comma- or space-separated duration list and a sample count
    /// taken by `sampling`, with the `mechanisms` picked (in any order),
    /// and checks every limit.
    pub fn parse(
        durations: &str,
        (samples, sampling): (&str, Sampling),
        mechanisms: &[Mechanism],
    ) -> Result<Self, ConfigError> {
        // Kept sorted and without repeats as they are read (a binary search
        // each: the form's chunk then carries no sort of its own).
        let mut durations_ms: Vec<u32> = Vec::new();
        for s in durations
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
        {
            let d = s
                .parse::<u32>()
                .map_err(|_| ConfigError::NotANumber(s.chars().take(20).collect()))?;
            if let Err(at) = durations_ms.binary_search(&d) {
                durations_ms.insert(at, d);
            }
        }
        let samples = samples
            .trim()
            .parse::<u32>()
            .map_err(|_| ConfigError::NotANumber(samples.trim().chars().take(20).collect()))?;
        let config = Self {
            durations_ms,
            samples,
            sampling,
            mechanisms: Mechanism::BROWSER
                .into_iter()
                .filter(|m| mechanisms.contains(m))
                .collect(),
            ..Self::default()
        };
        config.validate()?;
        Ok(config)
    }

    /// Checks every limit.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.mechanisms.is_empty() {
            return Err(ConfigError::NoMechanisms);
        }
        if self.durations_ms.is_empty() {
            return Err(ConfigError::NoDurations);
        }
        if self.durations_ms.len() > Self::MAX_DURATIONS {
            return Err(ConfigError::TooManyDurations {
                max: Self::MAX_DURATIONS,
                got: self.durations_ms.len(),
            });
        }
        if let Some(&got) = self
            .durations_ms
            .iter()
            .find(|&&d| d > Self::MAX_DURATION_MS)
        {
            return Err(ConfigError::DurationOutOfRange {
                max: Self::MAX_DURATION_MS,
                got,
            });
        }
        if self.samples == 0 || self.samples > Self::MAX_SAMPLES {
            return Err(ConfigError::SamplesOutOfRange {
                max: Self::MAX_SAMPLES,
                got: self.samples,
            });
        }
        let total = self.cells().len() as u64 * u64::from(self.samples);
        if total > u64::from(Self::MAX_RUN_SAMPLES) {
            return Err(ConfigError::TooManySamples {
                max: Self::MAX_RUN_SAMPLES,
                got: total,
            });
        }
        let minutes = (self.run_ms(|_| self.samples) / 60_000.0).ceil() as u32;
        if minutes > Self::MAX_MINUTES {
            return Err(ConfigError::TooLong {
                minutes,
                limit: Self::MAX_MINUTES,
            });
        }
        Ok(())
    }

    /// About how many samples a cell of `key` takes: all of them with a
    /// fixed count; with adaptive sampling a wait of a millisecond or more
    /// (a clamped timer's included) is known after about [`MIN_SAMPLES`]
    /// (a quarter more, for a margin), a shorter one (read in clock
    /// steps, a few of them) may need them all.
    pub fn expected_samples(&self, key: CellKey) -> u32 {
        match self.sampling {
            Sampling::Adaptive if sample_ms(key) >= 1.0 => self.samples.min(MIN_SAMPLES * 5 / 4),
            _ => self.samples,
        }
    }

    /// The run's wall time, ms, if each cell takes `samples` of its key:
    /// the worker measures first, then the main thread (never both at
    /// once, so neither disturbs the other), so the sum of the two.
    fn run_ms(&self, samples: impl Fn(CellKey) -> u32) -> f64 {
        let per_thread = |thread: Thread| -> f64 {
            self.cells()
                .into_iter()
                .filter(|c| c.mechanism.thread() == thread)
                .map(|c| sample_ms(c) * f64::from(samples(c)))
                .sum()
        };
        let chain = f64::from(self.chain_runs * self.chain_depth) * 4.5;
        per_thread(Thread::Main) + chain + per_thread(Thread::Worker)
    }

    /// Every cell the run measures, in display order.
    pub fn cells(&self) -> Vec<CellKey> {
        self.cells_of(&self.mechanisms)
    }

    /// The cells of `mechanisms`: timed ones once per duration, yields
    /// once.
    pub fn cells_of(&self, mechanisms: &[Mechanism]) -> Vec<CellKey> {
        mechanisms
            .iter()
            .flat_map(|&mechanism| {
                let durations: Vec<Option<u32>> = if mechanism.is_timed() {
                    self.durations_ms.iter().copied().map(Some).collect()
                } else {
                    vec![None]
                };
                durations.into_iter().map(move |requested_ms| CellKey {
                    mechanism,
                    requested_ms,
                })
            })
            .collect()
    }
}

impl Config for TimedWaitsConfig {
    fn for_cores(_: u32) -> Self {
        Self::default()
    }

    fn quick(self) -> Self {
        Self {
            samples: 20,
            durations_ms: vec![0, 1, 10],
            ..self
        }
    }

    /// About how long a run takes, ms (`run_ms` of its
    /// expected samples; the limits hold for its most).
    fn estimated_ms(&self) -> f64 {
        self.run_ms(|key| self.expected_samples(key))
    }
}

#[cfg(test)]
mod tests;
