//! Experiment 6's worker jobs: the canceller's rounds and the waiter's,
//! answered as experiment 4's are (`SetterDone`, `WakeDone`).

use super::Strategy;
use crate::bytes::{Bytes, Damaged, Reader, Writer};
use crate::protocol::job::{Job, ROUND_MS, read_code, read_u32, read_u32s, write_u32s};

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

impl Bytes for CancelJob {
    fn write(&self, w: &mut Writer) {
        match self {
            CancelJob::Set {
                strategy,
                points_us,
                wait_ms,
            } => {
                w.byte(0);
                w.byte(strategy.code());
                write_u32s(w, points_us);
                w.uvar(u64::from(*wait_ms));
            }
            CancelJob::Wait {
                strategy,
                rounds,
                wait_ms,
            } => {
                w.byte(1);
                w.byte(strategy.code());
                w.uvar(u64::from(*rounds));
                w.uvar(u64::from(*wait_ms));
            }
        }
    }

    fn read(r: &mut Reader) -> Result<Self, Damaged> {
        Ok(match r.byte()? {
            0 => CancelJob::Set {
                strategy: read_code(r, Strategy::from_code)?,
                points_us: read_u32s(r)?,
                wait_ms: read_u32(r)?,
            },
            1 => CancelJob::Wait {
                strategy: read_code(r, Strategy::from_code)?,
                rounds: read_u32(r)?,
                wait_ms: read_u32(r)?,
            },
            _ => return Err(Damaged("an unknown side")),
        })
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
