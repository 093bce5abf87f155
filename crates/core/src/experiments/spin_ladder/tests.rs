//! Tests of experiment 3's spin ladder (`ladder.rs`).

use super::*;

#[test]
fn the_ladder_matches_dotnet() {
    const CAP: u32 = 7;
    let s: Vec<Step> = (0..26)
        .map(|c| step(c, Some(SLEEP1_THRESHOLD), CAP))
        .collect();
    for (c, st) in s.iter().enumerate().take(10) {
        assert_eq!(
            *st,
            Step::Spin {
                units: (1 << c).min(CAP)
            }
        );
    }
    // From 10: yield on even offsets, spin on odd ones.
    assert_eq!(s[10], Step::Yield);
    assert_eq!(s[11], Step::Spin { units: CAP });
    assert_eq!(s[12], Step::Yield);
    // The fifth yield (count 18) is a Sleep(0).
    assert_eq!(s[18], Step::Sleep0);
    assert_eq!(s[19], Step::Spin { units: CAP });
    // From 20 on: Sleep(1) every time.
    assert!(s[20..].iter().all(|&x| x == Step::Sleep1));
    // Without the sleep stage it keeps alternating.
    assert_eq!(step(20, None, CAP), Step::Yield);
    assert_eq!(step(28, None, CAP), Step::Sleep0);
    assert_eq!(step(29, None, CAP), Step::Spin { units: CAP });
    assert_eq!(step(u32::MAX, None, CAP), Step::Spin { units: CAP });
}

#[test]
fn default_estimate() {
    assert_eq!(LadderConfig::default().estimated_ms(), 620.0);
}

#[test]
fn results_from_costs() {
    let costs = vec![vec![0.001, 0.003, 0.002]; 22];
    let l = SpinLadder::from_costs(
        LadderConfig::default(),
        &costs,
        &[64; 22],
        vec![],
        None,
        None,
    );
    assert_eq!(l.steps.len(), 22);
    assert_eq!(l.steps[3].block, 64);
    assert_eq!(l.steps[21].step, Step::Sleep1);
    assert_eq!(l.steps[0].p50_ms, 0.002);
    assert!((l.cumulative_ms(0..10) - 0.02).abs() < 1e-12);
}

/// A real clock, yields and sleeps: the unit is calibrated near 37 ns
/// and every block spans the resolution.
#[test]
fn blocks_span_the_resolution() {
    let origin = std::time::Instant::now();
    let now = || origin.elapsed().as_secs_f64() * 1000.0;
    let perform = |s: Step| -> Result<(), ()> {
        match s {
            Step::Sleep1 => std::thread::sleep(std::time::Duration::from_millis(1)),
            _ => std::thread::yield_now(),
        }
        Ok(())
    };
    let config = LadderConfig {
        steps: 22,
        repeats: 2,
        spin_until_ms: 1,
    };
    let resolution = 0.1;
    let l = measure(&config, &now, resolution, &perform, None).unwrap();
    let c = l.calibration.expect("calibrated");
    assert_eq!((c.turn, l.bare), (Turn::Loop, None));
    // One turn may already be longer than a unit (then a unit is one
    // turn, as a normalized yield is one pause in .NET); otherwise
    // rounding keeps the unit within half a turn of 37 ns.
    assert!(
        c.turns_per_unit == 1 || (18.0..=74.0).contains(&c.unit_ns),
        "{c:?}"
    );
    for s in &l.steps {
        assert!(
            f64::from(s.block) * s.p50_ms >= 0.5 * resolution || s.block == MAX_BLOCK,
            "{s:?}"
        );
    }
    assert_eq!(l.steps[21].block, 1, "a Sleep(1) spans 0.1 ms alone");
    assert!(l.steps[21].p50_ms >= 1.0);
}

#[test]
fn uncalibrated_data_keeps_its_cap() {
    let textbook = SpinCalibration {
        turns_per_unit: 10,
        unit_ns: 37.0,
        turn: Turn::Loop,
    };
    assert_eq!(textbook.max_units(), 7, ".NET's default");
    let pause = SpinCalibration {
        turns_per_unit: 1,
        unit_ns: 49.0,
        turn: Turn::Loop,
    };
    assert_eq!(pause.max_units(), 6);
    assert_eq!(step(9, Some(20), 7), Step::Spin { units: 7 });
    assert_eq!(
        step(9, Some(20), UNCALIBRATED_MAX_SPIN_UNITS),
        Step::Spin { units: 512 }
    );
    assert_eq!(step(2, Some(20), 7), Step::Spin { units: 4 });
}

#[test]
fn phases_and_fractions() {
    assert_eq!(step(3, Some(20), 7).phase(), "spin");
    assert_eq!(step(10, Some(20), 7).phase(), "yield");
    assert_eq!(step(25, Some(20), 7).phase(), "sleep");
    let su = SpinUntil {
        sleep_stage: false,
        wall_ms: 200.0,
        busy_ms: 150.0,
        calls: 9,
    };
    assert_eq!(su.busy_fraction(), 0.75);
    assert_eq!(SpinUntil { wall_ms: 0.0, ..su }.busy_fraction(), 0.0);
}

/// With a spin hint, every turn issues it: the unit is calibrated in hints
/// (each a counted call), the empty loop beside it, and a link keeps both.
#[test]
fn a_hint_is_a_turn_and_the_empty_loop_is_calibrated_beside_it() {
    let origin = std::time::Instant::now();
    let now = || origin.elapsed().as_secs_f64() * 1000.0;
    let hints = std::cell::Cell::new(0u64);
    let hint = || {
        hints.set(hints.get() + 1);
        std::hint::spin_loop();
    };
    let perform = |_: Step| -> Result<(), ()> { Ok(()) };
    let config = LadderConfig {
        steps: 10,
        repeats: 1,
        spin_until_ms: 1,
    };
    let l = measure(&config, &now, 0.1, &perform, Some(&hint)).unwrap();
    let (c, bare) = (l.calibration.unwrap(), l.bare.unwrap());
    assert_eq!((c.turn, bare.turn), (Turn::Pause, Turn::Loop));
    assert!(hints.get() > u64::from(c.turns_per_unit), "{}", hints.get());
    assert!(c.turn_ns() > 0.0 && bare.turn_ns() > 0.0);
    let mut report =
        crate::schema::Report::new(crate::environment::Environment::test_chrome(), None);
    report.spin_ladder = Some(l);
    let body = crate::link::encode_body(&report);
    let back = crate::link::decode_body(&body)
        .unwrap()
        .spin_ladder
        .unwrap();
    let (c2, bare2) = (back.calibration.unwrap(), back.bare.unwrap());
    assert_eq!(
        (c2.turn, c2.turns_per_unit),
        (Turn::Pause, c.turns_per_unit)
    );
    assert_eq!(
        (bare2.turn, bare2.turns_per_unit),
        (Turn::Loop, bare.turns_per_unit)
    );
    // The page's one spin hint: the pause's turn; none for an empty one.
    let hint_of = |r: &crate::schema::Report| {
        let g = crate::compare::group(crate::experiments::Experiment::SpinLadder, r).unwrap();
        g.rows[0].values[3].clone()
    };
    assert!(matches!(
        hint_of(&report),
        crate::compare::Value::Measured(_)
    ));
    let mut empty = report.clone();
    empty
        .spin_ladder
        .as_mut()
        .unwrap()
        .calibration
        .as_mut()
        .unwrap()
        .turn = Turn::Loop;
    assert_eq!(hint_of(&empty), crate::compare::Value::Absent);
}
