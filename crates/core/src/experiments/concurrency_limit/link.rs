//! Experiment 8's section: the configuration and each gate's batch: its
//! jobs' spans in job order (to [`SPAN_TICK_MS`]) for the chart, and the
//! sketch of its slots' handoffs (the codec's precision) for the numbers.

use crate::bytes::Bytes;
use crate::experiments::concurrency_limit::{ConcurrencyLimit, LimitConfig, LimitRun, Span};
use crate::link::codec::LinkError;
use crate::link::wire::{Reader, SPAN_TICK_MS, Section, Writer, ticks};

impl Section for ConcurrencyLimit {
    fn write(&self, w: &mut Writer) {
        self.config.write(w);
        let handoffs = self.config.jobs.saturating_sub(self.config.limit);
        w.ways(
            &self.runs,
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

    fn read(r: &mut Reader<'_>) -> Result<Self, LinkError> {
        let config = LimitConfig::read(r)?;
        let handoffs = config.jobs.saturating_sub(config.limit);
        let runs = r.ways(|r, gate| {
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
