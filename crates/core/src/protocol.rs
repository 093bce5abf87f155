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

use crate::experiments::JobMode;
use crate::experiments::cancel_waits;
use crate::experiments::periodic_work;
use crate::experiments::producer_consumer::{Channel, RawChannelRun};
use crate::experiments::spin_ladder::{LadderConfig, SpinLadder};
use crate::experiments::timed_waits::Mechanism;
use crate::experiments::wake_latency::Strategy;
use crate::outcome::Outcome;
use crate::sampling::Sampling;

mod codec;

/// How often, at most, a worker measuring a cell says how far it got, ms:
/// seldom, since each message makes the page parse and draw while the
/// worker measures (every 50 ms showed in the worker's p90 on two cores),
/// and often enough that a hung worker is noticed within seconds.
pub const HEARTBEAT_MS: u32 = 1000;

/// Version of this protocol; bump on any change of the message shapes.
pub const PROTOCOL_VERSION: u32 = 12;

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
    /// Measure `samples` waits of `requested_ms` with `mechanism`.
    Run {
        /// Echoed in every reply about this job.
        job: u32,
        /// A worker mechanism.
        mechanism: Mechanism,
        /// Requested wait, ms.
        requested_ms: u32,
        /// How many waits: exactly these, or at most these when sampling
        /// stops once the median is known.
        samples: u32,
        /// How many samples it takes.
        sampling: Sampling,
        /// The page's clock step, ms, for the stopping rule.
        step_ms: f64,
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
    /// Wake latency, setter side: for each round wait for the waiter's
    /// go, busy-wait the round's delay, then raise the flag (or post on
    /// the transferred port, for the postMessage strategy).
    WakeSet {
        /// How the waiter will notice.
        strategy: Strategy,
        /// The delay before each round, µs.
        delays_us: Vec<u32>,
    },
    /// Wake latency, waiter side: `rounds` rounds noticing the flag by
    /// `strategy`.
    WakeWait {
        /// How to notice.
        strategy: Strategy,
        /// How many rounds.
        rounds: u32,
    },
    /// Cancellable waits, canceller side: as [`ToWorker::WakeSet`], the
    /// delays being the cancel points (the flag raised, or the stamp
    /// posted for the strategy that is cancelled by a message).
    CancelSet {
        /// How the waiter waits.
        strategy: cancel_waits::Strategy,
        /// When to cancel each round, µs after the waiter's go.
        points_us: Vec<u32>,
        /// How long each of the waiter's waits asks for, ms (the canceller
        /// hears nothing from the waiter for that long).
        wait_ms: u32,
    },
    /// Cancellable waits, waiter side: `rounds` waits of `wait_ms` by
    /// `strategy`, each cancelled by the canceller; the reply is
    /// [`FromWorker::WakeDone`] with each round's raw cancel→free time.
    CancelWait {
        /// How to wait.
        strategy: cancel_waits::Strategy,
        /// How many rounds.
        rounds: u32,
        /// How long each wait asks for, ms.
        wait_ms: u32,
    },
    /// Periodic work: `work_us.len()` ticks every `interval_ms`, each
    /// busy for its work, scheduled by `scheduler` (a worker's); the
    /// reply is [`FromWorker::Done`] with each tick's lateness as samples.
    Periodic {
        /// How the ticks are scheduled.
        scheduler: periodic_work::Scheduler,
        /// The interval, ms.
        interval_ms: u32,
        /// Each tick's work, µs.
        work_us: Vec<u32>,
    },
    /// Experiment 9, producer side: after the consumer's go, each paced item
    /// after its pause (busy), then `burst` items back to back, by
    /// `channel`; the reply is [`FromWorker::SetterDone`].
    Produce {
        /// How the items travel.
        channel: Channel,
        /// The pause before each paced item, µs.
        gaps_us: Vec<u32>,
        /// Items sent back to back after them.
        burst: u32,
    },
    /// Experiment 9, consumer side: take `items` paced items and then `burst`
    /// items by `channel`; the reply is [`FromWorker::ProducerConsumerDone`].
    Consume {
        /// How the items travel.
        channel: Channel,
        /// Paced items.
        items: u32,
        /// Items of the burst.
        burst: u32,
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
    /// Walk the `SpinOnce` ladder and run the spin-untils.
    Ladder {
        /// What to measure.
        config: LadderConfig,
    },
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
    /// The waiter's raw set→noticed times (its clock minus the setter's),
    /// ms, of wake latency or cancellable waits; or why it could not run.
    WakeDone {
        /// One per round.
        result: Result<Vec<f64>, String>,
    },
    /// The consumer's raw times (its clock minus the producer's), or why
    /// it could not run.
    ProducerConsumerDone {
        /// The paced items' latencies and the burst's time.
        result: Result<RawChannelRun, String>,
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
    /// The ladder finished (or could not run).
    LadderDone {
        /// The measured ladder, or why it could not run.
        result: Result<SpinLadder, String>,
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

/// Rounds of wake latency or skew exchanges take at most this long each
/// (the largest random delay, a timer-polled wake, and the handshake), ms.
const ROUND_MS: u32 = 25;

/// The longest pause between paced items the page asks for, µs.
const MAX_GAP_US: u32 =
    crate::experiments::producer_consumer::ProducerConsumerConfig::MAX_GAP_MS * 1500;

/// How long a run of experiment 9 may keep a side busy, ms: its pauses (`gaps_us`
/// in all), a round's slack for each polled ring full of the burst, and
/// the start.
fn producer_consumer_ms(gaps_us: u32, burst: u32) -> u32 {
    (gaps_us / 1000)
        .saturating_add(
            (burst / crate::experiments::producer_consumer::RING_CAPACITY + 1)
                .saturating_mul(ROUND_MS),
        )
        .saturating_add(1000)
}

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
    /// The longest a healthy worker stays silent while doing this job, ms:
    /// the time to its first (or next) reply when nothing goes wrong. The
    /// page waits this plus [`GRACE_MS`] before it gives up on a worker.
    pub fn longest_silence_ms(&self) -> u32 {
        match self {
            // A cell says how far it got after the first sample that ends
            // HEARTBEAT_MS after its last word; a sample is the wait, a
            // clamped timer or a raced waitAsync.
            ToWorker::Run { requested_ms, .. } => requested_ms
                .saturating_add(100)
                .saturating_add(HEARTBEAT_MS),
            ToWorker::PoolJob { wait_ms, .. } => *wait_ms,
            ToWorker::WakeSet { delays_us, .. } => {
                let delays: u64 = delays_us.iter().map(|&d| u64::from(d)).sum();
                let rounds = u32::try_from(delays_us.len()).unwrap_or(u32::MAX);
                u32::try_from(delays / 1000)
                    .unwrap_or(u32::MAX)
                    .saturating_add(rounds.saturating_mul(ROUND_MS))
            }
            ToWorker::WakeWait { rounds, .. } => rounds.saturating_mul(ROUND_MS + 3),
            ToWorker::CancelSet {
                points_us, wait_ms, ..
            } => u32::try_from(points_us.len())
                .unwrap_or(u32::MAX)
                .saturating_mul(wait_ms.saturating_add(ROUND_MS)),
            ToWorker::CancelWait {
                rounds, wait_ms, ..
            } => rounds.saturating_mul(wait_ms.saturating_add(ROUND_MS)),
            // Both sides are busy for the whole run: the pauses, then a
            // burst that a polled ring takes a clamped poll per ring full.
            ToWorker::Produce { gaps_us, burst, .. } => {
                producer_consumer_ms(gaps_us.iter().fold(0, |a, &g| a.saturating_add(g)), *burst)
            }
            ToWorker::Consume { items, burst, .. } => {
                producer_consumer_ms(items.saturating_mul(MAX_GAP_US), *burst)
            }
            ToWorker::SkewPong { exchanges } | ToWorker::SkewPing { exchanges } => {
                exchanges.saturating_mul(ROUND_MS)
            }
            ToWorker::Ladder { config } => config.longest_ms(),
            // The loop says nothing until its last tick; every tick is due
            // an interval after the last, or at once after longer work.
            ToWorker::Periodic {
                interval_ms,
                work_us,
                ..
            } => work_us.iter().fold(0u32, |total, &w| {
                total
                    .saturating_add(*interval_ms)
                    .saturating_add(w.div_ceil(1000))
            }),
            ToWorker::ClockPing => 0,
        }
    }
}

impl FromWorker {
    /// The kind of message, for an error that names an unexpected one.
    pub fn name(&self) -> &'static str {
        match self {
            FromWorker::Loading => "loading",
            FromWorker::Loaded => "loaded",
            FromWorker::Ready { .. } => "ready",
            FromWorker::Progress { .. } => "progress",
            FromWorker::JobDone { .. } => "job done",
            FromWorker::WakeDone { .. } => "wake done",
            FromWorker::SetterDone { .. } => "setter done",
            FromWorker::ProducerConsumerDone { .. } => "producer-consumer done",
            FromWorker::SkewDone { .. } => "skew done",
            FromWorker::ClockPong { .. } => "clock pong",
            FromWorker::LadderDone { .. } => "ladder done",
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
