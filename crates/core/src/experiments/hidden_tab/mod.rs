//! Experiment 10: waiting in a hidden tab, the web's own trap. The article
//! shows that the platform decides how long a wait takes; a browser
//! decides more: a page that is not visible does not keep time. While the
//! reader looks at another tab, eight ways of ticking every interval run
//! at once, on the page and in workers, and each one's intervals are read
//! apart, visible and hidden.
//!
//! A way's ticks are times, ms from the window's start. An interval is
//! hidden if the page was hidden at any moment of it, visible otherwise
//! ([`KeeperResult::of_ticks`]). A way's schedule is one tick every
//! interval from its first tick (a frame's, its visible median): the ticks
//! it lost are those due while the page was hidden that never came while
//! it was or within an interval of its return (a loop that catches up
//! runs them then), and how far behind it ended is its last tick's
//! lateness on that schedule.

use crate::experiments::Config;
use crate::experiments::config::config;
use crate::field;
use crate::key;
use crate::outcome::{Outcome, reason};
use crate::strategies::strategies;
use crate::text::Phrase;
use serde::{Deserialize, Serialize};

mod description;
mod findings;
pub mod job;
pub mod lessons;
mod link;

strategies! {
    /// How a way ticks, and where.
    pub enum Keeper in "hidden_tab.way." {
        browser {
            /// Main thread: `setTimeout(interval)` set in its own callback
            /// (a chain that nests).
            PageNested = "page_nested",
            /// Main thread: `setTimeout(interval)` set from a fresh task
            /// (a message) after each tick, so it never nests.
            PageFresh = "page_fresh",
            /// Main thread: one `setInterval(interval)`.
            PageInterval = "page_interval",
            /// Main thread: `requestAnimationFrame`, each frame.
            PageFrame = "page_frame",
            /// Main thread: `setTimeout` aimed at the next due time read
            /// from the clock, running every tick that came due at once.
            PageClock = "page_clock",
            /// Main thread, woken by a worker's message (a `MessageChannel`)
            /// on each of the worker's ticks.
            PageMessage = "page_message",
            /// A worker's `setTimeout(interval)` chain.
            WorkerTimeout = "worker_timeout",
            /// A worker blocking in `Atomics.wait` for the interval.
            WorkerAtomics = "worker_atomics",
        }
        native {}
    }
}

impl Keeper {
    /// Whether a tick's wait holds its thread.
    pub fn holds_thread(self) -> bool {
        self == Keeper::WorkerAtomics
    }

    /// Whether it runs (or is woken) by a worker.
    pub fn in_worker(self) -> bool {
        matches!(
            self,
            Keeper::PageMessage | Keeper::WorkerTimeout | Keeper::WorkerAtomics
        )
    }

    /// Whether it needs shared memory.
    pub fn needs_memory(self) -> bool {
        self == Keeper::WorkerAtomics
    }

    /// Whether it is one of the page's own timers that wait the interval
    /// (a `setTimeout` or `setInterval` on the main thread), which
    /// browsers throttle.
    pub fn page_timer(self) -> bool {
        matches!(
            self,
            Keeper::PageNested | Keeper::PageFresh | Keeper::PageInterval
        )
    }

    /// The .NET code of the article it stands for.
    pub fn analogue(self) -> Phrase {
        Phrase::new(match self {
            Keeper::PageNested | Keeper::PageFresh | Keeper::WorkerTimeout => {
                key!("hidden_tab.analogue.delay_loop")
            }
            Keeper::PageInterval => key!("hidden_tab.analogue.timer"),
            Keeper::PageClock => key!("hidden_tab.analogue.periodic_timer"),
            Keeper::PageFrame => key!("hidden_tab.analogue.frame"),
            Keeper::PageMessage => key!("hidden_tab.analogue.signal"),
            Keeper::WorkerAtomics => key!("hidden_tab.analogue.sleep"),
        })
    }
}

config! {
    /// Configuration of experiment 10.
    pub struct HiddenConfig {
        /// The interval every way aims at, ms: above the 4 ms clamp of
        /// nested timers and any clock's step.
        interval_ms: u32 = 10,
            form("interval", "interval", "hidden_tab.interval", 5, 100) link(100);
        /// How long the page records, s: time to switch away, wait and
        /// come back, never more than half a minute.
        seconds: u32 = 15,
            quick(6) form("seconds", "seconds", "hidden_tab.seconds", 5, Self::MAX_SECONDS)
            link(Self::MAX_SECONDS);
    }
    check: |_| Ok(()),
    estimate: |c| f64::from(c.seconds) * 1000.0 + 500.0,
    hint: |c| field::about_seconds(c.estimated_ms()),
}

impl HiddenConfig {
    /// The longest recording, s.
    pub const MAX_SECONDS: u32 = 30;
    /// How long hidden is enough to read, ms: a throttled page's timers
    /// run on a one-second grid, so three seconds show it.
    pub const ENOUGH_HIDDEN_MS: f64 = 3000.0;

    /// The recording's length, ms.
    pub fn window_ms(&self) -> f64 {
        f64::from(self.seconds) * 1000.0
    }

    /// The most ticks a way can make in the window (a frame's at 240 Hz,
    /// a timer's at its interval), with room to spare: the probes make
    /// room for this many before the window opens.
    pub fn most_ticks(&self) -> u32 {
        let fastest = f64::from(self.interval_ms.min(4));
        (self.window_ms() / fastest) as u32 + 64
    }
}

/// A time the page was hidden, ms from the window's start.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Span {
    /// When the page was hidden.
    pub from_ms: f64,
    /// When it was shown again (or the window ended).
    pub to_ms: f64,
}

impl Span {
    /// Whether the page was hidden at any moment of `from..to`.
    fn overlaps(self, from: f64, to: f64) -> bool {
        self.from_ms < to && from < self.to_ms
    }

    /// Whether `at` lies in it or within `grace` after it.
    fn holds(self, at: f64, grace: f64) -> bool {
        self.from_ms <= at && at < self.to_ms + grace
    }
}

/// The hidden spans from the page's visibility changes, ms from the
/// window's start: each change's time and whether the page became
/// hidden, in order; `hidden_at_start` for the state before the first;
/// the last span ends at `window_ms` if the page was still hidden.
pub fn hidden_spans(hidden_at_start: bool, changes: &[(f64, bool)], window_ms: f64) -> Vec<Span> {
    let mut spans = Vec::new();
    let mut from = hidden_at_start.then_some(0.0);
    for &(at, hidden) in changes {
        let at = at.clamp(0.0, window_ms);
        match (from, hidden) {
            (None, true) => from = Some(at),
            (Some(f), false) => {
                spans.push(Span {
                    from_ms: f,
                    to_ms: at,
                });
                from = None;
            }
            _ => {}
        }
    }
    if let Some(f) = from {
        spans.push(Span {
            from_ms: f,
            to_ms: window_ms,
        });
    }
    spans.retain(|s| s.to_ms > s.from_ms);
    spans
}

/// One way's outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeeperResult {
    /// The way.
    pub way: Keeper,
    /// Its intervals while the page was visible, ms, in tick order.
    pub visible: Outcome,
    /// Its intervals that the page was hidden for (some or all of), ms,
    /// in tick order; unavailable if the page never was.
    pub hidden: Outcome,
    /// The ticks due while the page was hidden that never came.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lost: Option<u32>,
    /// How far behind its schedule its last tick came, ms (never below 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub behind_ms: Option<f64>,
}

impl KeeperResult {
    /// A way that could not tick, and why (an [`Outcome`] that is not
    /// measured).
    pub fn without(way: Keeper, why: Outcome) -> KeeperResult {
        KeeperResult {
            way,
            visible: why.clone(),
            hidden: why,
            lost: None,
            behind_ms: None,
        }
    }

    /// A way's result from its tick times (ms from the window's start,
    /// in order) and the page's `hidden` spans, aiming at `interval_ms`
    /// (a frame at its own visible median).
    pub fn of_ticks(way: Keeper, ticks: &[f64], hidden: &[Span], interval_ms: u32) -> KeeperResult {
        let (mut visible, mut in_hidden) = (Vec::new(), Vec::new());
        for pair in ticks.windows(2) {
            let (from, to) = (pair[0], pair[1]);
            let interval = (to - from).max(0.0);
            if hidden.iter().any(|s| s.overlaps(from, to)) {
                in_hidden.push(interval);
            } else {
                visible.push(interval);
            }
        }
        let visible = Outcome::of_samples(visible);
        let period = match way {
            Keeper::PageFrame => visible.p50().unwrap_or(1000.0 / 60.0),
            _ => f64::from(interval_ms),
        };
        let hidden_ms: f64 = hidden.iter().map(|s| s.to_ms - s.from_ms).sum();
        let lost = (!hidden.is_empty() && period > 0.0).then(|| {
            let due = (hidden_ms / period).floor();
            let came = ticks
                .iter()
                .filter(|&&t| hidden.iter().any(|s| s.holds(t, period)))
                .count() as f64;
            (due - came).max(0.0) as u32
        });
        let behind_ms = match ticks {
            [first, .., last] if period > 0.0 => {
                let due = first + (ticks.len() - 1) as f64 * period;
                Some((last - due).max(0.0))
            }
            _ => None,
        };
        let hidden_outcome = if hidden.is_empty() {
            Outcome::Unavailable {
                reason: reason::NOT_HIDDEN.to_owned(),
            }
        } else {
            Outcome::of_samples(in_hidden)
        };
        KeeperResult {
            way,
            visible,
            hidden: hidden_outcome,
            lost,
            behind_ms,
        }
    }

    /// Its hidden median against its visible one, where both are known
    /// (and the visible one is above zero).
    pub fn slowdown(&self) -> Option<f64> {
        let (visible, hidden) = (self.visible.p50()?, self.hidden.p50()?);
        (visible > 0.0).then(|| hidden / visible)
    }

    /// How it kept its schedule while the page was hidden, where it was.
    pub fn kept(&self) -> Option<Kept> {
        let slowdown = self.slowdown()?;
        let due = self.hidden.summary()?.n + self.lost.unwrap_or(0);
        if self.lost.is_some_and(|lost| lost * 10 > due) {
            Some(Kept::No)
        } else if (1.0 / KEPT_RATIO..=KEPT_RATIO).contains(&slowdown) {
            Some(Kept::Time)
        } else {
            Some(Kept::InBursts)
        }
    }
}

/// How a way kept its schedule while the page was hidden.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kept {
    /// Its hidden intervals' median within [`KEPT_RATIO`] of its visible
    /// one (either way), and at most one tick in ten lost.
    Time,
    /// At most one tick in ten lost, but its intervals far from the
    /// visible ones: it ran what came due in bursts.
    InBursts,
    /// More than one tick in ten lost.
    No,
}

/// A way kept time while hidden if its hidden intervals' median stayed
/// within this factor of its visible one, either way.
pub const KEPT_RATIO: f64 = 2.0;

/// Results of experiment 10.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HiddenTab {
    /// The configuration that was run.
    pub config: HiddenConfig,
    /// When the page was hidden, ms from the window's start.
    pub hidden: Vec<Span>,
    /// One result per way.
    pub results: Vec<KeeperResult>,
}

impl HiddenTab {
    /// How long the page was hidden in all, ms.
    pub fn hidden_ms(&self) -> f64 {
        self.hidden.iter().map(|s| s.to_ms - s.from_ms).sum()
    }

    /// Whether the page was hidden long enough to read
    /// ([`HiddenConfig::ENOUGH_HIDDEN_MS`]).
    pub fn hidden_enough(&self) -> bool {
        self.hidden_ms() >= HiddenConfig::ENOUGH_HIDDEN_MS
    }
}

#[cfg(test)]
mod tests;
