//! Tests of experiment 2a (a starved main thread): configuration, results, ways of waiting.

use super::*;
use crate::field::FieldError;

#[test]
fn expected_shapes_follow_the_article() {
    // 8 jobs of 150 ms: one after the other, or side by side.
    let main = MainConfig::default();
    assert_eq!(main.expected_batch_ms(JobMode::Blocking), 1200.0);
    assert_eq!(main.expected_batch_ms(JobMode::Async), 150.0);
}

#[test]
fn blocking_batches_stay_within_the_longest() {
    assert!(matches!(
        MainConfig::parse(&["64", "2000"]),
        Err(FieldError::TooLong { seconds: 128, .. })
    ));
}

#[test]
fn frame_gaps_include_the_wait_for_the_first_frame() {
    let run = MainRun {
        mode: JobMode::Blocking,
        batch_ms: 1000.0,
        timer_queue_wait_ms: 1000.0,
        message_queue_wait_ms: 1000.0,
        frames_ms: vec![16.0, 32.0, 520.0, 536.0],
    };
    assert_eq!(
        run.frame_gaps(),
        vec![(16.0, 16.0), (32.0, 16.0), (520.0, 488.0), (536.0, 16.0)]
    );
    assert_eq!(run.longest_frame_gap(), 488.0);
    assert_eq!(run.long_frame_gaps(), 1);
    assert_eq!(run.median_frame_gap(), 16.0);
    let frozen = MainRun {
        frames_ms: vec![900.0],
        ..run.clone()
    };
    assert_eq!(frozen.longest_frame_gap(), 900.0);
    let none = MainRun {
        frames_ms: vec![],
        ..run
    };
    assert_eq!(none.longest_frame_gap(), 1000.0);
    assert_eq!(none.long_frame_gaps(), 0);
    assert_eq!(none.median_frame_gap(), 1000.0);
}
