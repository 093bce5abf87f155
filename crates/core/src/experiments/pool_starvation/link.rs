//! Experiment 2b's section: each run's times and its job spans (to
//! [`SPAN_TICK_MS`]).

use crate::experiments::pool_starvation::{JobSpan, PoolConfig, PoolRun, PoolStarvation};
use crate::link::LinkError;
use crate::link::wire::{Reader, SPAN_TICK_MS, Writer, ticks};

impl Writer {
    pub(crate) fn pool_starvation(&mut self, p: &PoolStarvation) {
        p.config.write(self);
        self.byte(u8::from(p.blocking_sleeps));
        self.len(p.runs.len());
        for run in &p.runs {
            self.flag(run.mode.is_async());
            self.q(run.batch_ms);
            self.q(run.extra_job_wait_ms);
            self.len(run.spans.len());
            let (mut job, mut start) = (0i64, 0i64);
            for s in &run.spans {
                self.uvar(u64::from(s.worker));
                self.ivar(i64::from(s.job) - job);
                let (t0, t1) = (
                    ticks(s.start_ms, SPAN_TICK_MS),
                    ticks(s.end_ms, SPAN_TICK_MS),
                );
                self.ivar(t0 - start);
                self.ivar(t1 - t0);
                (job, start) = (i64::from(s.job), t0);
            }
        }
    }
}

impl Reader<'_> {
    pub(crate) fn pool_starvation(&mut self) -> Result<PoolStarvation, LinkError> {
        let config = PoolConfig::read(self)?;
        let blocking_sleeps = self.flag()?;
        let n = self.upto(2)?;
        let runs = (0..n)
            .map(|_| {
                let mode = self.mode()?;
                let (batch_ms, extra_job_wait_ms) = (self.q()?, self.q()?);
                let spans = self.upto(u64::from(config.jobs))?;
                let (mut job, mut start) = (0i64, 0i64);
                let spans = (0..spans)
                    .map(|_| {
                        let worker = self.upto(64)?;
                        job = job.saturating_add(self.ivar()?);
                        start = start.saturating_add(self.ivar()?);
                        let end = start.saturating_add(self.ivar()?);
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
