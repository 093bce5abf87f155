//! Experiment 1's worker job: one cell of waits by a worker mechanism; the
//! worker says how far it got (`Progress`) and answers with `Done`.

use super::Mechanism;
use crate::bytes::{Bytes, Damaged, Reader, Writer};
use crate::protocol::job::{HEARTBEAT_MS, Job, read_code, read_u32};
use crate::sampling::Sampling;

/// Measure `samples` waits of `requested_ms` with `mechanism`.
#[derive(Debug, Clone, PartialEq)]
pub struct CellJob {
    /// Echoed in every reply about this job.
    pub job: u32,
    /// A worker mechanism.
    pub mechanism: Mechanism,
    /// Requested wait, ms.
    pub requested_ms: u32,
    /// How many waits: exactly these, or at most these when sampling
    /// stops once the median is known.
    pub samples: u32,
    /// How many samples it takes.
    pub sampling: Sampling,
    /// The page's clock step, ms, for the stopping rule.
    pub step_ms: f64,
}

impl Bytes for CellJob {
    fn write(&self, w: &mut Writer) {
        w.uvar(u64::from(self.job));
        w.byte(self.mechanism.code());
        w.uvar(u64::from(self.requested_ms));
        w.uvar(u64::from(self.samples));
        w.flag(self.sampling == Sampling::Adaptive);
        w.f64(self.step_ms);
    }

    fn read(r: &mut Reader) -> Result<Self, Damaged> {
        Ok(CellJob {
            job: read_u32(r)?,
            mechanism: read_code(r, Mechanism::from_code)?,
            requested_ms: read_u32(r)?,
            samples: read_u32(r)?,
            sampling: if r.flag()? {
                Sampling::Adaptive
            } else {
                Sampling::Fixed
            },
            step_ms: r.f64()?,
        })
    }
}

impl Job for CellJob {
    const OF: &'static str = "timed_waits";

    /// A cell says how far it got after the first sample that ends
    /// HEARTBEAT_MS after its last word; a sample is the wait, a clamped
    /// timer or a raced waitAsync.
    fn longest_silence_ms(&self) -> u32 {
        self.requested_ms
            .saturating_add(100)
            .saturating_add(HEARTBEAT_MS)
    }
}
