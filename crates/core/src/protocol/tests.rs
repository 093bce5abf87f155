//! Tests of the worker protocol (`protocol.rs`).

use super::*;
use crate::sampling::Sampling;

#[test]
fn golden_messages() {
    let run = ToWorker::Run {
        job: 3,
        mechanism: Mechanism::WorkerAtomicsWait,
        requested_ms: 10,
        samples: 100,
        sampling: Sampling::Adaptive,
        step_ms: 0.005,
    };
    let code = Mechanism::WorkerAtomicsWait.code();
    let mut want = vec![0, 3, code, 10, 100, 1];
    want.extend(0.005f64.to_le_bytes());
    assert_eq!(run.encode(), want);
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

#[test]
fn every_message_round_trips_exactly() {
    let ladder = SpinLadder {
        config: LadderConfig::default(),
        steps: vec![crate::experiments::spin_ladder::StepCost {
            count: 0,
            step: crate::experiments::spin_ladder::Step::Spin { units: 7 },
            p50_ms: 1.0 / 3.0 * 0.000_78,
            max_ms: 0.01,
            block: 400,
        }],
        spin_until: vec![crate::experiments::spin_ladder::SpinUntil {
            sleep_stage: true,
            wall_ms: 200.01,
            busy_ms: 3.5,
            calls: 123,
        }],
        calibration: Some(crate::experiments::spin_ladder::SpinCalibration {
            turns_per_unit: 81,
            unit_ns: 37.2,
        }),
    };
    let to = [
        ToWorker::Run {
            job: u32::MAX,
            mechanism: Mechanism::WorkerTimeoutFreshTask,
            requested_ms: 0,
            samples: 5000,
            sampling: Sampling::Fixed,
            step_ms: 0.1,
        },
        ToWorker::PoolJob {
            job: 1,
            mode: JobMode::Async,
            wait_ms: 100,
        },
        ToWorker::WakeSet {
            strategy: Strategy::AsyncEvent,
            delays_us: vec![0, 1, 3000],
        },
        ToWorker::WakeWait {
            strategy: Strategy::PostMessage,
            rounds: 200,
        },
        ToWorker::CancelSet {
            strategy: cancel_waits::Strategy::AbortTimer,
            points_us: vec![2000, 18_000],
            wait_ms: 20,
        },
        ToWorker::CancelWait {
            strategy: cancel_waits::Strategy::CancelEvent,
            rounds: 40,
            wait_ms: 1000,
        },
        ToWorker::Periodic {
            scheduler: periodic_work::Scheduler::WorkerCorrected,
            interval_ms: 20,
            work_us: vec![0, 24_000, 7],
        },
        ToWorker::Produce {
            channel: Channel::RingPoll,
            gaps_us: vec![1000, 3000],
            burst: 2000,
        },
        ToWorker::Consume {
            channel: Channel::MessagePort,
            items: 100,
            burst: 100_000,
        },
        ToWorker::SkewPong { exchanges: 32 },
        ToWorker::SkewPing { exchanges: 32 },
        ToWorker::ClockPing,
        ToWorker::Ladder {
            config: LadderConfig::default(),
        },
    ];
    for m in to {
        assert_eq!(ToWorker::decode(&m.encode()), Ok(m));
    }
    let from = [
        FromWorker::Loading,
        FromWorker::Loaded,
        FromWorker::Ready { protocol: 7 },
        FromWorker::Progress { job: 2, done: 99 },
        FromWorker::JobDone {
            job: 8,
            start_ms: 1_796_083_200_000.125,
            end_ms: 1_796_083_200_100.25,
        },
        FromWorker::WakeDone {
            result: Ok(vec![0.025, -0.005]),
        },
        FromWorker::WakeDone {
            result: Err("the page did not share memory".into()),
        },
        FromWorker::SetterDone { result: Ok(()) },
        FromWorker::ProducerConsumerDone {
            result: Ok(RawChannelRun {
                latencies_ms: vec![0.025, 4.125],
                burst_ms: 21.5,
            }),
        },
        FromWorker::ProducerConsumerDone {
            result: Err("the page did not pass a message port".into()),
        },
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
        FromWorker::LadderDone {
            result: Ok(ladder.clone()),
        },
        FromWorker::LadderDone {
            result: Ok(SpinLadder {
                calibration: None,
                ..ladder
            }),
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
    let huge = ToWorker::Consume {
        channel: Channel::RingWait,
        items: u32::MAX,
        burst: 10,
    };
    assert!(ToWorker::decode(&huge.encode()).is_err());
    assert!(ToWorker::decode(&[99]).is_err());
    assert!(ToWorker::decode(&[6, 0]).is_err(), "trailing data");
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
}

#[test]
fn every_job_says_how_long_it_may_be_silent() {
    let run = |requested_ms| ToWorker::Run {
        job: 0,
        mechanism: Mechanism::WorkerTimeout,
        requested_ms,
        samples: 5000,
        sampling: Sampling::Adaptive,
        step_ms: 0.005,
    };
    // A heartbeat plus one sample, not the job's length.
    assert_eq!(run(10).longest_silence_ms(), 110 + HEARTBEAT_MS);
    assert_eq!(run(u32::MAX).longest_silence_ms(), u32::MAX);
    let set = ToWorker::WakeSet {
        strategy: Strategy::Event,
        delays_us: vec![3000; 200],
    };
    assert_eq!(set.longest_silence_ms(), 600 + 200 * ROUND_MS);
    // The canceller hears nothing while a blind sleep runs out.
    let cancel = ToWorker::CancelSet {
        strategy: cancel_waits::Strategy::BlindSleep,
        points_us: vec![100_000; 20],
        wait_ms: 1000,
    };
    assert_eq!(cancel.longest_silence_ms(), 20 * (1000 + ROUND_MS));
    let ladder = ToWorker::Ladder {
        config: LadderConfig::default(),
    };
    assert!(ladder.longest_silence_ms() >= 2 * LadderConfig::default().spin_until_ms);
}
