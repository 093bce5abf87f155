//! Experiment 3's lesson: spin only briefly, then sleep.

use super::SpinLadder;
use crate::clock::ClockInfo;
use crate::lesson::{Article, Pair, Reading, lessons};

lessons! {
    SpinLadder {
        /// Spin only briefly, then sleep.
        SPIN_BRIEFLY = "spin_briefly", Article::Nothing => spin_briefly;
    }
}

/// The spin-until's busy share of its core, as a percentage, without the
/// sleep stage and with it.
fn spin_briefly(ladder: &SpinLadder, _clock: Option<ClockInfo>) -> Option<Reading> {
    let share = |sleep_stage: bool| {
        ladder
            .spin_until
            .iter()
            .find(|s| s.sleep_stage == sleep_stage)
            .map(|s| s.busy_fraction() * 100.0)
    };
    Some(Reading::Pair(Pair::percent(share(false)?, share(true)?)))
}
