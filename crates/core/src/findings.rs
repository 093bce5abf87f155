//! Findings: the few statements a reader should take away from a run,
//! derived from its numbers (never written in advance). Each is a
//! [`Phrase`]: which finding and its figures; the page words it in the
//! reader's language (`finding.*` in the catalogs). Each experiment's
//! findings are its result's `findings`, in its folder's `findings.rs`;
//! this module holds what they share: figures marked where the clock does
//! not resolve them, and the clocks' skew.

use crate::clock::{ClockInfo, RESOLVED_STEPS};
use crate::key;
use crate::text::{Arg, Key, Phrase};

/// The figures of one experiment's findings: each marked ‡ when its
/// clock does not resolve it, and what the mark means said once at the
/// end.
pub(crate) struct Figures {
    clock: Option<ClockInfo>,
    marked: std::cell::Cell<bool>,
}

impl Figures {
    pub(crate) fn new(clock: Option<ClockInfo>) -> Self {
        Self {
            clock,
            marked: std::cell::Cell::new(false),
        }
    }

    /// One step of the clock (a microsecond without one).
    pub(crate) fn tolerance_ms(&self) -> f64 {
        self.clock.map_or(0.001, |c| c.tolerance_ms())
    }

    /// Whether the clock does not resolve `figure_ms` (and the note on ‡
    /// is then due).
    pub(crate) fn unresolved(&self, figure_ms: f64) -> bool {
        let marked = self.clock.is_some_and(|c| !c.resolves(figure_ms));
        if marked {
            self.marked.set(true);
        }
        marked
    }

    /// A phrase whose figure comes from `from_ms` (a rate from its time, a
    /// ratio from its divisor): `key`, or `marked` when the clock does not
    /// resolve `from_ms`.
    pub(crate) fn derived(&self, from_ms: f64, key: Key, marked: Key) -> Phrase {
        Phrase::new(if self.unresolved(from_ms) {
            marked
        } else {
            key
        })
    }

    /// A figure, ms, marked if the clock does not resolve it
    /// ([`Arg::ms_on`]).
    pub(crate) fn ms(&self, value: f64) -> Arg {
        self.unresolved(value);
        Arg::ms_on(value, self.clock)
    }

    /// The findings, with what ‡ means if a figure was marked.
    pub(crate) fn finish(self, mut out: Vec<Phrase>) -> Vec<Phrase> {
        if let (true, Some(c)) = (self.marked.get(), self.clock) {
            out.push(
                Phrase::new(key!("finding.clock_note"))
                    .ms("resolution", c.resolution_ms())
                    .count("steps", RESOLVED_STEPS as u64)
                    .ms("step", c.tolerance_ms()),
            );
        }
        out
    }
}

/// What the two workers' clocks differ by (how far apart, whichever is
/// ahead), or that it could not be measured (experiments 4, 6 and 9).
pub(crate) fn skew(skew_ms: Option<f64>) -> Phrase {
    match skew_ms {
        Some(skew) => Phrase::new(key!("wake_latency.finding.skew")).ms("skew", skew.abs()),
        None => Phrase::new(key!("wake_latency.finding.no_skew")),
    }
}

#[cfg(test)]
mod tests;
