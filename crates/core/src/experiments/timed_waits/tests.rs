//! Tests of experiment 1's timed waits (`timed.rs`).

use super::*;
use crate::sampling::Sampling;

#[test]
fn ids_are_unique() {
    let all: Vec<_> = Mechanism::every().collect();
    let mut ids: Vec<_> = all.iter().map(|m| m.id()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), all.len());
    assert!(Mechanism::NATIVE.iter().all(|m| m.thread() == Thread::Os));
}

#[test]
fn cell_labels_fill_in_the_duration() {
    let key = CellKey {
        mechanism: Mechanism::WorkerAtomicsWait,
        requested_ms: Some(10),
    };
    assert_eq!(
        key.label().keys(),
        [key!("timed_waits.mechanism.worker_atomics_wait")]
    );
    assert_eq!(
        key.label().args,
        [("d".into(), crate::text::Arg::Data("10".to_owned()))]
    );
    assert_eq!(key.id(), "worker_atomics_wait-10");
    assert_eq!(key.analogue().key, key!("timed_waits.analogue.sleep"));
}

#[test]
fn default_config_is_valid_with_expected_cells() {
    let c = TimedWaitsConfig::default();
    c.validate().unwrap();
    // 6 timed mechanisms x 4 durations + 5 yields.
    assert_eq!(c.cells().len(), 29);
    assert_eq!(c.cells_of(&Mechanism::browser_v1()).len(), 25);
}

#[test]
fn the_estimate_adds_both_threads() {
    // Defaults, each cell all 200 samples: the worker (119 ms a sample),
    // then the main thread (about 84 ms a sample plus the chain).
    let fixed = TimedWaitsConfig {
        sampling: Sampling::Fixed,
        ..TimedWaitsConfig::default()
    };
    let ms = fixed.estimated_ms();
    assert!((40_000.0..42_500.0).contains(&ms), "{ms}");
    // Sampling until each median is known: a wait of a millisecond or
    // more (a clamped timer's too) is counted at 37 samples.
    let ms = TimedWaitsConfig::default().estimated_ms();
    assert!((8_000.0..9_000.0).contains(&ms), "{ms}");
    // 100,000 zero-time timers from fresh tasks, then the chain.
    let long = TimedWaitsConfig {
        durations_ms: vec![0],
        samples: 100_000,
        mechanisms: vec![Mechanism::TimeoutFreshTask],
        ..TimedWaitsConfig::default()
    };
    let ms = long.estimated_ms();
    assert!((11_000.0..11_100.0).contains(&ms), "{ms}");
}

#[test]
fn parse_checks_limits() {
    let ok = TimedWaitsConfig::parse("15, 1 1,0", (" 50 ", Sampling::Fixed), &Mechanism::BROWSER)
        .unwrap();
    assert_eq!(ok.durations_ms, vec![0, 1, 15]);
    assert_eq!(ok.samples, 50);
    let check = |d: &str, s: &str, want: ConfigError| {
        assert_eq!(
            TimedWaitsConfig::parse(d, (s, Sampling::Fixed), &Mechanism::BROWSER),
            Err(want)
        );
    };
    check("", "10", ConfigError::NoDurations);
    check("1,x", "10", ConfigError::NotANumber("x".into()));
    check("-1", "10", ConfigError::NotANumber("-1".into()));
    check("1", "1e9", ConfigError::NotANumber("1e9".into()));
    check(
        "1",
        "0",
        ConfigError::SamplesOutOfRange {
            max: 100_000,
            got: 0,
        },
    );
    check(
        "2000",
        "1",
        ConfigError::DurationOutOfRange {
            max: 1000,
            got: 2000,
        },
    );
    check(
        "1,2,3,4,5,6,7,8,9",
        "1",
        ConfigError::TooManyDurations { max: 8, got: 9 },
    );
    assert!(matches!(
        TimedWaitsConfig::parse("1000", ("5000", Sampling::Fixed), &Mechanism::BROWSER),
        Err(ConfigError::TooLong { .. })
    ));
    assert_eq!(
        TimedWaitsConfig::parse("1", ("10", Sampling::Fixed), &[]),
        Err(ConfigError::NoMechanisms)
    );
    // 29 cells of 5,000 samples are within the run's samples (though
    // not its time); 100,000 fit in a cell of a mechanism picked alone,
    // but not in each of three.
    assert!(matches!(
        TimedWaitsConfig::parse(
            "0, 1, 10, 15",
            ("5000", Sampling::Fixed),
            &Mechanism::BROWSER
        ),
        Err(ConfigError::TooLong { .. })
    ));
    let fast = [Mechanism::ResolvedPromise, Mechanism::MessageChannel];
    assert_eq!(
        TimedWaitsConfig::parse("0", ("100000", Sampling::Fixed), &fast[..1])
            .unwrap()
            .cells()
            .len(),
        1
    );
    assert_eq!(
        TimedWaitsConfig::parse(
            "0",
            ("100000", Sampling::Fixed),
            &[fast[0], fast[1], Mechanism::TimeoutFreshTask]
        ),
        Err(ConfigError::TooManySamples {
            max: 200_000,
            got: 300_000
        })
    );
}

#[test]
fn picked_mechanisms_keep_display_order_and_their_cells() {
    let picked = [Mechanism::WorkerAtomicsWait, Mechanism::TimeoutFreshTask];
    let c = TimedWaitsConfig::parse("1, 10", ("20", Sampling::Fixed), &picked).unwrap();
    assert_eq!(
        c.mechanisms,
        [Mechanism::TimeoutFreshTask, Mechanism::WorkerAtomicsWait]
    );
    let ids: Vec<String> = c.cells().iter().map(CellKey::id).collect();
    assert_eq!(
        ids,
        [
            "timeout_fresh_task-1",
            "timeout_fresh_task-10",
            "worker_atomics_wait-1",
            "worker_atomics_wait-10"
        ]
    );
    // A report's cells say what was measured; the configuration it
    // writes does not repeat them.
    let json = serde_json::to_string(&c).unwrap();
    assert!(!json.contains("mechanisms"), "{json}");
    assert_eq!(
        Mechanism::named_by(c.cells()),
        [Mechanism::TimeoutFreshTask, Mechanism::WorkerAtomicsWait]
    );
}
