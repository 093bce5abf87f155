//! Experiment 7's findings: what a reader should take away from
//! a run, derived from its numbers.

use crate::clock::ClockInfo;
use crate::experiments::Findings;
use crate::experiments::periodic_work::{PeriodicResult, PeriodicWork, Scheduler};
use crate::findings::Figures;
use crate::key;
use crate::text::{Arg, Phrase};

impl Findings for PeriodicWork {
    /// The headline findings of a periodic-work run: how far behind its
    /// schedule each loop ended, on the main thread and in a worker; how much
    /// a loop that waits after its work slipped a tick, beside the work's
    /// mean; and how close the corrected schedule kept.
    fn findings(&self, clock: Option<ClockInfo>) -> Vec<Phrase> {
        let f = Figures::new(clock);
        let mut out = Vec::new();
        let measured = |schedulers: [Scheduler; 3]| -> Vec<&PeriodicResult> {
            schedulers
                .iter()
                .filter_map(|s| self.results.iter().find(|r| r.scheduler == *s))
                .filter(|r| r.drift_ms().is_some())
                .collect()
        };
        let places = [
            (Scheduler::MAIN, key!("periodic_work.place.main")),
            (Scheduler::WORKER, key!("periodic_work.place.worker")),
        ];
        for (schedulers, place) in places {
            let results = measured(schedulers);
            let items: Vec<Phrase> = results
                .iter()
                .filter_map(|r| {
                    let (drift, schedule) = (r.drift_ms()?, r.scheduler.schedule()?);
                    Some(
                        Phrase::new(key!("periodic_work.finding.item"))
                            .phrase("what", schedule.label())
                            .arg("drift", f.ms(drift)),
                    )
                })
                .collect();
            if items.is_empty() {
                continue;
            }
            out.push(
                Phrase::new(key!("periodic_work.finding.drift"))
                    .phrase("where", Phrase::new(place))
                    .count("ticks", self.config.ticks)
                    .arg("items", Arg::List(items)),
            );
        }
        let all: Vec<&PeriodicResult> = measured(Scheduler::MAIN)
            .into_iter()
            .chain(measured(Scheduler::WORKER))
            .collect();
        // Each tick but the last delays the next by its work.
        let work = self.config.work_us();
        let delaying = &work[..work.len().saturating_sub(1)];
        let mean_work_ms = delaying.iter().map(|&w| f64::from(w)).sum::<f64>()
            / 1000.0
            / delaying.len().max(1) as f64;
        let chained = all.iter().find_map(|r| {
            let lateness = r.outcome.samples()?;
            (r.scheduler.waits_after_work() && lateness.len() > 1).then_some((r, lateness))
        });
        if let Some((r, lateness)) = chained {
            let (first, last) = (lateness[0], lateness[lateness.len() - 1]);
            out.push(
                Phrase::new(key!("periodic_work.finding.chained"))
                    .phrase("what", r.scheduler.label())
                    .arg("slip", f.ms((last - first) / (lateness.len() - 1) as f64))
                    .arg("work", f.ms(mean_work_ms)),
            );
        }
        let corrected = all.iter().find_map(|r| {
            let corrected = r.scheduler.schedule()
                == Some(crate::experiments::periodic_work::Schedule::Corrected);
            corrected.then_some((r, r.outcome.summary()?))
        });
        if let Some((r, s)) = corrected {
            out.push(
                Phrase::new(key!("periodic_work.finding.corrected"))
                    .phrase("what", r.scheduler.label())
                    .arg("p50", f.ms(s.p50))
                    .count(
                        "late",
                        r.late_ticks(self.config.interval_ms).unwrap_or(0) as u64,
                    )
                    .count("ticks", s.n),
            );
        }
        f.finish(out)
    }
}
