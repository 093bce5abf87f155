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
fn ratios_divide_by_the_event_median() {
    let m = |v: f64| Outcome::measured(vec![v]).unwrap();
    let w = WakeLatency {
        config: WakeConfig::default(),
        skew_ms: None,
        own: None,
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
