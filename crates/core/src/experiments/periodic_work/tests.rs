//! Tests of experiment 7 (periodic work): configuration, results, ways of waiting.

use super::*;
use crate::experiments::seeded::sequence;
use crate::field::FieldError;

#[test]
fn work_is_seeded_and_within_its_bound() {
    let c = PeriodicConfig::default();
    let work = c.work_us();
    assert_eq!(work, sequence(c.seed, c.ticks, 0..=24_000));
    // Some ticks work longer than the interval: a late tick is due.
    assert!(work.iter().any(|&w| w > 20_000));
    assert!(PeriodicConfig::parse(&["3", "10", "0"]).unwrap().work_us() == [0, 0, 0]);
}

#[test]
fn loops_stay_within_the_longest_batch() {
    // 200 ticks of up to 400 ms on the main thread, three times over.
    assert!(matches!(
        PeriodicConfig::parse(&["200", "20", "400"]),
        Err(FieldError::TooLong { .. })
    ));
    // The defaults run in well under five seconds.
    let estimate = PeriodicConfig::default().estimated_ms();
    assert!((2000.0..5000.0).contains(&estimate), "{estimate}");
}

#[test]
fn lateness_is_against_the_ideal_schedule() {
    let l = lateness_ms(100.0, 20, &[120.5, 141.0, 190.0]);
    assert_eq!(l, [0.5, 1.0, 30.0]);
    let r = PeriodicResult {
        scheduler: Scheduler::MainChained,
        outcome: Outcome::of_samples(l),
    };
    assert_eq!(r.drift_ms(), Some(30.0));
    assert_eq!(r.late_ticks(20), Some(1));
    let none = PeriodicResult {
        scheduler: Scheduler::MainChained,
        outcome: Outcome::Failed {
            message: "x".into(),
        },
    };
    assert_eq!(none.drift_ms(), None);
}

#[test]
fn main_and_worker_loops_pair_up() {
    for s in Scheduler::every() {
        assert_eq!(s.schedule().is_none(), Scheduler::NATIVE.contains(&s));
    }
    for (main, worker) in Scheduler::MAIN.into_iter().zip(Scheduler::WORKER) {
        assert_eq!(main.schedule(), worker.schedule());
        assert_eq!(main.analogue(), worker.analogue());
    }
    assert!(Scheduler::SleepLoop.waits_after_work());
    assert!(!Scheduler::TokioSkip.waits_after_work());
}
