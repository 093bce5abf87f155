//! The messages as bytes: each message is a tag byte and its fields in
//! order ([`crate::bytes`]), samples and times as exact `f64`s. The page
//! posts them in a transferred `Uint8Array`, so nothing is parsed as text
//! and no serializer is linked into the worker.
//!
//! [`FromWorker::Ready`] is tag 2 followed by the protocol version in every
//! version, so a stale worker is recognised whatever else changed.

use super::{FromWorker, ProtocolError, ToWorker, WorkerOutcome};
use crate::bytes::Bytes;
use crate::bytes::{Reader, Writer};
use crate::experiments::JobMode;
use crate::experiments::Way;
use crate::experiments::producer_consumer::{ProducerConsumerConfig, RawChannelRun};
use crate::experiments::spin_ladder::{
    LadderConfig, SpinCalibration, SpinLadder, SpinUntil, Step, StepCost,
};
use crate::experiments::timed_waits::Mechanism;
use crate::sampling::Sampling;

/// Most items (samples, rounds, steps) a message may hold.
const MAX_ITEMS: usize = 1 << 20;
/// Longest text (a reason, a message) a message may hold, bytes.
const MAX_TEXT: usize = 4096;

type Read<T> = Result<T, ProtocolError>;

impl ToWorker {
    /// The message as bytes, for `postMessage`.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::default();
        match self {
            ToWorker::Run {
                job,
                mechanism,
                requested_ms,
                samples,
                sampling,
                step_ms,
            } => {
                w.byte(0);
                w.uvar(u64::from(*job));
                w.byte(mechanism.code());
                w.uvar(u64::from(*requested_ms));
                w.uvar(u64::from(*samples));
                w.flag(*sampling == Sampling::Adaptive);
                w.f64(*step_ms);
            }
            ToWorker::PoolJob { job, mode, wait_ms } => {
                w.byte(1);
                w.uvar(u64::from(*job));
                w.flag(mode.is_async());
                w.uvar(u64::from(*wait_ms));
            }
            ToWorker::WakeSet {
                strategy,
                delays_us,
            } => {
                w.byte(2);
                w.byte(strategy.code());
                w.len(delays_us.len());
                for &d in delays_us {
                    w.uvar(u64::from(d));
                }
            }
            ToWorker::WakeWait { strategy, rounds } => {
                w.byte(3);
                w.byte(strategy.code());
                w.uvar(u64::from(*rounds));
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
            ToWorker::Ladder { config } => {
                w.byte(7);
                config.write(&mut w);
            }
            ToWorker::CancelSet {
                strategy,
                points_us,
                wait_ms,
            } => {
                w.byte(8);
                w.byte(strategy.code());
                w.len(points_us.len());
                for &p in points_us {
                    w.uvar(u64::from(p));
                }
                w.uvar(u64::from(*wait_ms));
            }
            ToWorker::Periodic {
                scheduler,
                interval_ms,
                work_us,
            } => {
                w.byte(10);
                w.byte(scheduler.code());
                w.uvar(u64::from(*interval_ms));
                w.len(work_us.len());
                for &u in work_us {
                    w.uvar(u64::from(u));
                }
            }
            ToWorker::Produce {
                channel,
                gaps_us,
                burst,
            } => {
                w.byte(11);
                w.byte(channel.code());
                w.len(gaps_us.len());
                for &g in gaps_us {
                    w.uvar(u64::from(g));
                }
                w.uvar(u64::from(*burst));
            }
            ToWorker::Consume {
                channel,
                items,
                burst,
            } => {
                w.byte(12);
                w.byte(channel.code());
                w.uvar(u64::from(*items));
                w.uvar(u64::from(*burst));
            }
            ToWorker::CancelWait {
                strategy,
                rounds,
                wait_ms,
            } => {
                w.byte(9);
                w.byte(strategy.code());
                w.uvar(u64::from(*rounds));
                w.uvar(u64::from(*wait_ms));
            }
        }
        w.0
    }

    /// Reads a message the page posted.
    pub fn decode(bytes: &[u8]) -> Read<Self> {
        let mut r = Reader::new(bytes);
        let u32_ = |r: &mut Reader| r.upto(u64::from(u32::MAX));
        let msg = match r.byte()? {
            0 => ToWorker::Run {
                job: u32_(&mut r)?,
                mechanism: mechanism(&mut r)?,
                requested_ms: u32_(&mut r)?,
                samples: u32_(&mut r)?,
                sampling: if r.flag()? {
                    Sampling::Adaptive
                } else {
                    Sampling::Fixed
                },
                step_ms: r.f64()?,
            },
            1 => ToWorker::PoolJob {
                job: u32_(&mut r)?,
                mode: JobMode::from_flag(r.flag()?),
                wait_ms: u32_(&mut r)?,
            },
            2 => ToWorker::WakeSet {
                strategy: way(&mut r)?,
                delays_us: u32s(&mut r)?,
            },
            3 => ToWorker::WakeWait {
                strategy: way(&mut r)?,
                rounds: u32_(&mut r)?,
            },
            4 => ToWorker::SkewPong {
                exchanges: u32_(&mut r)?,
            },
            5 => ToWorker::SkewPing {
                exchanges: u32_(&mut r)?,
            },
            6 => ToWorker::ClockPing,
            7 => ToWorker::Ladder {
                config: LadderConfig::read(&mut r)?,
            },
            8 => ToWorker::CancelSet {
                strategy: way(&mut r)?,
                points_us: u32s(&mut r)?,
                wait_ms: u32_(&mut r)?,
            },
            9 => ToWorker::CancelWait {
                strategy: way(&mut r)?,
                rounds: u32_(&mut r)?,
                wait_ms: u32_(&mut r)?,
            },
            10 => ToWorker::Periodic {
                scheduler: way(&mut r)?,
                interval_ms: u32_(&mut r)?,
                work_us: u32s(&mut r)?,
            },
            11 => ToWorker::Produce {
                channel: way(&mut r)?,
                gaps_us: u32s(&mut r)?,
                burst: burst(&mut r)?,
            },
            12 => ToWorker::Consume {
                channel: way(&mut r)?,
                items: r.upto(u64::from(ProducerConsumerConfig::MAX_ITEMS))?,
                burst: burst(&mut r)?,
            },
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
            FromWorker::JobDone {
                job,
                start_ms,
                end_ms,
            } => {
                w.byte(4);
                w.uvar(u64::from(*job));
                w.f64(*start_ms);
                w.f64(*end_ms);
            }
            FromWorker::WakeDone { result } => {
                w.byte(5);
                result_of(&mut w, result, |w, times| f64s(w, times));
            }
            FromWorker::SetterDone { result } => {
                w.byte(6);
                result_of(&mut w, result, |_, ()| {});
            }
            FromWorker::ProducerConsumerDone { result } => {
                w.byte(11);
                result_of(&mut w, result, |w, raw| {
                    f64s(w, &raw.latencies_ms);
                    w.f64(raw.burst_ms);
                });
            }
            FromWorker::SkewDone { result } => {
                w.byte(7);
                result_of(&mut w, result, |w, exchanges| {
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
            FromWorker::LadderDone { result } => {
                w.byte(9);
                result_of(&mut w, result, spin_ladder);
            }
            FromWorker::Trace { records } => {
                w.byte(12);
                f64s(&mut w, records);
            }
            FromWorker::Done { job, outcome } => {
                w.byte(10);
                w.uvar(u64::from(*job));
                match outcome {
                    WorkerOutcome::Samples { samples_ms } => {
                        w.byte(0);
                        f64s(&mut w, samples_ms);
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
        let u32_ = |r: &mut Reader| r.upto(u64::from(u32::MAX));
        let msg = match r.byte()? {
            0 => FromWorker::Loading,
            1 => FromWorker::Loaded,
            2 => FromWorker::Ready {
                protocol: u32_(&mut r)?,
            },
            3 => FromWorker::Progress {
                job: u32_(&mut r)?,
                done: u32_(&mut r)?,
            },
            4 => FromWorker::JobDone {
                job: u32_(&mut r)?,
                start_ms: r.f64()?,
                end_ms: r.f64()?,
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
            9 => FromWorker::LadderDone {
                result: read_result(&mut r, read_spin_ladder)?,
            },
            10 => FromWorker::Done {
                job: u32_(&mut r)?,
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
            11 => FromWorker::ProducerConsumerDone {
                result: read_result(&mut r, |r| {
                    Ok(RawChannelRun {
                        latencies_ms: read_f64s(r)?,
                        burst_ms: r.f64()?,
                    })
                })?,
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

fn mechanism(r: &mut Reader) -> Read<Mechanism> {
    Mechanism::from_code(r.byte()?).ok_or(ProtocolError("an unknown mechanism"))
}

/// A way of waiting, by its code.
fn way<W: Way>(r: &mut Reader) -> Read<W> {
    W::from_code(r.byte()?).ok_or(ProtocolError("an unknown way of waiting"))
}

/// Experiment 9's burst, within what the page asks for.
fn burst(r: &mut Reader) -> Read<u32> {
    Ok(r.upto(u64::from(ProducerConsumerConfig::MAX_BURST))?)
}

fn u32s(r: &mut Reader) -> Read<Vec<u32>> {
    let n = r.len(MAX_ITEMS)?;
    (0..n).map(|_| Ok(r.upto(u64::from(u32::MAX))?)).collect()
}

fn f64s(w: &mut Writer, values: &[f64]) {
    w.len(values.len());
    values.iter().for_each(|&v| w.f64(v));
}

fn read_f64s(r: &mut Reader) -> Read<Vec<f64>> {
    let n = r.len(MAX_ITEMS)?;
    (0..n).map(|_| Ok(r.f64()?)).collect()
}

/// A result: flag 1 and the value, or flag 0 and the error's text.
fn result_of<T>(w: &mut Writer, result: &Result<T, String>, ok: impl Fn(&mut Writer, &T)) {
    match result {
        Ok(v) => {
            w.flag(true);
            ok(w, v);
        }
        Err(e) => {
            w.flag(false);
            w.text(e);
        }
    }
}

fn read_result<T>(r: &mut Reader, ok: impl Fn(&mut Reader) -> Read<T>) -> Read<Result<T, String>> {
    Ok(if r.flag()? {
        Ok(ok(r)?)
    } else {
        Err(r.text(MAX_TEXT)?)
    })
}

fn spin_ladder(w: &mut Writer, l: &SpinLadder) {
    l.config.write(w);
    w.len(l.steps.len());
    for s in &l.steps {
        w.uvar(u64::from(s.count));
        match s.step {
            Step::Spin { units } => {
                w.byte(0);
                w.uvar(u64::from(units));
            }
            Step::Yield => w.byte(1),
            Step::Sleep0 => w.byte(2),
            Step::Sleep1 => w.byte(3),
        }
        w.f64(s.p50_ms);
        w.f64(s.max_ms);
        w.uvar(u64::from(s.block));
    }
    w.len(l.spin_until.len());
    for s in &l.spin_until {
        w.flag(s.sleep_stage);
        w.f64(s.wall_ms);
        w.f64(s.busy_ms);
        w.uvar(u64::from(s.calls));
    }
    w.flag(l.calibration.is_some());
    if let Some(c) = l.calibration {
        w.uvar(u64::from(c.turns_per_unit));
        w.f64(c.unit_ns);
    }
}

fn read_spin_ladder(r: &mut Reader) -> Read<SpinLadder> {
    let max = u64::from(u32::MAX);
    let config = LadderConfig::read(r)?;
    let n = r.len(MAX_ITEMS)?;
    let steps = (0..n)
        .map(|_| {
            Ok(StepCost {
                count: r.upto(max)?,
                step: match r.byte()? {
                    0 => Step::Spin {
                        units: r.upto(max)?,
                    },
                    1 => Step::Yield,
                    2 => Step::Sleep0,
                    3 => Step::Sleep1,
                    _ => return Err(ProtocolError("an unknown step")),
                },
                p50_ms: r.f64()?,
                max_ms: r.f64()?,
                block: r.upto(max)?,
            })
        })
        .collect::<Read<_>>()?;
    let n = r.len(MAX_ITEMS)?;
    let spin_until = (0..n)
        .map(|_| {
            Ok(SpinUntil {
                sleep_stage: r.flag()?,
                wall_ms: r.f64()?,
                busy_ms: r.f64()?,
                calls: r.upto(max)?,
            })
        })
        .collect::<Read<_>>()?;
    let calibration = if r.flag()? {
        Some(SpinCalibration {
            turns_per_unit: r.upto(max)?,
            unit_ns: r.f64()?,
        })
    } else {
        None
    };
    Ok(SpinLadder {
        config,
        steps,
        spin_until,
        calibration,
    })
}
