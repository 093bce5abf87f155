//! Experiment 2a's findings: what a reader should take away from
//! a run, derived from its numbers.

use crate::clock::ClockInfo;
use crate::experiments::Findings;
use crate::experiments::main_starvation::MainStarvation;
use crate::findings::Figures;
use crate::key;
use crate::text::Phrase;

impl Findings for MainStarvation {
    /// The headline findings of a main-thread starvation run.
    fn findings(&self, clock: Option<ClockInfo>) -> Vec<Phrase> {
        let f = Figures::new(clock);
        let out = self
            .runs
            .iter()
            .map(|run| {
                Phrase::new(key!("main_starvation.finding.run"))
                    .count("jobs", self.config.jobs)
                    .count("wait", self.config.wait_ms)
                    .phrase("mode", run.mode.label())
                    .arg("batch", f.ms(run.batch_ms))
                    .arg("expected", f.ms(self.config.expected_batch_ms(run.mode)))
                    .arg("timer", f.ms(run.timer_queue_wait_ms))
                    .arg("message", f.ms(run.message_queue_wait_ms))
                    .arg("gap", f.ms(run.longest_frame_gap()))
            })
            .collect();
        f.finish(out)
    }
}
