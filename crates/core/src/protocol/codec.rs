//! The messages as bytes: each message is a tag byte and its fields in
//! order ([`crate::bytes`]), samples and times as exact `f64`s; a job and
//! an experiment's reply carry its own bytes (`job.rs` in its folder). The
//! page posts them in a transferred `Uint8Array`, so nothing is parsed as
//! text and no serializer is linked into the worker.
//!
//! [`FromWorker::Ready`] is tag 2 followed by the protocol version in every
//! version, so a stale worker is recognised whatever else changed.

use super::job::{MAX_ITEMS, MAX_TEXT, read_f64s, read_result, read_u32, write_f64s, write_result};
use super::{FromWorker, ProtocolError, ToWorker, WorkerOutcome};
use crate::bytes::{Reader, Writer};
use crate::experiments::Experiment;

type Read<T> = Result<T, ProtocolError>;

/// Most bytes of a job or a reply (a ladder's steps, a consumer's times).
const MAX_BODY: usize = 64 * MAX_ITEMS;

fn write_body(w: &mut Writer, body: &[u8]) {
    w.len(body.len());
    w.0.extend_from_slice(body);
}

fn read_body(r: &mut Reader) -> Read<Vec<u8>> {
    let n = r.len(MAX_BODY)?;
    (0..n).map(|_| Ok(r.byte()?)).collect()
}

impl ToWorker {
    /// The message as bytes, for `postMessage`.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::default();
        match self {
            ToWorker::Job {
                experiment,
                silence_ms,
                body,
            } => {
                w.byte(0);
                let index = Experiment::ALL.iter().position(|e| e == experiment);
                w.uvar(index.unwrap_or(0) as u64);
                w.uvar(u64::from(*silence_ms));
                write_body(&mut w, body);
            }
            ToWorker::SkewPong { exchanges } => {
                w.byte(4);
                w.uvar(u64::from(*exchanges));
            }
            ToWorker::SkewPing { exchanges } => {
                w.byte(5);
                w.uvar(u64::from(*exchanges));
            }
            ToWorker::ClockPing => w.byte(6),
        }
        w.0
    }

    /// Reads a message the page posted.
    pub fn decode(bytes: &[u8]) -> Read<Self> {
        let mut r = Reader::new(bytes);
        let msg = match r.byte()? {
            0 => ToWorker::Job {
                experiment: *Experiment::ALL
                    .get(r.len(Experiment::ALL.len() - 1)?)
                    .ok_or(ProtocolError("an unknown experiment"))?,
                silence_ms: read_u32(&mut r)?,
                body: read_body(&mut r)?,
            },
            4 => ToWorker::SkewPong {
                exchanges: read_u32(&mut r)?,
            },
            5 => ToWorker::SkewPing {
                exchanges: read_u32(&mut r)?,
            },
            6 => ToWorker::ClockPing,
            _ => return Err(ProtocolError("an unknown request")),
        };
        r.finish()?;
        Ok(msg)
    }
}

impl FromWorker {
    /// The message as bytes, for `postMessage`.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::default();
        match self {
            FromWorker::Loading => w.byte(0),
            FromWorker::Loaded => w.byte(1),
            FromWorker::Ready { protocol } => {
                w.byte(2);
                w.uvar(u64::from(*protocol));
            }
            FromWorker::Progress { job, done } => {
                w.byte(3);
                w.uvar(u64::from(*job));
                w.uvar(u64::from(*done));
            }
            FromWorker::WakeDone { result } => {
                w.byte(5);
                write_result(&mut w, result, |w, times| write_f64s(w, times));
            }
            FromWorker::SetterDone { result } => {
                w.byte(6);
                write_result(&mut w, result, |_, ()| {});
            }
            FromWorker::SkewDone { result } => {
                w.byte(7);
                write_result(&mut w, result, |w, exchanges| {
                    w.len(exchanges.len());
                    for e in exchanges {
                        e.iter().for_each(|&t| w.f64(t));
                    }
                });
            }
            FromWorker::ClockPong {
                received_ms,
                sent_ms,
            } => {
                w.byte(8);
                w.f64(*received_ms);
                w.f64(*sent_ms);
            }
            FromWorker::Reply { body } => {
                w.byte(9);
                write_body(&mut w, body);
            }
            FromWorker::Trace { records } => {
                w.byte(12);
                write_f64s(&mut w, records);
            }
            FromWorker::Done { job, outcome } => {
                w.byte(10);
                w.uvar(u64::from(*job));
                match outcome {
                    WorkerOutcome::Samples { samples_ms } => {
                        w.byte(0);
                        write_f64s(&mut w, samples_ms);
                    }
                    WorkerOutcome::TimeoutNeverFired { waited_ms } => {
                        w.byte(1);
                        w.f64(*waited_ms);
                    }
                    WorkerOutcome::Failed { message } => {
                        w.byte(2);
                        w.text(message);
                    }
                }
            }
        }
        w.0
    }

    /// Reads a message the worker posted.
    pub fn decode(bytes: &[u8]) -> Read<Self> {
        let mut r = Reader::new(bytes);
        let msg = match r.byte()? {
            0 => FromWorker::Loading,
            1 => FromWorker::Loaded,
            2 => FromWorker::Ready {
                protocol: read_u32(&mut r)?,
            },
            3 => FromWorker::Progress {
                job: read_u32(&mut r)?,
                done: read_u32(&mut r)?,
            },
            5 => FromWorker::WakeDone {
                result: read_result(&mut r, read_f64s)?,
            },
            6 => FromWorker::SetterDone {
                result: read_result(&mut r, |_| Ok(()))?,
            },
            7 => FromWorker::SkewDone {
                result: read_result(&mut r, |r| {
                    let n = r.len(MAX_ITEMS)?;
                    (0..n)
                        .map(|_| Ok([r.f64()?, r.f64()?, r.f64()?, r.f64()?]))
                        .collect()
                })?,
            },
            8 => FromWorker::ClockPong {
                received_ms: r.f64()?,
                sent_ms: r.f64()?,
            },
            9 => FromWorker::Reply {
                body: read_body(&mut r)?,
            },
            10 => FromWorker::Done {
                job: read_u32(&mut r)?,
                outcome: match r.byte()? {
                    0 => WorkerOutcome::Samples {
                        samples_ms: read_f64s(&mut r)?,
                    },
                    1 => WorkerOutcome::TimeoutNeverFired {
                        waited_ms: r.f64()?,
                    },
                    2 => WorkerOutcome::Failed {
                        message: r.text(MAX_TEXT)?,
                    },
                    _ => return Err(ProtocolError("an unknown outcome")),
                },
            },
            12 => FromWorker::Trace {
                records: read_f64s(&mut r)?,
            },
            _ => return Err(ProtocolError("an unknown reply")),
        };
        r.finish()?;
        Ok(msg)
    }
}
