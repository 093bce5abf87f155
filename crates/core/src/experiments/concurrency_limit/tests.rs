//! Tests of experiment 8 (at most N at once): configuration, results, ways of waiting.

use super::*;
use crate::experiments::seeded::sequence;
use crate::strategies::assert_pairs_up;

fn run(spans: &[(f64, f64)]) -> LimitRun {
    let spans = spans
        .iter()
        .map(|&(start_ms, end_ms)| Span { start_ms, end_ms })
        .collect();
    LimitRun::measured(Gate::AsyncSemaphore, spans, 2)
}

#[test]
fn a_slot_goes_to_the_next_job_in_start_order() {
    // Two slots; jobs 2 and 3 take the slots freed at 10 and 12.
    let r = run(&[(0.0, 12.0), (0.0, 10.0), (10.5, 20.0), (14.0, 30.0)]);
    assert_eq!(handoffs_ms(&r.spans, 2), [0.5, 2.0]);
    assert_eq!(r.outcome.samples(), Some(&[0.5, 2.0][..]));
    assert_eq!(r.peak(), 2);
    assert_eq!(r.batch_ms(), 30.0);
    assert_eq!(
        r.concurrency(),
        [
            (0.0, 1),
            (0.0, 2),
            (10.0, 1),
            (10.5, 2),
            (12.0, 1),
            (14.0, 2),
            (20.0, 1),
            (30.0, 0)
        ]
    );
    // An end and a start at one instant: the end first, so the peak
    // is not overstated.
    assert_eq!(run(&[(0.0, 5.0), (5.0, 9.0)]).peak(), 1);
    // No job past the limit: nothing handed off, which is a failure
    // to measure, not a zero.
    assert!(matches!(
        run(&[(0.0, 5.0), (0.0, 4.0)]).outcome,
        Outcome::Failed { .. }
    ));
}

#[test]
fn jobs_are_seeded_and_fields_checked() {
    let c = LimitConfig::default();
    let expected = sequence(c.seed, 40, 10..=30);
    assert_eq!(c.jobs_ms(), expected);
    assert!(
        LimitConfig::parse(&["4", "4", "20"]).is_err(),
        "no slot would change hands"
    );
    assert!(matches!(
        LimitConfig::parse(&["400", "1", "1000"]),
        Err(FieldError::TooLong { .. })
    ));
    let ideal = c.ideal_batch_ms();
    assert!((150.0..250.0).contains(&ideal), "{ideal}");
    assert!(c.estimated_ms() < 5000.0);
}

#[test]
fn browser_and_native_gates_pair_up() {
    assert_pairs_up(&Gate::BROWSER, &Gate::NATIVE, Gate::polls);
}
