//! Experiment 2a's lesson: never block the UI thread.

use super::MainStarvation;
use crate::experiments::JobMode;
use crate::lesson::{Article, Pair, Reading, Taught};

/// Never block the UI thread.
pub const NEVER_BLOCK_MAIN: &str = "never_block_main";

pub(super) const LESSONS: &[Taught] = &[Taught {
    id: NEVER_BLOCK_MAIN,
    article: Article::Nothing,
}];

/// The longest frame gap with blocking jobs against awaiting ones.
pub(super) fn reading(main: &MainStarvation, lesson: &str) -> Option<Reading> {
    if lesson != NEVER_BLOCK_MAIN {
        return None;
    }
    let gap = |mode| {
        main.runs
            .iter()
            .find(|r| r.mode == mode)
            .map(|r| r.longest_frame_gap())
    };
    Some(Reading::Pair(Pair::ms(
        gap(JobMode::Blocking)?,
        gap(JobMode::Async)?,
    )))
}
