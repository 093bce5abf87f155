//! Experiment 6: cancellable waits. A waiter waits a fixed time and is
//! cancelled at a random point of it; how long after the cancel is it
//! free again? A blind sleep (`Thread.Sleep`) runs to its end; a wait on a
//! cancel event (`WaitHandle.WaitOne(timeout)`) or a timer raced with a
//! cancellation (`Task.Delay(ms, token)`) returns at the cancel.
//!
//! As in experiment 4 the canceller and the waiter stamp
//! `performance.timeOrigin + now()` on two threads, and the run measures
//! and corrects the skew between their clocks (`wake::skew_ms`).

use crate::experiments::Config;
use crate::experiments::config::config;
use crate::experiments::paired::{Paired, rounds};
use crate::field;
use crate::key;
use crate::outcome::StrategyOutcome;
use crate::strategies::strategies;
use crate::text::Phrase;

mod description;
mod findings;
pub mod job;
pub mod lessons;

strategies! {
    /// How the waiter waits, and how the cancel reaches it.
    pub enum Strategy in "cancel_waits.strategy." {
        browser {
            /// `Atomics.wait` on a word nobody signals: the cancel is seen only
            /// when the wait has run out.
            BlindSleep = "blind_sleep",
            /// `Atomics.wait` on the cancel word with the wait as its timeout,
            /// woken by the canceller's `Atomics.notify`.
            CancelEvent = "cancel_event",
            /// `setTimeout` raced with an `AbortSignal`, aborted when the
            /// canceller's message arrives.
            AbortTimer = "abort_timer",
        }
        native {
            /// Native: `std::thread::sleep`, the cancel seen afterwards.
            NativeSleep = "native_sleep",
            /// Native: `Condvar::wait_timeout` on the cancel flag, `notify_all`.
            CondvarTimeout = "condvar_timeout",
            /// Native: `tokio::select!` of `sleep` and a `CancellationToken`.
            TokioCancel = "tokio_cancel",
        }
    }
}

impl Strategy {
    /// Whether the wait holds the waiter's thread (a blocking call).
    pub fn holds_thread(self) -> bool {
        matches!(
            self,
            Strategy::BlindSleep
                | Strategy::CancelEvent
                | Strategy::NativeSleep
                | Strategy::CondvarTimeout
        )
    }

    /// The .NET code of the article it stands for.
    pub fn analogue(self) -> Phrase {
        Phrase::new(match self.kind() {
            Kind::Blind => key!("cancel_waits.analogue.blind"),
            Kind::Event => key!("cancel_waits.analogue.event"),
            Kind::Token => key!("cancel_waits.analogue.token"),
        })
    }

    /// Whether it needs shared memory (in the browser): the two that wait
    /// in `Atomics.wait`.
    pub fn needs_shared_memory(self) -> bool {
        matches!(self, Strategy::BlindSleep | Strategy::CancelEvent)
    }

    /// Whether the cancel ends its wait (as opposed to being seen once
    /// the wait has run out).
    pub fn wakes_on_cancel(self) -> bool {
        self.kind() != Kind::Blind
    }

    fn kind(self) -> Kind {
        match self {
            Strategy::BlindSleep | Strategy::NativeSleep => Kind::Blind,
            Strategy::CancelEvent | Strategy::CondvarTimeout => Kind::Event,
            Strategy::AbortTimer | Strategy::TokioCancel => Kind::Token,
        }
    }
}

/// The article's three ways to wait, which the page's and the native
/// probe's strategies each stand for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `Thread.Sleep(ms)`.
    Blind,
    /// `ct.WaitHandle.WaitOne(ms)`.
    Event,
    /// `await Task.Delay(ms, ct)`.
    Token,
}

config! {
    /// Configuration of experiment 6.
    pub struct CancelConfig {
        /// Rounds per strategy.
        rounds: u32 = 40,
            quick(10) form("rounds", "rounds", "wake_latency.rounds", 1, 500) link(500);
        /// How long each wait asks for, ms: a cancel point must fall well
        /// inside it.
        wait_ms: u32 = 20,
            form("wait", "wait", "main_starvation.each_waits", 5, 1000) link(1000);
        /// Seed of the cancel points (the same for every strategy).
        seed: u64 = 0xCA4C_E11E;
    }
    // The blind sleeps run to their end, so their rounds together must
    // stay within the longest blocking batch.
    check: |c| field::check_blocking_ms(f64::from(c.rounds) * f64::from(c.wait_ms)),
    // The blind sleeps take the whole wait, the others half of it on
    // average, and each round a few milliseconds of handshake.
    estimate: |c| f64::from(c.rounds) * (2.0 * f64::from(c.wait_ms) + 3.0),
    hint: |c| field::about_seconds(c.estimated_ms()),
}

impl CancelConfig {
    /// When the canceller cancels each round, µs after the waiter began:
    /// between a tenth and nine tenths of the wait, the same points for
    /// every strategy.
    pub fn cancel_points_us(&self) -> Vec<u32> {
        let wait_us = self.wait_ms.saturating_mul(1000);
        crate::experiments::seeded::sequence(
            self.seed,
            self.rounds,
            wait_us / 10..=wait_us / 10 * 9,
        )
    }
}

/// One strategy's outcome: cancel→free times, ms.
pub type CancelResult = StrategyOutcome<Strategy>;

/// Results of experiment 6: the canceller's and the waiter's.
pub type CancelWaits = Paired<CancelConfig, Strategy>;

rounds!(CancelConfig);

impl CancelWaits {
    /// The median cancel→free time of the blind sleep, ms, if measured.
    pub fn blind_p50(&self) -> Option<f64> {
        self.p50_of(|s| !s.wakes_on_cancel())
    }
}

#[cfg(test)]
mod tests;
