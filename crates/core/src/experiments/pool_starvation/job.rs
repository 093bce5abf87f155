//! Experiment 2b's worker job: one job of the pool, waiting blocked or
//! not, answered with its span.

use crate::bytes::{Bytes, Damaged, Reader, Writer};
use crate::experiments::JobMode;
use crate::protocol::job::{Job, read_u32};

/// Wait `wait_ms`, blocking the worker or not, then say when it ran.
#[derive(Debug, Clone, PartialEq)]
pub struct PoolJob {
    /// Echoed in the reply.
    pub job: u32,
    /// How to wait.
    pub mode: JobMode,
    /// How long, ms.
    pub wait_ms: u32,
}

impl Bytes for PoolJob {
    fn write(&self, w: &mut Writer) {
        w.uvar(u64::from(self.job));
        w.flag(self.mode.is_async());
        w.uvar(u64::from(self.wait_ms));
    }

    fn read(r: &mut Reader) -> Result<Self, Damaged> {
        Ok(PoolJob {
            job: read_u32(r)?,
            mode: JobMode::from_flag(r.flag()?),
            wait_ms: read_u32(r)?,
        })
    }
}

impl Job for PoolJob {
    const OF: &'static str = "pool_starvation";

    fn longest_silence_ms(&self) -> u32 {
        self.wait_ms
    }
}

/// A pool job finished. Times are `timeOrigin + now()` of the worker, ms
/// since the Unix epoch.
#[derive(Debug, Clone, PartialEq)]
pub struct JobDone {
    /// The job.
    pub job: u32,
    /// When it started.
    pub start_ms: f64,
    /// When it finished.
    pub end_ms: f64,
}

impl Bytes for JobDone {
    fn write(&self, w: &mut Writer) {
        w.uvar(u64::from(self.job));
        w.f64(self.start_ms);
        w.f64(self.end_ms);
    }

    fn read(r: &mut Reader) -> Result<Self, Damaged> {
        Ok(JobDone {
            job: read_u32(r)?,
            start_ms: r.f64()?,
            end_ms: r.f64()?,
        })
    }
}
