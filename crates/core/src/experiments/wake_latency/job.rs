//! Experiment 4's worker jobs: the setter's rounds and the waiter's. The
//! setter answers with the pair's `SetterDone`, the waiter with its raw
//! times (`WakeDone`).

use super::Strategy;
use crate::bytes::{Bytes, Damaged, Reader, Writer};
use crate::protocol::job::{Job, ROUND_MS, read_code, read_u32, read_u32s, write_u32s};

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

impl Bytes for WakeJob {
    fn write(&self, w: &mut Writer) {
        match self {
            WakeJob::Set {
                strategy,
                delays_us,
            } => {
                w.byte(0);
                w.byte(strategy.code());
                write_u32s(w, delays_us);
            }
            WakeJob::Wait { strategy, rounds } => {
                w.byte(1);
                w.byte(strategy.code());
                w.uvar(u64::from(*rounds));
            }
        }
    }

    fn read(r: &mut Reader) -> Result<Self, Damaged> {
        Ok(match r.byte()? {
            0 => WakeJob::Set {
                strategy: read_code(r, Strategy::from_code)?,
                delays_us: read_u32s(r)?,
            },
            1 => WakeJob::Wait {
                strategy: read_code(r, Strategy::from_code)?,
                rounds: read_u32(r)?,
            },
            _ => return Err(Damaged("an unknown side")),
        })
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
