//! Experiment 9's findings: what a reader should take away from
//! a run, derived from its numbers.

use crate::clock::ClockInfo;
use crate::experiments::Findings;
use crate::experiments::producer_consumer::ProducerConsumer;
use crate::findings::{Figures, skew};
use crate::key;
use crate::text::{Arg, Phrase};

impl Findings for ProducerConsumer {
    /// The headline findings of a handoff run: how soon each channel's
    /// consumer had an item sent one by one, how many a second went through
    /// in a burst, and how much longer a polling consumer left items waiting
    /// than the fastest woken one.
    fn findings(&self, clock: Option<ClockInfo>) -> Vec<Phrase> {
        let f = Figures::new(clock);
        let mut out = Vec::new();
        let (mut latencies, mut rates) = (Vec::new(), Vec::new());
        for r in &self.runs {
            let Some(s) = r.outcome.summary() else {
                continue;
            };
            latencies.push(
                Phrase::new(key!("producer_consumer.finding.latency_item"))
                    .phrase("what", r.channel.label())
                    .arg("p50", f.ms(s.p50))
                    .arg("p99", f.ms(s.p99)),
            );
            if let Some((rate, burst_ms)) = r.items_per_s(self.config.burst).zip(r.burst_ms) {
                // A rate is only as resolved as the burst's time.
                let (key, marked) = (
                    key!("producer_consumer.finding.rate_item"),
                    key!("producer_consumer.finding.rate_item_marked"),
                );
                rates.push(
                    f.derived(burst_ms, key, marked)
                        .phrase("what", r.channel.label())
                        .count("rate", rate.round() as u64),
                );
            }
        }
        if !latencies.is_empty() {
            out.push(
                Phrase::new(key!("producer_consumer.finding.latencies"))
                    .arg("items", Arg::List(latencies)),
            );
        }
        if !rates.is_empty() {
            out.push(
                Phrase::new(key!("producer_consumer.finding.rates"))
                    .count("burst", self.config.burst)
                    .arg("rates", Arg::List(rates)),
            );
        }
        if let Some((polling, woken, woken_p50, times)) = self.polling_ratio() {
            // A ratio is only as resolved as the time it divides by.
            let (key, marked) = (
                key!("producer_consumer.finding.polling"),
                key!("producer_consumer.finding.polling_marked"),
            );
            out.push(
                f.derived(woken_p50, key, marked)
                    .phrase("polling", polling.label())
                    .phrase("woken", woken.label())
                    .arg("times", Arg::Fixed(times, 0)),
            );
        }
        out.push(skew(self.skew_ms));
        f.finish(out)
    }
}
