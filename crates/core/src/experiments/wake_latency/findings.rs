//! Experiment 4's findings: what a reader should take away from
//! a run, derived from its numbers.

use crate::clock::ClockInfo;
use crate::experiments::Findings;
use crate::experiments::wake_latency::{Strategy, WakeLatency};
use crate::findings::{Figures, skew};
use crate::key;
use crate::text::{Arg, Phrase};

impl Findings for WakeLatency {
    /// The headline findings of a wake-latency run, beside the article's.
    fn findings(&self, clock: Option<ClockInfo>) -> Vec<Phrase> {
        let f = Figures::new(clock);
        let mut out = Vec::new();
        let ratios = self.ratios_to_event();
        let event = self
            .results
            .iter()
            .find(|r| r.strategy == Strategy::Event)
            .and_then(|r| r.outcome.summary());
        if let Some(event) = event {
            out.push(Phrase::new(key!("wake_latency.finding.event")).arg("p50", f.ms(event.p50)));
            // A ratio is only as resolved as the event wait it divides by.
            let marked = f.unresolved(event.p50);
            let polls: Vec<Phrase> = ratios
                .iter()
                .filter(|(s, _)| matches!(s, Strategy::SleepPoll | Strategy::TimerPoll))
                .map(|(s, r)| {
                    Phrase::new(if marked {
                        key!("wake_latency.finding.ratio_marked")
                    } else {
                        key!("wake_latency.finding.ratio")
                    })
                    .phrase("what", s.label())
                    .arg("times", Arg::Fixed(*r, 0))
                })
                .collect();
            if !polls.is_empty() {
                out.push(
                    Phrase::new(key!("wake_latency.finding.polling"))
                        .arg("ratios", Arg::List(polls)),
                );
            }
        } else {
            // Without the event wait (no shared memory) there is no ratio,
            // but what did run is this browser's figure all the same.
            for r in &self.results {
                if let Some(s) = r.outcome.summary() {
                    out.push(
                        Phrase::new(key!("wake_latency.finding.without_event"))
                            .phrase("what", r.strategy.label())
                            .arg("p50", f.ms(s.p50))
                            .arg("p99", f.ms(s.p99)),
                    );
                }
            }
        }
        out.push(skew(self.skew_ms));
        f.finish(out)
    }
}
