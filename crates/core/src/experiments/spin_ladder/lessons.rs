//! Experiment 3's lesson: spin only briefly, then sleep.

use super::SpinLadder;
use crate::lesson::{Article, Pair, Reading, Taught};

/// Spin only briefly, then sleep.
pub const SPIN_BRIEFLY: &str = "spin_briefly";

pub(super) const LESSONS: &[Taught] = &[Taught {
    id: SPIN_BRIEFLY,
    article: Article::Nothing,
}];

/// The spin-until's busy share of its core, as a percentage, without the
/// sleep stage and with it.
pub(super) fn reading(ladder: &SpinLadder, lesson: &str) -> Option<Reading> {
    if lesson != SPIN_BRIEFLY {
        return None;
    }
    let share = |sleep_stage: bool| {
        ladder
            .spin_until
            .iter()
            .find(|s| s.sleep_stage == sleep_stage)
            .map(|s| s.busy_fraction() * 100.0)
    };
    Some(Reading::Pair(Pair::percent(share(false)?, share(true)?)))
}
