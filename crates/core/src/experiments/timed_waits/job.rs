//! Experiment 1's worker job: one cell of waits by a worker mechanism; the
//! worker says how far it got (`Progress`) and answers with `Done`.

use super::Mechanism;
use crate::bytes::{Bytes, Damaged, Reader, Writer};
use crate::protocol::job::{HEARTBEAT_MS, Job, message, read_code};
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

/// On the wire, its code.
impl Bytes for Mechanism {
    fn write(&self, w: &mut Writer) {
        w.byte(self.code());
    }

    fn read(r: &mut Reader) -> Result<Self, Damaged> {
        read_code(r, Mechanism::from_code)
    }
}

message! {
    struct CellJob { job, mechanism, requested_ms, samples, sampling, step_ms }
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
