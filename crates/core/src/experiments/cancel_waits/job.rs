//! Experiment 6's worker jobs: the canceller's rounds and the waiter's,
//! answered as experiment 4's are (`SetterDone`, `WakeDone`).

use super::Strategy;
use crate::protocol::job::{Job, ROUND_MS, message};

/// One side of a cancellable-waits pair.
#[derive(Debug, Clone, PartialEq)]
pub enum CancelJob {
    /// The canceller: after each go, the round's cancel point, then the
    /// flag raised (or the stamp posted, for the strategy that is
    /// cancelled by a message).
    Set {
        /// How the waiter waits.
        strategy: Strategy,
        /// When to cancel each round, µs after the waiter's go.
        points_us: Vec<u32>,
        /// How long each of the waiter's waits asks for, ms (the canceller
        /// hears nothing from the waiter for that long).
        wait_ms: u32,
    },
    /// The waiter: `rounds` waits of `wait_ms` by `strategy`, each
    /// cancelled by the canceller; its reply has each round's raw
    /// cancel→free time.
    Wait {
        /// How to wait.
        strategy: Strategy,
        /// How many rounds.
        rounds: u32,
        /// How long each wait asks for, ms.
        wait_ms: u32,
    },
}

message! {
    enum CancelJob else "an unknown side" {
        0 => Set { strategy, points_us, wait_ms },
        1 => Wait { strategy, rounds, wait_ms },
    }
}

impl Job for CancelJob {
    const OF: &'static str = "cancel_waits";

    fn longest_silence_ms(&self) -> u32 {
        match self {
            CancelJob::Set {
                points_us, wait_ms, ..
            } => u32::try_from(points_us.len())
                .unwrap_or(u32::MAX)
                .saturating_mul(wait_ms.saturating_add(ROUND_MS)),
            CancelJob::Wait {
                rounds, wait_ms, ..
            } => rounds.saturating_mul(wait_ms.saturating_add(ROUND_MS)),
        }
    }
}
