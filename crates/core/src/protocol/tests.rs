//! Tests of the worker protocol (`protocol.rs`) and of every experiment's
//! worker jobs and replies (the `job.rs` of their folders) on it.

use super::job::{HEARTBEAT_MS, ROUND_MS};
use super::*;
use crate::experiments::JobMode;
use crate::experiments::cancel_waits::{self, job::CancelJob};
use crate::experiments::periodic_work::{Scheduler, job::WorkerLoop};
use crate::experiments::pool_starvation::job::{JobDone, PoolJob};
use crate::experiments::producer_consumer::{Channel, RawChannelRun, job::ChannelJob};
use crate::experiments::spin_ladder::{self, LadderConfig, SpinLadder};
use crate::experiments::timed_waits::{Mechanism, job::CellJob};
use crate::experiments::wake_latency::{Strategy, job::WakeJob};
use crate::sampling::Sampling;

#[test]
fn golden_messages() {
    let cell = CellJob {
        job: 3,
        mechanism: Mechanism::WorkerAtomicsWait,
        requested_ms: 10,
        samples: 100,
        sampling: Sampling::Adaptive,
        step_ms: 0.005,
    };
    let code = Mechanism::WorkerAtomicsWait.code();
    // Tag 0, the experiment's place in the list, the silence, the body.
    // (110 ms and a heartbeat: 1110, 0xd6 0x08 as a varint.)
    assert_eq!(110 + HEARTBEAT_MS, 0x08 << 7 | 0x56);
    let mut want = vec![0, 0, 0xd6, 0x08, 13, 3, code, 10, 100, 1];
    want.extend(0.005f64.to_le_bytes());
    assert_eq!(ToWorker::job(&cell).encode(), want);
    let done = FromWorker::Done {
        job: 3,
        outcome: WorkerOutcome::TimeoutNeverFired { waited_ms: 60.5 },
    };
    let mut want = vec![10, 3, 1];
    want.extend(60.5f64.to_le_bytes());
    assert_eq!(done.encode(), want);
    // Ready is tag 2 and the version in every version of the protocol.
    assert_eq!(FromWorker::Ready { protocol: 2 }.encode(), [2, 2]);
    assert_eq!(FromWorker::from_loader("loading"), Ok(FromWorker::Loading));
    assert_eq!(FromWorker::from_loader("loaded"), Ok(FromWorker::Loaded));
    assert!(FromWorker::from_loader("ready").is_err());
}

/// `job` crosses to the worker and is read back as itself, by its
/// experiment.
fn crosses<J: Job + PartialEq + std::fmt::Debug>(job: J) {
    let message = ToWorker::job(&job);
    let back = ToWorker::decode(&message.encode()).unwrap();
    assert_eq!(back, message);
    let ToWorker::Job {
        experiment, body, ..
    } = back
    else {
        panic!("not a job: {back:?}");
    };
    assert_eq!(experiment.id(), J::OF);
    assert_eq!(read_body::<J>(&body), Ok(job));
}

/// `reply` crosses back to the page and is read as itself.
fn answers<T: Bytes + PartialEq + std::fmt::Debug>(reply: T) {
    let message = FromWorker::reply(&reply);
    let back = FromWorker::decode(&message.encode()).unwrap();
    assert_eq!(back, message);
    let FromWorker::Reply { body } = back else {
        panic!("not a reply: {back:?}");
    };
    assert_eq!(read_body::<T>(&body), Ok(reply));
}

fn ladder() -> SpinLadder {
    SpinLadder {
        config: LadderConfig::default(),
        steps: vec![spin_ladder::StepCost {
            count: 0,
            step: spin_ladder::Step::Spin { units: 7 },
            p50_ms: 1.0 / 3.0 * 0.000_78,
            max_ms: 0.01,
            block: 400,
        }],
        spin_until: vec![spin_ladder::SpinUntil {
            sleep_stage: true,
            wall_ms: 200.01,
            busy_ms: 3.5,
            calls: 123,
        }],
        calibration: Some(spin_ladder::SpinCalibration {
            turns_per_unit: 81,
            unit_ns: 37.2,
            turn: spin_ladder::Turn::Pause,
        }),
        bare: Some(spin_ladder::SpinCalibration {
            turns_per_unit: 300,
            unit_ns: 36.9,
            turn: spin_ladder::Turn::Loop,
        }),
    }
}

#[test]
fn every_job_and_reply_round_trips_exactly() {
    crosses(CellJob {
        job: u32::MAX,
        mechanism: Mechanism::WorkerTimeoutFreshTask,
        requested_ms: 0,
        samples: 5000,
        sampling: Sampling::Fixed,
        step_ms: 0.1,
    });
    crosses(PoolJob {
        job: 1,
        mode: JobMode::Async,
        wait_ms: 100,
    });
    crosses(WakeJob::Set {
        strategy: Strategy::AsyncEvent,
        delays_us: vec![0, 1, 3000],
    });
    crosses(WakeJob::Wait {
        strategy: Strategy::PostMessage,
        rounds: 200,
    });
    crosses(CancelJob::Set {
        strategy: cancel_waits::Strategy::AbortTimer,
        points_us: vec![2000, 18_000],
        wait_ms: 20,
    });
    crosses(CancelJob::Wait {
        strategy: cancel_waits::Strategy::CancelEvent,
        rounds: 40,
        wait_ms: 1000,
    });
    crosses(WorkerLoop {
        scheduler: Scheduler::WorkerCorrected,
        interval_ms: 20,
        work_us: vec![0, 24_000, 7],
    });
    crosses(ChannelJob::Produce {
        channel: Channel::RingPoll,
        gaps_us: vec![1000, 3000],
        burst: 2000,
    });
    crosses(ChannelJob::Consume {
        channel: Channel::MessagePort,
        items: 100,
        burst: 100_000,
    });
    crosses(LadderConfig::default());
    answers(JobDone {
        job: 8,
        start_ms: 1_796_083_200_000.125,
        end_ms: 1_796_083_200_100.25,
    });
    answers::<Result<RawChannelRun, String>>(Ok(RawChannelRun {
        latencies_ms: vec![0.025, 4.125],
        burst_ms: 21.5,
    }));
    answers::<Result<RawChannelRun, String>>(Err("the page did not pass a message port".into()));
    answers::<Result<SpinLadder, String>>(Ok(ladder()));
    answers::<Result<SpinLadder, String>>(Ok(SpinLadder {
        calibration: None,
        ..ladder()
    }));
}

#[test]
fn every_message_round_trips_exactly() {
    let to = [
        ToWorker::SkewPong { exchanges: 32 },
        ToWorker::SkewPing { exchanges: 32 },
        ToWorker::ClockPing,
    ];
    for m in to {
        assert_eq!(ToWorker::decode(&m.encode()), Ok(m));
    }
    let from = [
        FromWorker::Loading,
        FromWorker::Loaded,
        FromWorker::Ready { protocol: 7 },
        FromWorker::Progress { job: 2, done: 99 },
        FromWorker::WakeDone {
            result: Ok(vec![0.025, -0.005]),
        },
        FromWorker::WakeDone {
            result: Err("the page did not share memory".into()),
        },
        FromWorker::SetterDone { result: Ok(()) },
        FromWorker::SkewDone {
            result: Ok(vec![[1.0, 2.0, 3.0, 4.5]]),
        },
        FromWorker::Trace {
            records: vec![0.0, 12345.0, 10.0, 1.7e12, 1.7e12 + 10.25],
        },
        FromWorker::ClockPong {
            received_ms: 1.5,
            sent_ms: 1.505,
        },
        FromWorker::Done {
            job: 0,
            outcome: WorkerOutcome::Samples {
                samples_ms: vec![1.1, 1.000_000_000_000_000_2, 4.2],
            },
        },
        FromWorker::Done {
            job: 0,
            outcome: WorkerOutcome::Failed {
                message: "Atomics.waitAsync is not supported in this browser".into(),
            },
        },
    ];
    for m in from {
        assert_eq!(FromWorker::decode(&m.encode()), Ok(m));
    }
}

#[test]
fn damaged_messages_are_errors() {
    assert!(ToWorker::decode(&[]).is_err());
    // A consumer is never asked for more items than the page asks for.
    let huge = ToWorker::job(&ChannelJob::Consume {
        channel: Channel::RingWait,
        items: u32::MAX,
        burst: 10,
    });
    let ToWorker::Job { body, .. } = huge else {
        unreachable!()
    };
    assert!(read_body::<ChannelJob>(&body).is_err());
    assert!(read_body::<ChannelJob>(&[7]).is_err(), "an unknown side");
    assert!(ToWorker::decode(&[99]).is_err());
    assert!(ToWorker::decode(&[6, 0]).is_err(), "trailing data");
    // A job of no experiment of the list.
    assert!(ToWorker::decode(&[0, 99, 0, 0]).is_err());
    assert!(FromWorker::decode(&[10, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x7f]).is_err());
    let whole = FromWorker::Done {
        job: 1,
        outcome: WorkerOutcome::Samples {
            samples_ms: vec![1.0; 10],
        },
    }
    .encode();
    for cut in 0..whole.len() {
        assert!(FromWorker::decode(&whole[..cut]).is_err(), "{cut}");
    }
    let job = ToWorker::job(&LadderConfig::default()).encode();
    for cut in 0..job.len() {
        assert!(ToWorker::decode(&job[..cut]).is_err(), "{cut}");
    }
}

#[test]
fn every_job_says_how_long_it_may_be_silent() {
    let cell = |requested_ms| {
        ToWorker::job(&CellJob {
            job: 0,
            mechanism: Mechanism::WorkerTimeout,
            requested_ms,
            samples: 5000,
            sampling: Sampling::Adaptive,
            step_ms: 0.005,
        })
    };
    // A heartbeat plus one sample, not the job's length.
    assert_eq!(cell(10).longest_silence_ms(), 110 + HEARTBEAT_MS);
    assert_eq!(cell(u32::MAX).longest_silence_ms(), u32::MAX);
    let set = ToWorker::job(&WakeJob::Set {
        strategy: Strategy::Event,
        delays_us: vec![3000; 200],
    });
    assert_eq!(set.longest_silence_ms(), 600 + 200 * ROUND_MS);
    // The canceller hears nothing while a blind sleep runs out.
    let cancel = ToWorker::job(&CancelJob::Set {
        strategy: cancel_waits::Strategy::BlindSleep,
        points_us: vec![100_000; 20],
        wait_ms: 1000,
    });
    assert_eq!(cancel.longest_silence_ms(), 20 * (1000 + ROUND_MS));
    let ladder = ToWorker::job(&LadderConfig::default());
    assert!(ladder.longest_silence_ms() >= 2 * LadderConfig::default().spin_until_ms);
    assert_eq!(
        ToWorker::SkewPing { exchanges: 4 }.longest_silence_ms(),
        4 * ROUND_MS
    );
}
