//! Experiment 4's worker jobs: the setter's rounds and the waiter's. The
//! setter answers with the pair's `SetterDone`, the waiter with its raw
//! times (`WakeDone`).

use super::Strategy;
use crate::protocol::job::{Job, ROUND_MS, message};

/// One side of a wake-latency pair.
#[derive(Debug, Clone, PartialEq)]
pub enum WakeJob {
    /// The setter: for each round wait for the waiter's go, busy-wait the
    /// round's delay, then raise the flag (or post on the transferred
    /// port, for the postMessage strategy).
    Set {
        /// How the waiter will notice.
        strategy: Strategy,
        /// The delay before each round, µs.
        delays_us: Vec<u32>,
    },
    /// The waiter: `rounds` rounds noticing the flag by `strategy`.
    Wait {
        /// How to notice.
        strategy: Strategy,
        /// How many rounds.
        rounds: u32,
    },
}

message! {
    enum WakeJob else "an unknown side" {
        0 => Set { strategy, delays_us },
        1 => Wait { strategy, rounds },
    }
}

impl Job for WakeJob {
    const OF: &'static str = "wake_latency";

    fn longest_silence_ms(&self) -> u32 {
        match self {
            WakeJob::Set { delays_us, .. } => {
                let delays: u64 = delays_us.iter().map(|&d| u64::from(d)).sum();
                let rounds = u32::try_from(delays_us.len()).unwrap_or(u32::MAX);
                u32::try_from(delays / 1000)
                    .unwrap_or(u32::MAX)
                    .saturating_add(rounds.saturating_mul(ROUND_MS))
            }
            WakeJob::Wait { rounds, .. } => rounds.saturating_mul(ROUND_MS + 3),
        }
    }
}
