//! Tests of the comparisons (`compare.rs`).

use super::*;
use crate::clock::ClockInfo;
use crate::experiments::timed_waits::{Cell, NestedChain, TimedWaits};
use crate::experiments::timed_waits::{CellKey, Mechanism, TimedWaitsConfig};
use crate::experiments::wake_latency::WakeLatency;
use crate::experiments::{StatedFigure, StatedValue, Unit};
use crate::key;
use crate::outcome::Outcome;
use crate::schema::{Environment, NativeEnv, Source};

fn asking(requested: &[Option<u32>]) -> Group {
    Group {
        source: Phrase::new(key!("data")),
        origin: Origin::Browser,
        rows: requested
            .iter()
            .map(|&requested_ms| Row {
                what: Phrase::new(key!("data")),
                analogue: Phrase::new(key!("data")),
                values: Vec::new(),
                notes: Vec::new(),
                requested_ms,
                id: None,
                samples: Vec::new(),
                median_ms: None,
                spread_ms: None,
            })
            .collect(),
        clock: None,
        sketched: false,
    }
}

#[test]
fn the_headline_shows_one_wait_beside_the_waits_that_ask_for_none() {
    let browser = asking(&[Some(0), Some(1), Some(10), None]);
    assert_eq!(headline_wait(browser.rows.iter()), Some(1));
    let shown = |g: &Group, wait| g.rows.iter().filter(|r| r.in_headline(wait)).count();
    assert_eq!(shown(&browser, Some(1)), 2, "1 ms and the one asking none");
    // Without a 1 ms row, the shortest positive wait asked for.
    let other = asking(&[Some(0), Some(15), Some(10)]);
    assert_eq!(headline_wait(other.rows.iter()), Some(10));
    // One wait for every source, so they line up.
    assert_eq!(
        headline_wait(other.rows.iter().chain(&browser.rows)),
        Some(1)
    );
    // Nothing positive asked: every row shows.
    let none = asking(&[Some(0), None]);
    assert_eq!(headline_wait(none.rows.iter()), None);
    assert_eq!(shown(&none, None), 2);
    // A source that asked for none of the chart's wait still shows its
    // own: beside sources of 1 ms, a run of 0 ms timers alone keeps its
    // rows, and one of 0 and 10 ms its 10 ms rows.
    let headline = |g: &Group, wait| g.headline_rows(wait).count();
    assert_eq!(headline(&browser, Some(1)), 2);
    assert_eq!(browser.own_wait(Some(1)), Some(1));
    assert_eq!(asking(&[Some(0), Some(10)]).own_wait(Some(1)), Some(10));
    assert_eq!(asking(&[Some(0)]).own_wait(Some(1)), None);
    assert_eq!(
        asking(&[None]).own_wait(Some(1)),
        Some(1),
        "asked for no wait"
    );
    assert_eq!(headline(&asking(&[Some(0)]), Some(1)), 1);
    assert_eq!(headline(&asking(&[Some(0), Some(10), None]), Some(1)), 2);
    assert_eq!(headline(&none, None), 2);
}

pub(super) fn env(native: bool) -> Environment {
    Environment {
        native: native.then(|| NativeEnv {
            name: ".NET 10 (article)".into(),
            runtime: ".NET 10".into(),
            os: "macOS".into(),
            cpu: "M4".into(),
            source: Source::Article("the article".into()),
            samples: Some(200),
        }),
        ..Environment::test_chrome()
    }
}

fn stated(column: &str, low: f64, high: Option<f64>) -> StatedFigure {
    StatedFigure {
        id: None,
        experiment: Experiment::PoolStarvation,
        what: "200 × Thread.Sleep(1000)".into(),
        analogue: "Thread.Sleep(T) in each work item".into(),
        value: Some(StatedValue {
            column: column.into(),
            low,
            high,
            approximate: false,
        }),
        quote: "q".into(),
    }
}

#[test]
fn stated_figures_fill_only_their_cells() {
    let mut r = Report::new(env(true), None);
    r.stated = vec![
        stated("batch", 18000.0, None),
        stated("extra_wait", 17000.0, None),
    ];
    check_stated(&r).unwrap();
    let g = group(Experiment::PoolStarvation, &r).unwrap();
    assert_eq!(g.origin, Origin::Stated);
    assert_eq!(g.rows.len(), 1, "figures with one subject share a row");
    let v = &g.rows[0].values;
    assert_eq!(v.len(), Experiment::PoolStarvation.columns().len());
    assert_eq!(v[0].format(Unit::Ms), "18000");
    assert_eq!(
        v[1],
        Value::Absent,
        "the model is not stated, so it stays absent"
    );
    assert_eq!(g.rows[0].notes.len(), 2);
    assert!(group(Experiment::SpinLadder, &r).is_none());

    r.stated.push(stated("nonsense", 1.0, None));
    assert!(
        check_stated(&r)
            .unwrap_err()
            .to_string()
            .contains("nonsense")
    );
}

#[test]
fn ranges_and_approximations_format() {
    let v = Value::Stated {
        low: 0.3,
        high: Some(2.0),
        approximate: false,
    };
    assert_eq!(v.format(Unit::Ms), "0.3–2.00");
    assert_eq!(v.span(), Some((0.3, 2.0)));
    let v = Value::Stated {
        low: 50.0,
        high: None,
        approximate: true,
    };
    assert_eq!(v.format(Unit::Times), "≈50.0×");
    assert_eq!(Value::of(f64::NAN), Value::Absent);
    assert_eq!(Unit::Us.to_axis(1265.0), Some(1.265));
    assert_eq!(Unit::Count.to_axis(1.0), None);
}

#[test]
fn measured_cells_become_rows_with_every_column() {
    let config = TimedWaitsConfig::default();
    let cells = vec![
        Cell {
            key: CellKey {
                mechanism: Mechanism::ThreadSleep,
                requested_ms: Some(10),
            },
            outcome: Outcome::measured(vec![10.2, 10.4, 10.3]).unwrap(),
        },
        Cell {
            key: CellKey {
                mechanism: Mechanism::TokioYield,
                requested_ms: None,
            },
            outcome: Outcome::Unavailable { reason: "x".into() },
        },
    ];
    let r = Report::new(
        env(false),
        Some(TimedWaits {
            config,
            cells,
            chain: NestedChain { levels: Vec::new() },
            own: None,
        }),
    );
    let g = group(Experiment::TimedWaits, &r).unwrap();
    assert_eq!(g.origin, Origin::Browser);
    let en = crate::text::Catalog::english();
    assert_eq!(en.render(&g.source), "You: Chrome 156 on Linux, now");
    assert_eq!(en.render(&g.rows[0].what), "std::thread::sleep(10)");
    assert_eq!(en.render(&g.rows[0].analogue), "Thread.Sleep(10)");
    assert_eq!(g.rows[0].values[0], Value::Measured(10.3));
    let at = |id| Experiment::TimedWaits.column_index(id).unwrap();
    let overshoot = g.rows[0].values[at("overshoot")].span().unwrap().0;
    assert!((overshoot - 0.3).abs() < 1e-9);
    assert_eq!(g.rows[0].values[at("n")], Value::Measured(3.0));
    assert_eq!(
        g.rows[1].values,
        vec![Value::Absent; Experiment::TimedWaits.columns().len()]
    );
    let notes: Vec<String> = g.rows[1].notes.iter().map(|n| en.render(n)).collect();
    assert_eq!(notes, ["not available: x"]);
    assert!(r.measured_anything(Experiment::TimedWaits));
    let mut nothing = r.clone();
    if let Some(tw) = nothing.timed_waits.as_mut() {
        tw.cells.remove(0);
    }
    assert!(!nothing.measured_anything(Experiment::TimedWaits));
    assert!(!r.measured_anything(Experiment::SpinLadder));
}

/// With a clock of 5 µs steps (0.1 ms resolves), a 0.01 ms median is
/// marked, a 10.3 ms one is not, and a ratio to an unresolved event
/// wait is marked with the event's figure.
#[test]
fn figures_under_the_clock_are_marked() {
    use crate::experiments::wake_latency::{Strategy, WakeConfig, WakeResult};
    let clock = ClockInfo {
        min_step_ms: 0.005,
        typical_step_ms: 0.005,
        readings: 100,
    };
    let mut e = env(false);
    e.clock = Some(clock);
    let cell = |mechanism, requested_ms, v: f64| Cell {
        key: CellKey {
            mechanism,
            requested_ms,
        },
        outcome: Outcome::measured(vec![v; 3]).unwrap(),
    };
    let tw = TimedWaits {
        config: TimedWaitsConfig::default(),
        cells: vec![
            cell(Mechanism::ThreadSleep, Some(10), 10.3),
            cell(Mechanism::ResolvedPromise, None, 0.01),
        ],
        chain: NestedChain { levels: Vec::new() },
        own: None,
    };
    let mut r = Report::new(e, Some(tw));
    let g = group(Experiment::TimedWaits, &r).unwrap();
    assert_eq!(g.rows[0].values[0], Value::Measured(10.3));
    let overshoot = Experiment::TimedWaits.column_index("overshoot").unwrap();
    assert!(
        matches!(g.rows[0].values[overshoot], Value::Measured(_)),
        "an overshoot of 0.3 ms spans 60 steps"
    );
    assert_eq!(
        g.rows[1].values[0],
        Value::Unresolved {
            value: 0.01,
            figure_ms: 0.01,
            clock
        }
    );
    assert_eq!(g.rows[1].values[0].format(Unit::Ms), "0.01‡");
    // A step of its clock either way: what the figure cannot tell apart.
    let (lo, hi) = g.rows[1].values[0].clock_band().unwrap();
    assert!(lo == 0.01 - clock.typical_step_ms || lo == 0.0);
    assert!((hi - (0.01 + clock.typical_step_ms)).abs() < 1e-12);
    assert_eq!(g.rows[0].values[0].clock_band(), None);
    // A time of 0 (a 1 ms clock read the same before and after): anything
    // under one step.
    let zero = Value::Unresolved {
        value: 0.0,
        figure_ms: 0.0,
        clock,
    };
    assert_eq!(zero.clock_band(), Some((0.0, clock.typical_step_ms)));
    r.wake_latency = Some(WakeLatency {
        config: WakeConfig::default(),
        skew_ms: None,
        results: [(Strategy::Event, 0.03), (Strategy::SleepPoll, 1.5)]
            .into_iter()
            .map(|(strategy, v)| WakeResult {
                strategy,
                outcome: Outcome::measured(vec![v; 3]).unwrap(),
            })
            .collect(),
        own: None,
    });
    let g = group(Experiment::WakeLatency, &r).unwrap();
    assert!(matches!(g.rows[0].values[0], Value::Unresolved { .. }));
    assert_eq!(g.rows[1].values[0], Value::Measured(1.5));
    match g.rows[1].values[Experiment::WakeLatency.column_index("ratio").unwrap()] {
        Value::Unresolved {
            value, figure_ms, ..
        } => assert!((value - 50.0).abs() < 1e-9 && figure_ms == 0.03),
        ref other => panic!("{other:?}"),
    }
    // A ratio's band: the step moves the time it divides by.
    let ratio = &g.rows[1].values[Experiment::WakeLatency.column_index("ratio").unwrap()];
    let (lo, hi) = ratio.clock_band().unwrap();
    let step = clock.typical_step_ms / 0.03;
    assert!((lo - 50.0 * (1.0 - step)).abs() < 1e-9 && (hi - 50.0 * (1.0 + step)).abs() < 1e-9);
    // Cancellable waits: a row per strategy with its label and .NET
    // call, a short figure marked, an unavailable one with its reason.
    use crate::experiments::cancel_waits::{
        CancelConfig, CancelResult, CancelWaits, Strategy as Cancel,
    };
    r.cancel_waits = Some(CancelWaits {
        config: CancelConfig::default(),
        skew_ms: None,
        results: vec![
            CancelResult {
                strategy: Cancel::BlindSleep,
                outcome: Outcome::measured(vec![9.5; 3]).unwrap(),
            },
            CancelResult {
                strategy: Cancel::CancelEvent,
                outcome: Outcome::measured(vec![0.02; 3]).unwrap(),
            },
            CancelResult {
                strategy: Cancel::AbortTimer,
                outcome: Outcome::Unavailable {
                    reason: crate::outcome::reason::NOT_ISOLATED.into(),
                },
            },
        ],
        own: None,
    });
    let g = group(Experiment::CancelWaits, &r).unwrap();
    assert_eq!(g.rows.len(), 3);
    assert_eq!(g.rows[0].what, Cancel::BlindSleep.label());
    assert_eq!(g.rows[0].analogue, Cancel::NativeSleep.analogue());
    assert_eq!(g.rows[0].values[0], Value::Measured(9.5));
    assert_eq!(g.rows[0].values[3], Value::Measured(3.0));
    assert!(matches!(g.rows[1].values[1], Value::Unresolved { .. }));
    assert!(g.rows[2].values.iter().all(|v| *v == Value::Absent));
    assert_eq!(g.rows[2].notes.len(), 1);
}

/// A group of `rows` (id, what, samples), read by a clock of `step` ms.
pub(super) fn sampled(
    origin: Origin,
    step: f64,
    rows: &[(&'static str, &'static str, Vec<f64>)],
) -> Group {
    let mut g = asking(&vec![Some(1); rows.len()]);
    g.origin = origin;
    g.clock = Some(ClockInfo {
        min_step_ms: step,
        typical_step_ms: step,
        readings: 1000,
    });
    for (row, (id, what, samples)) in g.rows.iter_mut().zip(rows) {
        row.id = Some(id);
        row.what = Phrase::new(key!("data")).data("name", *what);
        row.samples = samples.clone();
        row.median_ms = None;
    }
    g
}

/// `n` samples around `median`, spread by `spread` ms either way.
pub(super) fn around(median: f64, spread: f64, n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| median + spread * ((i * 37 % n) as f64 / n as f64 - 0.5))
        .collect()
}

#[test]
fn verdicts_pair_rows_by_their_way_and_say_why_not() {
    use verdict::{Judged, Verdict, judge};
    let mut base = sampled(
        Origin::Browser,
        0.005,
        &[
            ("timer", "setTimeout", around(1.1, 0.05, 200)),
            ("sleep", "Atomics.wait", around(1.05, 0.02, 200)),
            ("yield", "MessageChannel", Vec::new()),
        ],
    );
    base.rows[1].median_ms = Some(1.1);
    assert_eq!(judge(&base, &base), vec![Judged::Base; 3]);
    let mut other = sampled(
        Origin::Linked,
        0.005,
        &[
            ("timer", "setTimeout", around(1.1, 0.05, 150)),
            ("sleep", "Atomics.wait", around(2.1, 0.02, 150)),
            ("yield", "MessageChannel", around(0.01, 0.002, 150)),
            ("frame", "requestAnimationFrame", around(16.7, 0.5, 150)),
            ("timer2", "setTimeout in a fresh task", around(0.5, 0.01, 5)),
        ],
    );
    other.sketched = true;
    // The ratio is of the medians the sources give (a link's are exact).
    other.rows[1].median_ms = Some(2.2);
    // The last row stands for the same code as the base's first.
    other.rows[4].analogue = base.rows[0].analogue.clone();
    other.rows[3].analogue = Phrase::new(key!("data")).data("name", "frame");
    let judged = judge(&base, &other);
    let Judged::Tested(same) = &judged[0] else {
        panic!("{judged:?}")
    };
    assert_eq!(same.verdict, Verdict::Same);
    assert!(same.approximate && same.partner.is_none());
    assert!((same.ratio - 1.0).abs() < 0.01, "{}", same.ratio);
    let Judged::Tested(slower) = &judged[1] else {
        panic!()
    };
    assert_eq!(slower.verdict, Verdict::Slower);
    assert!(slower.p < verdict::ALPHA && slower.effect > 0.99);
    assert!((slower.ratio - 2.0).abs() < 1e-12);
    assert_eq!(judged[2], Judged::NotMeasured, "the base has no samples");
    assert_eq!(judged[3], Judged::NoPartner);
    assert_eq!(judged[4], Judged::TooFew);

    // Another way of waiting that stands for the same code is compared,
    // and named.
    let native = sampled(
        Origin::Native,
        0.0001,
        &[("tokio", "tokio sleep", around(0.5, 0.01, 100))],
    );
    let mut native = native;
    native.rows[0].analogue = base.rows[0].analogue.clone();
    let Judged::Tested(faster) = &judge(&base, &native)[0] else {
        panic!()
    };
    assert_eq!(faster.verdict, Verdict::Faster);
    assert!(!faster.approximate);
    assert_eq!(faster.partner, Some(base.rows[0].what.clone()));
    assert!(faster.effect < -0.99);
}

#[test]
fn no_verdict_comes_of_a_difference_under_two_clock_steps() {
    use verdict::{Judged, Verdict, judge};
    // A coarse clock of 0.1 ms: medians 0.15 ms apart differ by under two
    // steps, however many samples say so (and by more than 5 %: it is
    // under the clock, not the same); 0.3 ms apart is a difference;
    // 0.01 ms apart is the same.
    let base = sampled(
        Origin::Browser,
        0.1,
        &[("yield", "y", around(0.3, 0.01, 500))],
    );
    for (shift, want) in [
        (0.15, Verdict::UnderClock),
        (0.3, Verdict::Slower),
        (0.01, Verdict::Same),
    ] {
        let other = sampled(
            Origin::Linked,
            0.1,
            &[("yield", "y", around(0.3 + shift, 0.01, 500))],
        );
        let judged = &judge(&base, &other)[0];
        let Judged::Tested(t) = judged else { panic!() };
        assert_eq!(t.verdict, want, "{shift}");
        assert!((t.threshold_ms - 0.2).abs() < 1e-12);
        // A ratio beside "too close for the clocks" says it is the
        // clock's grain; beside any other verdict, only the ratio.
        let (_, figures) = judged.phrases(&Phrase::new(crate::key!("compare.verdict.your_run")));
        let under = figures[0].key == crate::key!("compare.verdict.stat.ratio_under_clock");
        assert_eq!(under, want == Verdict::UnderClock, "{shift}");
    }
    // Two wide spreads (polling over its interval) whose medians differ
    // by more than the clock's steps, which the test cannot tell apart:
    // unclear, neither the same nor under the clock.
    let wide = |centre: f64| {
        sampled(
            Origin::Browser,
            0.005,
            &[("poll", "p", around(centre, 1.0, 40))],
        )
    };
    let Judged::Tested(t) = &judge(&wide(0.5), &wide(0.6))[0] else {
        panic!()
    };
    assert_eq!(
        t.verdict,
        Verdict::Unclear,
        "not “same”: the test cannot tell"
    );
    // Stated figures are not tested, and a base is the first source with
    // samples.
    let mut stated = asking(&[Some(1)]);
    stated.origin = Origin::Stated;
    assert_eq!(judge(&base, &stated), vec![Judged::Stated]);
    let groups = [stated, base.clone()];
    assert_eq!(verdict::base(groups.iter()), Some(1));
}

/// A difference of medians no larger than how far the two rows wander
/// between runs is no verdict, however clear within the runs: "perhaps",
/// saying that two runs can lie that far apart (or "the same" within 5 %);
/// beyond it the test decides as before; where either side's wander is
/// unknown (a link made before links carried it), nothing changes.
#[test]
fn a_difference_within_how_far_runs_wander_is_no_verdict() {
    use crate::stats::SPREAD_Z;
    use verdict::{Judged, Test, Verdict, judge};
    let row = |origin, median: f64, wander: Option<f64>| {
        let mut g = sampled(origin, 0.005, &[("wake", "w", around(median, 0.004, 400))]);
        g.rows[0].spread_ms = wander;
        g
    };
    let tested = |base: &Group, other: &Group| match judge(base, other).remove(0) {
        Judged::Tested(t) => t,
        j => panic!("{j:?}"),
    };
    // Both rows wandered by 0.01 ms within their runs: two runs of them
    // lie up to `wander` apart, and the threshold says so.
    let wander = SPREAD_Z * 0.01f64.hypot(0.01);
    let base = row(Origin::Browser, 0.1, Some(0.01));
    let within = 0.1 + wander / 2.0;
    let t: Test = tested(&base, &row(Origin::Linked, within, Some(0.01)));
    assert_eq!((t.verdict, t.within_wander), (Verdict::Unclear, true));
    assert!((t.threshold_ms - wander).abs() < 1e-12);
    let (said, _) = Judged::Tested(t).phrases(&Phrase::new(key!("compare.verdict.your_run")));
    assert_eq!(said.key, key!("compare.verdict.says.wander_slower"));
    // Without the wander, the same samples are told apart.
    let t = tested(
        &row(Origin::Browser, 0.1, None),
        &row(Origin::Linked, within, None),
    );
    assert_eq!(t.verdict, Verdict::Slower);
    // One side's wander unknown: as without.
    let t = tested(&base, &row(Origin::Linked, within, None));
    assert_eq!(t.verdict, Verdict::Slower);
    // Twice the wander apart: told, either way.
    let t = tested(
        &base,
        &row(Origin::Linked, 0.1 - 2.0 * wander.min(0.04), Some(0.01)),
    );
    assert_eq!((t.verdict, t.within_wander), (Verdict::Faster, false));
    // Within 5 %: the same.
    let t = tested(&base, &row(Origin::Linked, 0.102, Some(0.01)));
    assert_eq!(t.verdict, Verdict::Same);
    // A wide series that wanders far (a message hop in WebKitGTK: most at
    // 0.3 ms, a third from 1 to 2.9 ms, its blocks' medians 0.8 ms apart)
    // whose every sample lies below a clamped chain of 4.1 ms: the medians
    // are further apart than both wander, and the verdict is the test's
    // (the wander bounds the medians; shifting each sample by it read
    // "perhaps" in own_wait_webkit, 12.4x apart).
    let mut hops = around(0.3, 0.1, 40);
    hops.extend((0..20).map(|i| 1.0 + 0.1 * f64::from(i)));
    let mut wide = sampled(Origin::Browser, 0.02, &[("wake", "w", hops)]);
    wide.rows[0].spread_ms = Some(0.8);
    let mut chain = sampled(
        Origin::Browser,
        0.02,
        &[("wake", "w", around(4.1, 0.05, 60))],
    );
    chain.rows[0].spread_ms = Some(0.01);
    let t = tested(&chain, &wide);
    assert_eq!((t.verdict, t.within_wander), (Verdict::Faster, false));
    assert!((t.threshold_ms - SPREAD_Z * 0.8f64.hypot(0.01)).abs() < 1e-12);
}

/// Wake latency charts ratios to the event wait; a run that could not
/// measure the event wait (no shared memory) has none, so the chart
/// plots times instead, and only then.
#[test]
fn a_chart_plots_times_where_a_source_has_no_ratio() {
    use crate::experiments::wake_latency::{Strategy, WakeConfig, WakeResult};
    use crate::outcome::reason;
    let run = |event: bool| {
        let mut r = Report::new(env(false), None);
        let event = if event {
            Outcome::measured(vec![0.05; 3]).unwrap()
        } else {
            Outcome::Unavailable {
                reason: reason::NOT_ISOLATED.to_owned(),
            }
        };
        r.wake_latency = Some(WakeLatency {
            config: WakeConfig::default(),
            skew_ms: None,
            results: vec![
                WakeResult {
                    strategy: Strategy::Event,
                    outcome: event,
                },
                WakeResult {
                    strategy: Strategy::SleepPoll,
                    outcome: Outcome::measured(vec![1.5; 3]).unwrap(),
                },
            ],
            own: None,
        });
        group(Experiment::WakeLatency, &r).unwrap()
    };
    let (whole, without) = (run(true), run(false));
    let ratio = Experiment::WakeLatency.column_index("ratio").unwrap();
    let p50 = Experiment::WakeLatency.column_index("p50").unwrap();
    let charted = chart_columns(Experiment::WakeLatency, [&whole]);
    assert_eq!((charted.columns, charted.instead), (vec![ratio], false));
    assert_eq!(charted.axis.key, key!("axis.ratio_log"));
    let charted = chart_columns(Experiment::WakeLatency, [&whole, &without]);
    assert_eq!((charted.columns, charted.instead), (vec![p50], true));
    assert_eq!(charted.axis.key, key!("axis.ms_log"));
    // Experiments that chart times chart them whatever a source lacks.
    let timed = chart_columns(Experiment::TimedWaits, [&without]);
    assert!(!timed.instead && !timed.columns.is_empty());
}
