//! Experiment 8's section: the configuration and each gate's batch: its
//! jobs' spans in job order (to [`SPAN_TICK_MS`]) for the chart, and the
//! sketch of its slots' handoffs (the codec's precision) for the numbers.

use crate::experiments::concurrency_limit::{ConcurrencyLimit, LimitConfig, LimitRun, Span};
use crate::link::LinkError;
use crate::link::wire::{Reader, SPAN_TICK_MS, Writer, ticks};

impl Writer {
    pub(crate) fn concurrency_limit(&mut self, c: &ConcurrencyLimit) {
        c.config.write(self);
        let handoffs = c.config.jobs.saturating_sub(c.config.limit);
        self.ways(
            &c.runs,
            |r| r.gate,
            |w, r| {
                w.len(r.spans.len());
                let mut start = 0;
                for s in &r.spans {
                    let (t0, t1) = (
                        ticks(s.start_ms, SPAN_TICK_MS),
                        ticks(s.end_ms, SPAN_TICK_MS),
                    );
                    w.ivar(t0 - start);
                    w.ivar(t1 - t0);
                    start = t0;
                }
                w.outcome(&r.outcome, handoffs);
            },
        );
    }
}

impl Reader<'_> {
    pub(crate) fn concurrency_limit(&mut self) -> Result<ConcurrencyLimit, LinkError> {
        let config = LimitConfig::read(self)?;
        let handoffs = config.jobs.saturating_sub(config.limit);
        let runs = self.ways(|r, gate| {
            let n = r.upto(u64::from(config.jobs))?;
            let mut start = 0i64;
            let spans = (0..n)
                .map(|_| {
                    start = start.saturating_add(r.ivar()?);
                    let end = start.saturating_add(r.ivar()?);
                    Ok(Span {
                        start_ms: start as f64 * SPAN_TICK_MS,
                        end_ms: end as f64 * SPAN_TICK_MS,
                    })
                })
                .collect::<Result<Vec<_>, LinkError>>()?;
            let outcome = r.outcome(handoffs)?;
            Ok(LimitRun {
                gate,
                spans,
                outcome,
            })
        })?;
        Ok(ConcurrencyLimit { config, runs })
    }
}
