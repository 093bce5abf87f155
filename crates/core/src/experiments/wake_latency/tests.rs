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

#[test]
fn a_run_that_stopped_early_says_so_and_its_link_too() {
    use crate::experiments::Description;
    use crate::link::{decode_body, encode_body};
    use crate::sampling::Sampling;
    use crate::schema::{Environment, Report};
    let series = |n: usize, v: f64| Outcome::measured(vec![v; n]).unwrap();
    let mut w = WakeLatency {
        config: WakeConfig::default(),
        skew_ms: Some(0.0),
        results: vec![
            WakeResult {
                strategy: Strategy::Event,
                outcome: series(30, 0.02),
            },
            WakeResult {
                strategy: Strategy::SleepPoll,
                outcome: series(100, 0.5),
            },
        ],
    };
    let said = w.sampled().expect("an adaptive run says how it sampled");
    assert_eq!(said.key, crate::key!("finding.wake.sampled"));
    let mut report = Report::new(Environment::test_chrome(), None);
    report.wake_latency = Some(w.clone());
    let back = decode_body(&encode_body(&report)).unwrap();
    assert_eq!(back.wake_latency.unwrap().sampling(), Sampling::Adaptive);
    // Every round taken: nothing stopped early, nothing to say.
    w.results[0].outcome = series(100, 0.02);
    assert_eq!(w.sampling(), Sampling::Fixed);
    assert_eq!(w.sampled(), None);
}
