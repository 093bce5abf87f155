//! Experiment 1's findings: what a reader should take away from
//! a run, derived from its numbers.

use crate::clock::ClockInfo;
use crate::experiments::Findings;
use crate::experiments::timed_waits::{CellKey, Mechanism};
use crate::experiments::timed_waits::{NestedChain, TimedWaits};
use crate::findings::Figures;
use crate::key;
use crate::outcome::Outcome;
use crate::sampling::{Sampling, Stopped};
use crate::stats::Summary;
use crate::text::Phrase;

fn summary(tw: &TimedWaits, mechanism: Mechanism, requested_ms: Option<u32>) -> Option<&Summary> {
    let key = CellKey {
        mechanism,
        requested_ms,
    };
    tw.cells
        .iter()
        .find(|c| c.key == key)
        .and_then(|c| c.outcome.summary())
}

impl Findings for TimedWaits {
    /// The headline findings of a timed-waits run.
    fn findings(&self, clock: Option<ClockInfo>) -> Vec<Phrase> {
        let f = Figures::new(clock);
        let tolerance_ms = f.tolerance_ms();
        let mut out = Vec::new();
        let smallest_timed = self.config.durations_ms.iter().copied().find(|&d| d > 0);
        if let Some(d) = smallest_timed {
            if let (Some(loop_), Some(fresh)) = (
                summary(self, Mechanism::TimeoutAwaited, Some(d)),
                summary(self, Mechanism::TimeoutFreshTask, Some(d)),
            ) {
                let clamped = loop_.p50 >= NestedChain::CLAMP_MS - tolerance_ms
                    && fresh.p50 < loop_.p50 - 1.0;
                let key = if clamped {
                    key!("timed_waits.finding.clamped")
                } else if f64::from(d) < NestedChain::CLAMP_MS {
                    key!("timed_waits.finding.not_clamped")
                } else {
                    key!("timed_waits.finding.above_clamp")
                };
                out.push(
                    Phrase::new(key)
                        .digits("d", d)
                        .arg("loop", f.ms(loop_.p50))
                        .arg("fresh", f.ms(fresh.p50)),
                );
            }
            if let (Some(loop_), Some(fresh)) = (
                summary(self, Mechanism::WorkerTimeout, Some(d)),
                summary(self, Mechanism::WorkerTimeoutFreshTask, Some(d)),
            ) && loop_.p50 >= NestedChain::CLAMP_MS - tolerance_ms
                && fresh.p50 < loop_.p50 - 1.0
            {
                out.push(
                    Phrase::new(key!("timed_waits.finding.worker_clamped"))
                        .digits("d", d)
                        .arg("loop", f.ms(loop_.p50))
                        .arg("fresh", f.ms(fresh.p50)),
                );
            }
            if let Some(sleep) = summary(self, Mechanism::WorkerAtomicsWait, Some(d)) {
                out.push(
                    Phrase::new(key!("timed_waits.finding.worker_sleep"))
                        .digits("d", d)
                        .arg("p50", f.ms(sleep.overshoot(f64::from(d))))
                        .arg("p99", f.ms(sleep.p99 - f64::from(d))),
                );
            }
        }
        if let Some(p) = summary(self, Mechanism::ResolvedPromise, None) {
            out.push(
                Phrase::new(key!("timed_waits.finding.resolved_promise")).arg("p50", f.ms(p.p50)),
            );
        }
        match self.chain.clamp_onset(tolerance_ms) {
            Some(level) => out
                .push(Phrase::new(key!("timed_waits.finding.chain_clamped")).count("level", level)),
            None if !self.chain.levels.is_empty() => out.push(
                Phrase::new(key!("timed_waits.finding.chain_unclamped"))
                    .count("levels", self.chain.levels.len() as u64),
            ),
            None => {}
        }
        let earliest = self
            .cells
            .iter()
            .filter_map(|c| Some((c.key, c.key.requested_ms?, c.outcome.summary()?)))
            .filter(|(_, d, s)| *d > 0 && s.min < f64::from(*d) - tolerance_ms)
            .max_by(|a, b| (f64::from(a.1) - a.2.min).total_cmp(&(f64::from(b.1) - b.2.min)));
        if let Some((key, d, s)) = earliest {
            out.push(
                Phrase::new(key!("timed_waits.finding.early"))
                    .phrase("what", key.label())
                    .count("d", d)
                    .arg("early", f.ms(f64::from(d) - s.min)),
            );
        }
        let never_fired = self.cells.iter().find_map(|c| match c.outcome {
            Outcome::TimeoutNeverFired { waited_ms } => Some((c.key, waited_ms)),
            _ => None,
        });
        if let Some((key, waited_ms)) = never_fired {
            out.push(
                Phrase::new(key!("timed_waits.finding.never_fired"))
                    .phrase("what", key.mechanism.label())
                    .arg("waited", f.ms(waited_ms)),
            );
        }
        f.finish(out)
    }
}

impl TimedWaits {
    /// How many samples its cells took, where each sampled until its
    /// median was known: how many stopped early, after how few and how
    /// many, and how many took the maximum (shown with its numbers, not
    /// among its findings: it says how the run measured, not what).
    pub fn sampled(&self) -> Option<Phrase> {
        if self.config.sampling != Sampling::Adaptive {
            return None;
        }
        let max = self.config.samples;
        let counts: Vec<u32> = self
            .cells
            .iter()
            .filter_map(|c| c.outcome.summary())
            .map(|s| s.n)
            .collect();
        let early: Vec<u32> = counts
            .iter()
            .copied()
            .filter(|&n| Stopped::of(n, max, Sampling::Adaptive) == Stopped::Precise)
            .collect();
        let (Some(&least), Some(&most)) = (early.iter().min(), early.iter().max()) else {
            return (!counts.is_empty()).then(|| {
                Phrase::new(key!("timed_waits.finding.sampled_none"))
                    .count("cells", counts.len() as u64)
                    .count("max", max)
            });
        };
        let key = match (early.len() == counts.len(), least == most) {
            (true, true) => key!("timed_waits.finding.sampled_all_at"),
            (true, false) => key!("timed_waits.finding.sampled_all"),
            (false, _) => key!("timed_waits.finding.sampled"),
        };
        Some(
            Phrase::new(key)
                .count("precise", early.len() as u64)
                .count("cells", counts.len() as u64)
                .count("least", least)
                .count("most", most)
                .count("max", max),
        )
    }
}
