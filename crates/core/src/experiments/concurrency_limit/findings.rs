//! Experiment 8's findings: what a reader should take away from
//! a run, derived from its numbers.

use crate::clock::ClockInfo;
use crate::experiments::Findings;
use crate::experiments::concurrency_limit::ConcurrencyLimit;
use crate::findings::Figures;
use crate::key;
use crate::text::Phrase;

impl Findings for ConcurrencyLimit {
    /// The headline findings of a concurrency-limit run: for each gate how
    /// soon a freed slot went to the next job, the batch's time beside the
    /// time with instant handoffs, and the most jobs that ran at once; then
    /// how much longer the polling gate's batch took.
    fn findings(&self, clock: Option<ClockInfo>) -> Vec<Phrase> {
        let f = Figures::new(clock);
        let mut out = Vec::new();
        let ideal = self.config.ideal_batch_ms();
        for r in &self.runs {
            let Some(s) = r.outcome.summary() else {
                continue;
            };
            out.push(
                Phrase::new(key!("concurrency_limit.finding.gate"))
                    .phrase("what", r.gate.label())
                    .arg("p50", f.ms(s.p50))
                    .arg("max", f.ms(s.max))
                    .count("jobs", self.config.jobs)
                    .arg("batch", f.ms(r.batch_ms()))
                    .arg("ideal", f.ms(ideal))
                    .count("peak", r.peak())
                    .count("limit", self.config.limit),
            );
        }
        let batch = |polls: bool| {
            self.runs
                .iter()
                .find(|r| r.gate.polls() == polls && !r.spans.is_empty())
                .map(|r| (r.gate, r.batch_ms()))
        };
        if let (Some((semaphore, quick)), Some((polling, slow))) = (batch(false), batch(true)) {
            out.push(
                Phrase::new(key!("concurrency_limit.finding.longer"))
                    .phrase("polling", polling.label())
                    .phrase("semaphore", semaphore.label())
                    .arg("extra", f.ms(slow - quick)),
            );
        }
        f.finish(out)
    }
}
