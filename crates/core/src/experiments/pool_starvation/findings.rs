//! Experiment 2b's findings: what a reader should take away from
//! a run, derived from its numbers.

use crate::clock::ClockInfo;
use crate::experiments::Findings;
use crate::experiments::pool_starvation::PoolStarvation;
use crate::findings::Figures;
use crate::key;
use crate::text::Phrase;

impl Findings for PoolStarvation {
    /// The headline findings of a worker-pool starvation run.
    fn findings(&self, clock: Option<ClockInfo>) -> Vec<Phrase> {
        let f = Figures::new(clock);
        let c = &self.config;
        let out = self
            .runs
            .iter()
            .map(|run| {
                Phrase::new(key!("pool_starvation.finding.run"))
                    .count("jobs", c.jobs)
                    .count("wait", c.wait_ms)
                    .count("workers", c.workers)
                    .phrase("mode", run.mode.label())
                    .arg("batch", f.ms(run.batch_ms))
                    .arg("model", f.ms(c.expected_batch_ms(run.mode)))
                    .arg("extra", f.ms(run.extra_job_wait_ms))
            })
            .collect();
        f.finish(out)
    }
}
