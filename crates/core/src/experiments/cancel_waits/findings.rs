//! Experiment 6's findings: what a reader should take away from
//! a run, derived from its numbers.

use crate::clock::ClockInfo;
use crate::experiments::Findings;
use crate::experiments::cancel_waits::CancelWaits;
use crate::findings::{Figures, skew};
use crate::key;
use crate::text::{Arg, Phrase};

impl Findings for CancelWaits {
    /// The headline findings of a cancellable-waits run: how long the blind
    /// sleep ran on after its cancel, and how soon each cancellable wait was
    /// free, as a multiple of that.
    fn findings(&self, clock: Option<ClockInfo>) -> Vec<Phrase> {
        let f = Figures::new(clock);
        let mut out = Vec::new();
        let blind = self.blind_p50();
        for r in &self.results {
            let Some(s) = r.outcome.summary() else {
                continue;
            };
            if !r.strategy.wakes_on_cancel() {
                out.push(
                    Phrase::new(key!("cancel_waits.finding.blind"))
                        .phrase("what", r.strategy.label())
                        .arg("p50", f.ms(s.p50))
                        .arg("max", f.ms(s.max))
                        .count("wait", self.config.wait_ms),
                );
                continue;
            }
            let sooner = blind.filter(|_| s.p50 > 0.0).map(|b| b / s.p50);
            let phrase = match sooner {
                // A ratio is only as resolved as the time it divides by.
                Some(times) => f
                    .derived(
                        s.p50,
                        key!("cancel_waits.finding.woken_sooner"),
                        key!("cancel_waits.finding.woken_sooner_marked"),
                    )
                    .arg("times", Arg::Fixed(times, 0)),
                None => Phrase::new(key!("cancel_waits.finding.woken")),
            };
            out.push(
                phrase
                    .phrase("what", r.strategy.label())
                    .arg("p50", f.ms(s.p50))
                    .arg("p99", f.ms(s.p99)),
            );
        }
        out.push(skew(self.skew_ms));
        f.finish(out)
    }
}
