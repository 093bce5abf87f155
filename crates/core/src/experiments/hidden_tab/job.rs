//! Experiment 10's worker job: tick every interval until the window
//! closes, answered with `Done` and each tick's time (`timeOrigin` plus
//! `performance.now()`, ms) as samples.

use super::Keeper;
use crate::protocol::job::{Job, message};

/// Ticks of `way` (a worker's) every `interval_ms` until `until_ms`
/// (`timeOrigin + now()`), room made for `most` of them first; with
/// `wake_page`, each tick also posts a message on the worker's port.
#[derive(Debug, Clone, PartialEq)]
pub struct Ticking {
    /// How it ticks.
    pub way: Keeper,
    /// The interval, ms.
    pub interval_ms: u32,
    /// When the window closes, ms since the epoch.
    pub until_ms: f64,
    /// How long the window is, ms (the job's longest silence).
    pub window_ms: u32,
    /// The most ticks it makes room for.
    pub most: u32,
    /// Whether each tick wakes the page through the port.
    pub wake_page: bool,
}

message! {
    struct Ticking { way, interval_ms, until_ms, window_ms, most, wake_page }
}

impl Job for Ticking {
    const OF: &'static str = "hidden_tab";

    /// The worker says nothing until the window closes (and a last
    /// interval after it).
    fn longest_silence_ms(&self) -> u32 {
        self.window_ms.saturating_add(self.interval_ms)
    }
}
