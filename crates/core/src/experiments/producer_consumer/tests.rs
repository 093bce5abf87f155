//! Tests of experiment 9 (producer and consumer): configuration, results, ways of waiting.

use super::*;
use crate::experiments::seeded::sequence;
use crate::field::FieldError;
use crate::strategies::assert_pairs_up;

#[test]
fn gaps_are_seeded_and_fields_checked() {
    let c = ProducerConsumerConfig::default();
    let gaps = c.gaps_us();
    assert_eq!(gaps, sequence(c.seed, 100, 1000..=3000));
    assert!(matches!(
        ProducerConsumerConfig::parse(&["2000", "100", "2000"]),
        Err(FieldError::TooLong { .. })
    ));
    assert!(c.estimated_ms() < 5000.0, "{}", c.estimated_ms());
}

#[test]
fn raw_times_are_corrected_by_the_skew() {
    let raw = RawChannelRun {
        latencies_ms: vec![0.05, 0.07],
        burst_ms: 19.9,
    };
    let run = ChannelRun::measured(Channel::RingWait, raw, 0.1);
    let samples = run.outcome.samples().unwrap();
    assert!((samples[0] - 0.15).abs() < 1e-12);
    assert!((run.burst_ms.unwrap() - 20.0).abs() < 1e-9);
    assert!((run.items_per_s(2000).unwrap() - 100_000.0).abs() < 1e-3);
    let nothing = ChannelRun::without(
        Channel::RingPoll,
        Outcome::Unavailable { reason: "x".into() },
    );
    assert_eq!(nothing.items_per_s(2000), None);
    let instant = ChannelRun {
        burst_ms: Some(0.0),
        ..run
    };
    assert_eq!(instant.items_per_s(2000), None);
    // Two coarse clocks without a measured skew: an item seen a step
    // "before" it was sent took no time, never less.
    let coarse = RawChannelRun {
        latencies_ms: vec![-1.0, 0.0, 1.0],
        burst_ms: 5.0,
    };
    let run = ChannelRun::measured(Channel::MessagePort, coarse, 0.0);
    assert_eq!(run.outcome.samples().unwrap()[0], 0.0);
}

#[test]
fn the_tally_files_paced_items_then_times_the_burst() {
    let mut t = Tally::new(2);
    t.take(0.0, 0.05);
    t.take(2.0, 2.5);
    t.take(3.0, 3.1);
    t.take(3.01, 3.2);
    t.take(3.02, 4.0);
    let raw = t.finish();
    assert_eq!(raw.latencies_ms, [0.05, 0.5]);
    assert!((raw.burst_ms - 1.0).abs() < 1e-12);
    // No burst: no time, and no rate.
    let mut t = Tally::new(1);
    t.take(0.0, 0.1);
    let raw = t.finish();
    assert!(raw.burst_ms.is_nan());
    assert_eq!(
        ChannelRun::measured(Channel::StdMpsc, raw, 0.0).burst_ms,
        None
    );
}

#[test]
fn polling_is_set_against_the_fastest_woken_channel() {
    let run = |channel, samples: &[f64]| ChannelRun {
        channel,
        outcome: Outcome::of_samples(samples.to_vec()),
        burst_ms: Some(10.0),
    };
    let h = ProducerConsumer {
        config: ProducerConsumerConfig::default(),
        skew_ms: None,
        runs: vec![
            run(Channel::MessagePort, &[0.1, 0.1, 0.1]),
            run(Channel::RingWait, &[0.04, 0.04, 0.04]),
            run(Channel::RingPoll, &[2.0, 2.0, 2.0]),
        ],
    };
    let (polling, woken, woken_p50, ratio) = h.polling_ratio().unwrap();
    assert_eq!((polling, woken), (Channel::RingPoll, Channel::RingWait));
    assert_eq!(woken_p50, 0.04);
    assert!((ratio - 50.0).abs() < 1e-9);
}

#[test]
fn kinds_pair_up() {
    assert_pairs_up(&Channel::BROWSER, &Channel::NATIVE, Channel::polls);
    assert!(!Channel::MessagePort.needs_shared_memory());
}
