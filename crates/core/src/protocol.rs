//! The message protocol between the page and its probe worker.
//!
//! Every message is a JSON string (this module's types, serialized with
//! serde), except one: right after the worker says [`FromWorker::Ready`] the
//! page may post the run's `SharedArrayBuffer` itself, which cannot travel
//! inside JSON. The worker never receives work before it said `Ready`.
//! [`PROTOCOL_VERSION`] travels in `Ready` so a stale cached worker is
//! detected instead of misread.

use crate::ladder::{LadderConfig, SpinUntil};
use crate::probe::Mechanism;
use crate::schema::Outcome;
use crate::starvation::JobMode;
use serde::{Deserialize, Serialize};

/// Version of this protocol; bump on any change of the message shapes.
pub const PROTOCOL_VERSION: u32 = 1;

/// Layout of the shared `Int32Array` the page posts to the worker.
pub mod shared_slots {
    /// A slot that always holds 0: `Atomics.wait` on it sleeps until the
    /// timeout, which is what a timed wait needs.
    pub const SLEEP: u32 = 0;
    /// Number of `i32` slots the page allocates.
    pub const LEN: u32 = 4;
}

/// A request from the page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToWorker {
    /// Measure `samples` waits of `requested_ms` with `mechanism`.
    Run {
        /// Echoed in every reply about this job.
        job: u32,
        /// A worker mechanism.
        mechanism: Mechanism,
        /// Requested wait, ms.
        requested_ms: u32,
        /// How many waits.
        samples: u32,
    },
    /// One job of the pool experiment: wait `wait_ms`, blocking the
    /// worker or not, then report its span.
    PoolJob {
        /// Echoed in the reply.
        job: u32,
        /// How to wait.
        mode: JobMode,
        /// How long, ms.
        wait_ms: u32,
    },
    /// Walk the `SpinOnce` ladder and run the spin-untils.
    Ladder {
        /// What to measure.
        config: LadderConfig,
    },
}

/// A reply from the worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromWorker {
    /// The worker has loaded and accepts work.
    Ready {
        /// The worker's [`PROTOCOL_VERSION`].
        protocol: u32,
    },
    /// `done` of the job's samples are measured.
    Progress {
        /// The job.
        job: u32,
        /// Samples measured so far.
        done: u32,
    },
    /// A pool job finished. Times are `timeOrigin + now()` of the
    /// worker, ms since the Unix epoch.
    JobDone {
        /// The job.
        job: u32,
        /// When it started.
        start_ms: f64,
        /// When it finished.
        end_ms: f64,
    },
    /// The ladder finished (or could not run).
    LadderDone {
        /// `costs[c]` holds the cost of call number `c` in every repeat, ms;
        /// or why the ladder could not run.
        result: Result<(Vec<Vec<f64>>, Vec<SpinUntil>), String>,
    },
    /// The job finished.
    Done {
        /// The job.
        job: u32,
        /// Its outcome.
        outcome: WorkerOutcome,
    },
}

/// What a worker job produced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WorkerOutcome {
    /// Every sample, ms.
    Samples {
        /// The measured waits.
        samples_ms: Vec<f64>,
    },
    /// The mechanism's own timeout never fired; a fallback timer ended the
    /// wait after `waited_ms` and the job stopped.
    TimeoutNeverFired {
        /// How long the worker waited before giving up.
        waited_ms: f64,
    },
    /// The mechanism failed or is missing in this worker.
    Failed {
        /// A message for the page.
        message: String,
    },
}

impl WorkerOutcome {
    /// The schema's outcome for this reply (statistics computed here).
    pub fn into_outcome(self) -> Outcome {
        match self {
            WorkerOutcome::Samples { samples_ms } => {
                Outcome::measured(samples_ms).unwrap_or_else(|e| Outcome::Failed {
                    message: e.to_string(),
                })
            }
            WorkerOutcome::TimeoutNeverFired { waited_ms } => {
                Outcome::TimeoutNeverFired { waited_ms }
            }
            WorkerOutcome::Failed { message } => Outcome::Failed { message },
        }
    }
}

/// Why a message could not be read.
#[derive(Debug, thiserror::Error)]
#[error("unreadable worker message: {0}")]
pub struct ProtocolError(#[from] serde_json::Error);

impl ToWorker {
    /// Serializes for `postMessage`.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("ToWorker always serializes")
    }

    /// Parses a message the page posted.
    pub fn from_json(s: &str) -> Result<Self, ProtocolError> {
        Ok(serde_json::from_str(s)?)
    }
}

impl FromWorker {
    /// Serializes for `postMessage`.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("FromWorker always serializes")
    }

    /// Parses a message the worker posted.
    pub fn from_json(s: &str) -> Result<Self, ProtocolError> {
        Ok(serde_json::from_str(s)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_messages() {
        let run = ToWorker::Run {
            job: 3,
            mechanism: Mechanism::WorkerAtomicsWait,
            requested_ms: 10,
            samples: 200,
        };
        let json = run.to_json();
        assert_eq!(
            json,
            r#"{"type":"run","job":3,"mechanism":"worker_atomics_wait","requested_ms":10,"samples":200}"#
        );
        assert_eq!(ToWorker::from_json(&json).unwrap(), run);
        let done = FromWorker::Done {
            job: 3,
            outcome: WorkerOutcome::TimeoutNeverFired { waited_ms: 60.5 },
        };
        assert_eq!(
            done.to_json(),
            r#"{"type":"done","job":3,"outcome":{"kind":"timeout_never_fired","waited_ms":60.5}}"#
        );
        assert_eq!(FromWorker::from_json(&done.to_json()).unwrap(), done);
        assert!(FromWorker::from_json("{\"type\":\"nope\"}").is_err());
    }
}
