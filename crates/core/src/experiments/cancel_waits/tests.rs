//! Tests of experiment 6 (cancellable waits): configuration, results, ways of waiting.

use super::*;
use crate::experiments::seeded::sequence;
use crate::field::FieldError;
use crate::strategies::assert_pairs_up;

#[test]
fn cancel_points_fall_inside_the_wait() {
    let c = CancelConfig::default();
    let expected = sequence(c.seed, 40, 2000..=18_000);
    assert_eq!(c.cancel_points_us(), expected);
    let short = CancelConfig::parse(&["3", "5"]).unwrap();
    assert!(
        short
            .cancel_points_us()
            .iter()
            .all(|&p| (500..=4500).contains(&p))
    );
}

#[test]
fn blind_sleeps_stay_within_the_longest_batch() {
    // 500 blind sleeps of 1 s would block for more than 20 s.
    assert!(matches!(
        CancelConfig::parse(&["500", "1000"]),
        Err(FieldError::TooLong { seconds: 500, .. })
    ));
    assert!(CancelConfig::parse(&["20", "1000"]).is_ok());
}

#[test]
fn kinds_pair_up() {
    let (browser, native) = (Strategy::BROWSER, Strategy::NATIVE);
    assert_pairs_up(&browser, &native, Strategy::wakes_on_cancel);
    assert!(!Strategy::BlindSleep.wakes_on_cancel());
    assert!(!Strategy::AbortTimer.needs_shared_memory());
}

#[test]
fn a_wait_that_ran_out_first_wasted_nothing() {
    assert_eq!(crate::clock::corrected_ms(-0.2, 0.05), 0.0);
    assert!((crate::clock::corrected_ms(9.5, -0.5) - 9.0).abs() < 1e-12);
}
