//! Tests of experiment 4 (wake latency): configuration, results, ways of waiting.

use super::*;
use crate::experiments::seeded::sequence;
use crate::outcome::Outcome;

#[test]
fn delays_are_up_to_the_largest() {
    let c = WakeConfig::default();
    let expected = sequence(c.seed, c.rounds, 0..=3000);
    assert_eq!(c.delays_us(), expected);
}

#[test]
fn skew_from_symmetric_exchanges() {
    // B is 5 ms ahead; one-way latency 0.1 ms each direction.
    let ex = [
        [0.0, 5.1, 5.2, 0.3],
        [10.0, 15.1, 15.1, 10.2],
        [20.0, 25.3, 25.4, 20.7],
    ];
    assert!((skew_ms(&ex) - 5.0).abs() < 1e-9);
    assert_eq!(skew_ms(&[]), 0.0);
}

#[test]
fn ratios_divide_by_the_event_median() {
    let m = |v: f64| Outcome::measured(vec![v]).unwrap();
    let w = WakeLatency {
        config: WakeConfig::default(),
        skew_ms: None,
        results: vec![
            WakeResult {
                strategy: Strategy::Event,
                outcome: m(0.02),
            },
            WakeResult {
                strategy: Strategy::SleepPoll,
                outcome: m(1.0),
            },
            WakeResult {
                strategy: Strategy::AsyncEvent,
                outcome: Outcome::Unavailable { reason: "x".into() },
            },
        ],
    };
    let r = w.ratios_to_event();
    assert_eq!(r.len(), 2);
    assert_eq!(r[1].0, Strategy::SleepPoll);
    assert!((r[1].1 - 50.0).abs() < 1e-9);
}
