//! The messages as bytes: each message is a tag byte and its fields in
//! order ([`crate::bytes`]), samples and times as exact `f64`s; a job and
//! an experiment's reply carry its own bytes (`job.rs` in its folder). The
//! page posts them in a transferred `Uint8Array`, so nothing is parsed as
//! text and no serializer is linked into the worker.
//!
//! [`FromWorker::Ready`] is tag 2 followed by the protocol version in every
//! version, so a stale worker is recognised whatever else changed.

use super::job::{MAX_ITEMS, message, read_items};
use super::{FromWorker, ProtocolError, ToWorker, WorkerOutcome, read_body};
use crate::bytes::{Bytes, Damaged, Reader, Writer};
use crate::experiments::Experiment;

/// Most bytes of a job or a reply (a ladder's steps, a consumer's times).
const MAX_BODY: usize = 64 * MAX_ITEMS;

/// A job's or a reply's bytes, whole.
fn read_bytes(r: &mut Reader) -> Result<Vec<u8>, Damaged> {
    read_items(r, MAX_BODY)
}

/// An experiment, as its place in the list.
impl Bytes for Experiment {
    fn write(&self, w: &mut Writer) {
        let index = Experiment::ALL.iter().position(|e| e == self);
        w.uvar(index.unwrap_or(0) as u64);
    }

    fn read(r: &mut Reader) -> Result<Self, Damaged> {
        let index = r.len(Experiment::ALL.len() - 1)?;
        Ok(Experiment::ALL[index])
    }
}

message! {
    enum ToWorker else "an unknown request" {
        0 => Job { experiment, silence_ms, body = read_bytes },
        4 => SkewPong { exchanges },
        5 => SkewPing { exchanges },
        6 => ClockPing {},
    }
}

message! {
    enum FromWorker else "an unknown reply" {
        0 => Loading {},
        1 => Loaded {},
        2 => Ready { protocol },
        3 => Progress { job, done },
        5 => WakeDone { result },
        6 => SetterDone { result },
        7 => SkewDone { result },
        8 => ClockPong { received_ms, sent_ms },
        9 => Reply { body = read_bytes },
        10 => Done { job, outcome },
        12 => Trace { records },
    }
}

message! {
    enum WorkerOutcome else "an unknown outcome" {
        0 => Samples { samples_ms },
        1 => TimeoutNeverFired { waited_ms },
        2 => Failed { message },
    }
}

impl ToWorker {
    /// The message as bytes, for `postMessage`.
    pub fn encode(&self) -> Vec<u8> {
        self.to_bytes()
    }

    /// Reads a message the page posted.
    pub fn decode(bytes: &[u8]) -> Result<Self, ProtocolError> {
        read_body(bytes)
    }
}

impl FromWorker {
    /// The message as bytes, for `postMessage`.
    pub fn encode(&self) -> Vec<u8> {
        self.to_bytes()
    }

    /// Reads a message the worker posted.
    pub fn decode(bytes: &[u8]) -> Result<Self, ProtocolError> {
        read_body(bytes)
    }
}
