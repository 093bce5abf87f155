//! Experiments 2a and 2b: each run's times and its whole timeline
//! (frames to [`TICK_MS`], job spans to [`SPAN_TICK_MS`]).

use super::LinkError;
use super::wire::{Reader, Writer, ticks};
use crate::starvation::{
    JobSpan, MainConfig, MainRun, MainStarvation, PoolConfig, PoolRun, PoolStarvation,
};

/// Resolution of timeline events (frames, job starts and ends), ms.
pub(super) const TICK_MS: f64 = 0.01;
/// Resolution of job spans (starts and ends), ms.
pub(super) const SPAN_TICK_MS: f64 = 0.1;

impl Writer {
    pub(super) fn main_starvation(&mut self, m: &MainStarvation) {
        self.uvar(u64::from(m.config.jobs));
        self.uvar(u64::from(m.config.wait_ms));
        self.len(m.runs.len());
        for run in &m.runs {
            self.flag(run.mode.is_async());
            self.q(run.batch_ms);
            self.q(run.timer_queue_wait_ms);
            self.q(run.message_queue_wait_ms);
            self.len(run.frames_ms.len());
            self.deltas(run.frames_ms.iter().map(|&f| ticks(f, TICK_MS)));
        }
    }

    pub(super) fn pool_starvation(&mut self, p: &PoolStarvation) {
        self.uvar(u64::from(p.config.workers));
        self.uvar(u64::from(p.config.jobs));
        self.uvar(u64::from(p.config.wait_ms));
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
    pub(super) fn main_starvation(&mut self) -> Result<MainStarvation, LinkError> {
        let config = MainConfig {
            jobs: self.upto(10_000)?,
            wait_ms: self.upto(100_000)?,
        };
        let n = self.upto(2)?;
        let runs = (0..n)
            .map(|_| {
                let mode = self.mode()?;
                let (batch_ms, timer_queue_wait_ms, message_queue_wait_ms) =
                    (self.q()?, self.q()?, self.q()?);
                let frames = self.upto(20_000)? as usize;
                let frames_ms = self
                    .deltas(frames)?
                    .into_iter()
                    .map(|t| t as f64 * TICK_MS)
                    .collect();
                Ok(MainRun {
                    mode,
                    batch_ms,
                    timer_queue_wait_ms,
                    message_queue_wait_ms,
                    frames_ms,
                })
            })
            .collect::<Result<Vec<_>, LinkError>>()?;
        Ok(MainStarvation { config, runs })
    }

    pub(super) fn pool_starvation(&mut self) -> Result<PoolStarvation, LinkError> {
        let config = PoolConfig {
            workers: self.upto(64)?,
            jobs: self.upto(10_000)?,
            wait_ms: self.upto(100_000)?,
        };
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
