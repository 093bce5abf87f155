//! Experiment 2b's section: each run's times and its job spans (to
//! [`SPAN_TICK_MS`]).

use crate::bytes::Bytes;
use crate::experiments::JobMode;
use crate::experiments::pool_starvation::{JobSpan, PoolConfig, PoolRun, PoolStarvation};
use crate::link::codec::LinkError;
use crate::link::wire::{Reader, SPAN_TICK_MS, Section, Writer, ticks};

impl Section for PoolStarvation {
    fn write(&self, w: &mut Writer) {
        self.config.write(w);
        w.byte(u8::from(self.blocking_sleeps));
        w.len(self.runs.len());
        for run in &self.runs {
            w.flag(run.mode.is_async());
            w.q(run.batch_ms);
            w.q(run.extra_job_wait_ms);
            w.len(run.spans.len());
            let (mut job, mut start) = (0i64, 0i64);
            for s in &run.spans {
                w.uvar(u64::from(s.worker));
                w.ivar(i64::from(s.job) - job);
                let (t0, t1) = (
                    ticks(s.start_ms, SPAN_TICK_MS),
                    ticks(s.end_ms, SPAN_TICK_MS),
                );
                w.ivar(t0 - start);
                w.ivar(t1 - t0);
                (job, start) = (i64::from(s.job), t0);
            }
        }
    }

    fn read(r: &mut Reader<'_>) -> Result<Self, LinkError> {
        let config = PoolConfig::read(r)?;
        let blocking_sleeps = r.flag()?;
        let n = r.upto(2)?;
        let runs = (0..n)
            .map(|_| {
                let mode = JobMode::from_flag(r.flag()?);
                let (batch_ms, extra_job_wait_ms) = (r.q()?, r.q()?);
                // Its jobs' spans, and the extra job's queued behind them
                // (a browser's run keeps it).
                let spans = r.upto(u64::from(config.jobs) + 1)?;
                let (mut job, mut start) = (0i64, 0i64);
                let spans = (0..spans)
                    .map(|_| {
                        let worker = r.upto(64)?;
                        job = job.saturating_add(r.ivar()?);
                        start = start.saturating_add(r.ivar()?);
                        let end = start.saturating_add(r.ivar()?);
                        Ok(JobSpan {
                            worker,
                            job: u32::try_from(job).map_err(|_| LinkError::Damaged("a bad job"))?,
                            start_ms: start as f64 * SPAN_TICK_MS,
                            end_ms: end as f64 * SPAN_TICK_MS,
                        })
                    })
                    .collect::<Result<Vec<_>, LinkError>>()?;
                Ok(PoolRun {
                    mode,
                    batch_ms,
                    extra_job_wait_ms,
                    spans,
                })
            })
            .collect::<Result<Vec<_>, LinkError>>()?;
        Ok(PoolStarvation {
            config,
            runs,
            blocking_sleeps,
        })
    }
}
