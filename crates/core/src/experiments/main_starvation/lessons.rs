//! Experiment 2a's lesson: never block the UI thread.

use super::MainStarvation;
use crate::clock::ClockInfo;
use crate::experiments::JobMode;
use crate::lesson::{Article, Pair, Reading, lessons};

lessons! {
    MainStarvation {
        /// Never block the UI thread.
        NEVER_BLOCK_MAIN = "never_block_main", Article::Nothing => never_block_main;
    }
}

/// The longest frame gap with blocking jobs against awaiting ones.
fn never_block_main(main: &MainStarvation, _clock: Option<ClockInfo>) -> Option<Reading> {
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
