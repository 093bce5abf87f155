//! The message protocol between the page and its probe worker.
//!
//! Every message is bytes (`encode`/`decode`, in `codec`), posted in a
//! transferred `Uint8Array`, except three: right after the worker says
//! [`FromWorker::Ready`] the page may post the run's `SharedArrayBuffer`
//! and a `MessagePort` themselves, and the worker's loader script says
//! `"loading"` and `"loaded"` as plain strings ([`FromWorker::from_loader`])
//! before and after the wasm starts. The worker never receives work before
//! it said `Ready`. [`PROTOCOL_VERSION`] travels in `Ready` so a stale
//! cached worker is detected instead of misread.
//!
//! Bytes, not JSON: the worker then links no serializer at all, the page
//! parses no text while a probe measures, and samples cross exactly.

use crate::bytes::{Bytes, Reader};
use crate::experiments::Experiment;
use crate::outcome::Outcome;

mod codec;
pub mod job;

pub use job::{HEARTBEAT_MS, Job};

/// Version of this protocol; bump on any change of the message shapes.
pub const PROTOCOL_VERSION: u32 = 14;

/// How long past its expected silence a worker may stay quiet before the
/// page takes it for dead, ms: a crashed, hung or muted worker ends in a
/// message this long after its next reply was due, never in a hang.
pub const GRACE_MS: u32 = 1_000;

/// Layout of the shared memory the page posts to its workers: one
/// `SharedArrayBuffer` seen as an `Int32Array` (the `i32` slots) and as a
/// `Float64Array` (the `f64` slots, which sit past every `i32` slot).
pub mod shared_slots {
    /// A slot that always holds 0: `Atomics.wait` on it sleeps until the
    /// timeout, which is what a timed wait needs.
    pub const SLEEP: u32 = 0;
    /// Wake latency: the flag the setter raises (0 down, 1 up); the
    /// cancel word of experiment 6.
    pub const FLAG: u32 = 1;
    /// Wake latency: the round the waiter is ready for (round + 1); a
    /// handoff's consumer's go (1, once it has reset the ring's counters).
    pub const GO: u32 = 2;
    /// Skew exchange: the exchange the waiter started (k + 1).
    pub const PING: u32 = 3;
    /// Skew exchange: the exchange the setter answered (k + 1).
    pub const PONG: u32 = 4;
    /// `f64` slot: when the setter raised the flag (its epoch ms).
    pub const T_SET: u32 = 4;
    /// `f64` slot: when the setter saw the ping.
    pub const B_RECV: u32 = 5;
    /// `f64` slot: when the setter answered.
    pub const B_SEND: u32 = 6;
    /// Experiment 9: items the producer has put in the ring.
    pub const WRITTEN: u32 = 5;
    /// Experiment 9: items the consumer has taken from the ring.
    pub const TAKEN: u32 = 6;
    /// `f64` slot: the ring buffer's first item (the producer's stamp),
    /// [`crate::experiments::producer_consumer::RING_CAPACITY`] of them; item `i` sits in slot
    /// `RING + i % RING_CAPACITY`.
    pub const RING: u32 = 8;
    /// Number of `i32` slots the page allocates: 64 bytes and the ring.
    pub const LEN: u32 = 2 * (RING + crate::experiments::producer_consumer::RING_CAPACITY);
}

/// A request from the page.
#[derive(Debug, Clone, PartialEq)]
pub enum ToWorker {
    /// A job of one experiment (its folder's `job.rs`, a [`Job`]), as
    /// bytes, which the worker hands to that experiment's probe.
    Job {
        /// Whose job it is.
        experiment: Experiment,
        /// How long a healthy worker stays silent doing it, ms
        /// ([`Job::longest_silence_ms`]).
        silence_ms: u32,
        /// The job, as its [`Bytes`].
        body: Vec<u8>,
    },
    /// Skew exchange, setter side: answer `exchanges` pings.
    SkewPong {
        /// How many.
        exchanges: u32,
    },
    /// Skew exchange, waiter side: send `exchanges` pings and report the
    /// four timestamps of each.
    SkewPing {
        /// How many.
        exchanges: u32,
    },
    /// One clock exchange with the page: answer at once with
    /// [`FromWorker::ClockPong`], so the page can put the worker's stamps on
    /// its own clock (`wake::skew_ms`).
    ClockPing,
}

/// A reply from the worker.
#[derive(Debug, Clone, PartialEq)]
pub enum FromWorker {
    /// A sign of life from the worker's loader script while the wasm
    /// loads (posted every [`LOADING_BEAT_MS`] from its first line).
    Loading,
    /// The loader saw the wasm start. `Ready` comes before it from a
    /// healthy worker, so `Loaded` without `Ready` is a broken worker.
    Loaded,
    /// The worker has loaded and accepts work.
    Ready {
        /// The worker's [`PROTOCOL_VERSION`].
        protocol: u32,
    },
    /// A sign of life during a cell, at most every [`HEARTBEAT_MS`]:
    /// `done` of the job's samples are measured.
    Progress {
        /// The job.
        job: u32,
        /// Samples measured so far.
        done: u32,
    },
    /// The waiter's raw set→noticed times (its clock minus the setter's),
    /// ms, of a pair's rounds (wake latency, cancellable waits); or why it
    /// could not run.
    WakeDone {
        /// One per round.
        result: Result<Vec<f64>, String>,
    },
    /// The setter finished its rounds (or its pongs).
    SetterDone {
        /// Whether it could.
        result: Result<(), String>,
    },
    /// The skew exchanges: `[a_send, b_recv, b_send, a_recv]` each.
    SkewDone {
        /// The exchanges, or why there are none.
        result: Result<Vec<[f64; 4]>, String>,
    },
    /// The answer to [`ToWorker::ClockPing`]: when the worker received it
    /// and when it answered, `timeOrigin + now()` of the worker.
    ClockPong {
        /// When the ping arrived.
        received_ms: f64,
        /// When the pong left.
        sent_ms: f64,
    },
    /// An experiment's own reply to its job (its folder's `job.rs`), as
    /// bytes: the pool's job spans, the ladder, the consumer's times.
    Reply {
        /// The reply, as its [`Bytes`].
        body: Vec<u8>,
    },
    /// What the worker recorded for the run's timeline since its last
    /// `Trace` ([`crate::trace`]'s records), sent after a job and before
    /// its last reply, so the page reads it outside any measured wait.
    Trace {
        /// Flat records, [`crate::trace::RECORD`] numbers each.
        records: Vec<f64>,
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
#[derive(Debug, Clone, PartialEq)]
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
            WorkerOutcome::Samples { samples_ms } => Outcome::of_samples(samples_ms),
            WorkerOutcome::TimeoutNeverFired { waited_ms } => {
                Outcome::TimeoutNeverFired { waited_ms }
            }
            WorkerOutcome::Failed { message } => Outcome::Failed { message },
        }
    }
}

/// How often the loader script says [`FromWorker::Loading`], ms.
pub const LOADING_BEAT_MS: u32 = 250;

/// Why a message could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("unreadable worker message: {0}")]
pub struct ProtocolError(pub &'static str);

impl From<crate::bytes::Damaged> for ProtocolError {
    fn from(d: crate::bytes::Damaged) -> Self {
        ProtocolError(d.0)
    }
}

impl ToWorker {
    /// `job`, for its experiment's probe in the worker.
    pub fn job<J: Job>(job: &J) -> ToWorker {
        ToWorker::Job {
            experiment: Experiment::ALL
                .into_iter()
                .find(|e| e.id() == J::OF)
                .expect("a job names an experiment of the list"),
            silence_ms: job.longest_silence_ms(),
            body: job.to_bytes(),
        }
    }

    /// The longest a healthy worker stays silent while doing this job, ms:
    /// the time to its first (or next) reply when nothing goes wrong. The
    /// page waits this plus [`GRACE_MS`] before it gives up on a worker.
    pub fn longest_silence_ms(&self) -> u32 {
        match self {
            ToWorker::Job { silence_ms, .. } => *silence_ms,
            ToWorker::SkewPong { exchanges } | ToWorker::SkewPing { exchanges } => {
                exchanges.saturating_mul(job::ROUND_MS)
            }
            ToWorker::ClockPing => 0,
        }
    }
}

/// Reads a message, or the body of a [`ToWorker::Job`] or a
/// [`FromWorker::Reply`], as what it should be: all of it, and nothing
/// else.
pub fn read_body<T: Bytes>(body: &[u8]) -> Result<T, ProtocolError> {
    let mut r = Reader::new(body);
    let value = T::read(&mut r)?;
    r.finish()?;
    Ok(value)
}

impl FromWorker {
    /// `reply`, an experiment's own, for its runner on the page.
    pub fn reply<T: Bytes>(reply: &T) -> FromWorker {
        FromWorker::Reply {
            body: reply.to_bytes(),
        }
    }

    /// The kind of message, for an error that names an unexpected one.
    pub fn name(&self) -> &'static str {
        match self {
            FromWorker::Loading => "loading",
            FromWorker::Loaded => "loaded",
            FromWorker::Ready { .. } => "ready",
            FromWorker::Progress { .. } => "progress",
            FromWorker::WakeDone { .. } => "wake done",
            FromWorker::SetterDone { .. } => "setter done",
            FromWorker::SkewDone { .. } => "skew done",
            FromWorker::ClockPong { .. } => "clock pong",
            FromWorker::Reply { .. } => "reply",
            FromWorker::Trace { .. } => "trace",
            FromWorker::Done { .. } => "done",
        }
    }

    /// What the worker's loader script (`www/worker_loader.js`) says as a
    /// plain string: `"loading"` while the wasm loads, `"loaded"` once it
    /// started.
    pub fn from_loader(word: &str) -> Result<Self, ProtocolError> {
        match word {
            "loading" => Ok(FromWorker::Loading),
            "loaded" => Ok(FromWorker::Loaded),
            _ => Err(ProtocolError("a text message that is not the loader's")),
        }
    }
}

#[cfg(test)]
mod tests;
