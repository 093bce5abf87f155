//! Experiment 1's results: one cell per mechanism and wait, and the
//! nested-timer chain.

use super::{CellKey, TimedWaitsConfig};
use crate::outcome::Outcome;
use crate::stats::Summary;
use serde::{Deserialize, Serialize};

/// One row of the timed-waits table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    /// Which mechanism and duration.
    #[serde(flatten)]
    pub key: CellKey,
    /// What happened.
    pub outcome: Outcome,
}

/// Per-level delays of a nested `setTimeout(0)` chain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedChain {
    /// `levels[i]` summarizes the delay of nesting level `i + 1`.
    pub levels: Vec<Summary>,
}

impl NestedChain {
    /// The clamp floor the HTML standard applies to deeply nested timers.
    pub const CLAMP_MS: f64 = 4.0;

    /// The first nesting level (1-based) from which every level's median is
    /// at least the 4 ms clamp minus `tolerance_ms`; `None` if the chain
    /// never settles there.
    pub fn clamp_onset(&self, tolerance_ms: f64) -> Option<u32> {
        let clamped = |s: &Summary| s.p50 >= Self::CLAMP_MS - tolerance_ms;
        let first_unclamped_from_end = self.levels.iter().rposition(|s| !clamped(s));
        let onset = match first_unclamped_from_end {
            None => 0,
            Some(i) => i + 1,
        };
        (onset < self.levels.len()).then_some(onset as u32 + 1)
    }
}

/// Results of experiment 1.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimedWaits {
    /// The configuration that was run.
    pub config: TimedWaitsConfig,
    /// One entry per cell of `config.cells()`.
    pub cells: Vec<Cell>,
    /// The nested-timer chain.
    pub chain: NestedChain,
    /// A reader's own way of waiting, timed beside the cells in the
    /// reader's browser: kept so that a link can carry it to someone who
    /// reads its code before running it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub own: Option<OwnWay>,
}

/// A reader's own way of waiting as a report keeps it: the code, the cell
/// it was judged against and its times.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OwnWay {
    /// An async JavaScript function of the wait in ms, at most
    /// [`OwnWay::MOST_CODE_CHARS`] characters. Text to show, never markup.
    pub code: String,
    /// The built-in cell it was judged against (one of the run's).
    pub against: CellKey,
    /// The smallest step of the sandbox's clock, ms.
    pub step_ms: f64,
    /// Its times, one chain of calls.
    pub outcome: Outcome,
}

impl OwnWay {
    /// The most characters of code a way holds (the page sends, a link
    /// carries).
    pub const MOST_CODE_CHARS: usize = 8_000;
}
