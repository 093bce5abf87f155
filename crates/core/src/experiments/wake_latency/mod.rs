//! Experiment 4: wake latency. A setter raises a flag after a random 0–3 ms;
//! how soon does a waiter notice, by polling or by being signalled?
//!
//! Both sides stamp times as `performance.timeOrigin + performance.now()`,
//! one time base across threads up to a small skew, which the run measures
//! by ping-pong (see [`skew_ms`](crate::clock::skew_ms)) and reports.

use crate::experiments::Config;
use crate::experiments::config::config;
use crate::experiments::paired::{Paired, rounds};
use crate::field::{self};
use crate::key;
use crate::outcome::StrategyOutcome;
use crate::strategies::strategies;
use crate::text::Phrase;

mod description;
mod findings;
pub mod job;
pub mod lessons;

strategies! {
    /// How the waiter notices the flag.
    pub enum Strategy in "wake_latency.strategy." {
        browser {
            /// `while (Atomics.load(flag) == 0) {}`.
            SpinUntil = "spin_until",
            /// `while (!flag) Atomics.wait(other, 0, 0, 1)`: 1 ms sleep polling.
            SleepPoll = "sleep_poll",
            /// `while (!flag) await setTimeout(1)`: 1 ms timer polling.
            TimerPoll = "timer_poll",
            /// `Atomics.wait(flag, 0)` woken by `Atomics.notify`.
            Event = "event",
            /// `await Atomics.waitAsync(flag, 0)` woken by `Atomics.notify`.
            AsyncEvent = "async_event",
            /// A `MessageChannel` message from the setter.
            PostMessage = "post_message",
        }
        native {
            /// Native: spin on an `AtomicU32` load.
            NativeSpinUntil = "native_spin_until",
            /// Native: `std::thread::sleep(1 ms)` between checks.
            NativeSleepPoll = "native_sleep_poll",
            /// Native: `tokio::time::sleep(1 ms).await` between checks.
            NativeTimerPoll = "native_timer_poll",
            /// Native: `Condvar::wait` woken by `notify_one`.
            Condvar = "condvar",
            /// Native: `thread::park` woken by `Thread::unpark`.
            Park = "park",
            /// Native: a futex-style wait on the flag word (`atomic-wait`).
            Futex = "futex",
            /// Native: `tokio::sync::Notify::notified().await`.
            TokioNotify = "tokio_notify",
        }
    }
}

impl Strategy {
    /// Whether noticing holds the waiter's thread (spins, sleeps or
    /// blocks in a wait call) rather than freeing it for other work.
    pub fn holds_thread(self) -> bool {
        !matches!(
            self,
            Strategy::TimerPoll
                | Strategy::AsyncEvent
                | Strategy::PostMessage
                | Strategy::NativeTimerPoll
                | Strategy::TokioNotify
        )
    }

    /// The .NET code of the article it stands for.
    pub fn analogue(self) -> Phrase {
        Phrase::new(match self {
            Strategy::SpinUntil | Strategy::NativeSpinUntil => {
                key!("wake_latency.analogue.spin_until")
            }
            Strategy::SleepPoll | Strategy::NativeSleepPoll => {
                key!("wake_latency.analogue.sleep_poll")
            }
            Strategy::TimerPoll | Strategy::NativeTimerPoll => {
                key!("wake_latency.analogue.timer_poll")
            }
            Strategy::Event | Strategy::Condvar | Strategy::Futex => {
                key!("wake_latency.analogue.event")
            }
            Strategy::Park => key!("wake_latency.analogue.park"),
            Strategy::AsyncEvent | Strategy::TokioNotify => {
                key!("wake_latency.analogue.async_event")
            }
            Strategy::PostMessage => key!("wake_latency.analogue.post_message"),
        })
    }

    /// Whether it needs shared memory (in the browser).
    pub fn needs_shared_memory(self) -> bool {
        self != Strategy::PostMessage
    }

    /// Whether it polls by spinning, with no wait between its checks.
    pub fn spins(self) -> bool {
        matches!(self, Strategy::SpinUntil | Strategy::NativeSpinUntil)
    }

    /// Whether it polls (as opposed to being woken by the setter).
    pub fn polls(self) -> bool {
        matches!(
            self,
            Strategy::SpinUntil
                | Strategy::SleepPoll
                | Strategy::TimerPoll
                | Strategy::NativeSpinUntil
                | Strategy::NativeSleepPoll
                | Strategy::NativeTimerPoll
        )
    }

    /// The event wait the ratios divide by: `Atomics.wait` + `notify` in
    /// the browser, `Condvar` (what `ManualResetEventSlim` blocks in)
    /// natively.
    fn is_reference_event(self) -> bool {
        matches!(self, Strategy::Event | Strategy::Condvar)
    }
}

config! {
    /// Configuration of experiment 4.
    pub struct WakeConfig {
        /// Rounds per strategy.
        rounds: u32 = 100,
            quick(20) form("rounds", "rounds", "wake_latency.rounds", 1, Self::MAX_ROUNDS)
            link(Self::MAX_ROUNDS);
        /// Largest random delay before the setter raises the flag, µs.
        max_delay_us: u32 = 3000, link(1_000_000);
        /// Seed of the delay sequence (the same delays for every strategy).
        seed: u64 = 0x5EED_CAFE;
    }
    check: |_| Ok(()),
    // Some 20 ms a round over all the strategies (the random delays
    // average 1.5 ms, the sleep-polling waiters overshoot them).
    estimate: |c| f64::from(c.rounds) * 20.0,
    hint: |c| field::about_seconds(c.estimated_ms()),
}

impl WakeConfig {
    /// Largest accepted round count.
    pub const MAX_ROUNDS: u32 = 2000;

    /// The setter's delay before each round, µs: a xorshift sequence, so
    /// every strategy faces the same delays.
    pub fn delays_us(&self) -> Vec<u32> {
        crate::experiments::seeded::sequence(self.seed, self.rounds, 0..=self.max_delay_us)
    }
}

/// One strategy's outcome: set→noticed latencies, ms.
pub type WakeResult = StrategyOutcome<Strategy>;

/// Results of experiment 4: the setter's and the waiter's.
pub type WakeLatency = Paired<WakeConfig, Strategy>;

rounds!(WakeConfig);

impl WakeLatency {
    /// The median of the event wait (`Atomics.wait` + `notify`, or
    /// `Condvar` natively), ms, if it was measured and is above zero.
    pub fn event_p50(&self) -> Option<f64> {
        self.p50_of(Strategy::is_reference_event)
            .filter(|&e| e > 0.0)
    }

    /// Each measured strategy's median as a multiple of the event wait's,
    /// in result order.
    pub fn ratios_to_event(&self) -> Vec<(Strategy, f64)> {
        let Some(event) = self.event_p50() else {
            return Vec::new();
        };
        self.results
            .iter()
            .filter_map(|r| r.outcome.summary().map(|s| (r.strategy, s.p50 / event)))
            .collect()
    }
}

#[cfg(test)]
mod tests;
