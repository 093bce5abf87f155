//! Experiment 1's results: one cell per mechanism and wait, and the
//! nested-timer chain.

use super::{CellKey, TimedWaitsConfig};
use crate::experiments::own_way::OwnWay;
use crate::outcome::Outcome;
use crate::stats::Summary;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

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
    /// Shared, not copied, when a report is cloned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub own: Option<Arc<OwnWay<CellKey>>>,
}
