//! Browser-layer tests on a page's main thread, under
//! wasm-bindgen-test-runner in headless Chromium and Firefox (`cargo xtask
//! test` runs them in both). Invariants only, never absolute times.
#![cfg(target_arch = "wasm32")]

use std::cell::Cell;
use std::rc::Rc;
use waitlab_browser::{clock, memory, wait};
use waitlab_core::outcome::reason;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn step() -> f64 {
    clock::measure_granularity(20.0)
        .expect("the clock moves")
        .tolerance_ms()
}

#[wasm_bindgen_test]
fn clock_is_monotonic_and_has_a_step() {
    let readings: Vec<f64> = (0..1000).map(|_| clock::now()).collect();
    assert!(readings.windows(2).all(|w| w[1] >= w[0]));
    let info = clock::measure_granularity(20.0).unwrap();
    assert!(info.min_step_ms > 0.0 && info.min_step_ms <= info.typical_step_ms);
    assert!(clock::time_origin() > 1.5e12, "time origin is Unix ms");
}

#[wasm_bindgen_test]
async fn a_timer_never_ends_much_before_it_was_asked_to() {
    // Firefox fires timers up to a fraction of a millisecond early; one
    // millisecond (or one clock step, if coarser) is the allowance.
    let floor = 10.0 - step().max(1.0);
    for _ in 0..5 {
        let t0 = clock::now();
        wait::timeout(10).await;
        let took = clock::now() - t0;
        assert!(took >= floor, "setTimeout(10) took {took} ms");
    }
}

#[wasm_bindgen_test]
async fn a_resolved_promise_does_not_yield() {
    // A timer queued before the awaits cannot run while they continue.
    let fired = Rc::new(Cell::new(false));
    let flag = fired.clone();
    wasm_bindgen_futures::spawn_local(async move {
        wait::timeout(0).await;
        flag.set(true);
    });
    let t0 = clock::now();
    while clock::now() - t0 < 20.0 {
        let resolved = js_sys::Promise::resolve(&JsValue::UNDEFINED);
        wasm_bindgen_futures::JsFuture::from(resolved)
            .await
            .expect("resolved");
    }
    assert!(!fired.get(), "a task ran during microtask-only awaits");
    // A real yield lets it run.
    wait::timeout(1).await;
    assert!(fired.get());
}

#[wasm_bindgen_test]
async fn a_fresh_task_escapes_the_nesting_clamp() {
    let tol = step();
    // Deeply nested timers are clamped to 4 ms ...
    for _ in 0..12 {
        wait::timeout(0).await;
    }
    let t0 = clock::now();
    wait::timeout(0).await;
    let nested = clock::now() - t0;
    assert!(
        nested >= 4.0 - tol.max(1.0),
        "nested setTimeout(0) took {nested} ms"
    );
    // ... and a fresh task starts again at nesting level 0.
    let mut fresh = Vec::new();
    for _ in 0..5 {
        wait::fresh_task().await;
        let t0 = clock::now();
        wait::timeout(0).await;
        fresh.push(clock::now() - t0);
    }
    fresh.sort_by(f64::total_cmp);
    assert!(
        fresh[2] < 4.0 - tol,
        "fresh setTimeout(0) median {} ms",
        fresh[2]
    );
}

#[wasm_bindgen_test]
async fn a_stamp_keeps_its_first_call_after_it_is_armed() {
    let stamp = wait::Stamp::new(clock::now);
    stamp.arm();
    let before = clock::now();
    let call = |v: f64| stamp.callback().call1(&JsValue::NULL, &JsValue::from(v));
    call(1.0).expect("the stamp runs");
    let first = stamp.fired().await;
    call(2.0).expect("the stamp runs again");
    assert_eq!(stamp.fired().await, first, "a later call moved the stamp");
    assert_eq!(stamp.value().as_f64(), Some(1.0));
    assert!(first >= before);
    stamp.arm();
    call(3.0).expect("armed again, it runs");
    assert!(stamp.fired().await >= first);
    assert_eq!(stamp.value().as_f64(), Some(3.0));
}

#[wasm_bindgen_test]
fn blocking_on_the_main_thread_is_refused_not_a_crash() {
    match memory::new_shared_i32(4) {
        Ok(memory) => {
            let err = memory::wait(&memory, 0, 0, 1.0).expect_err("Atomics.wait is forbidden here");
            assert!(!err.is_empty());
        }
        Err(why) => assert!(
            [reason::NOT_ISOLATED, reason::NO_SHARED_ARRAY_BUFFER].contains(&why),
            "{why}"
        ),
    }
}

#[wasm_bindgen_test]
fn scheduler_probes_report_absence_instead_of_failing() {
    use waitlab_browser::probes::timed_waits::main_unavailable;
    use waitlab_core::experiments::timed_waits::Mechanism;
    for (present, mechanism, missing) in [
        (
            wait::has_scheduler_yield(),
            Mechanism::SchedulerYield,
            reason::NO_SCHEDULER_YIELD,
        ),
        (
            wait::has_scheduler_post_task(),
            Mechanism::SchedulerPostTask,
            reason::NO_SCHEDULER_POST_TASK,
        ),
    ] {
        let said = main_unavailable(mechanism);
        assert_eq!(said, (!present).then_some(missing), "{mechanism:?}");
    }
}

/// A report with one small timed-waits cell, as a link carries it.
fn small_report() -> waitlab_core::schema::Report {
    use waitlab_core::experiments::timed_waits::{Cell, NestedChain, TimedWaits};
    use waitlab_core::experiments::timed_waits::{CellKey, Mechanism, TimedWaitsConfig};
    use waitlab_core::schema::{Environment, Report};
    let env = Environment {
        user_agent: "Mozilla/5.0 Chrome/156.0".into(),
        hardware_concurrency: 2,
        cross_origin_isolated: true,
        clock: None,
        started_at_unix_ms: 1.79e12,
        hidden_during_run: false,
        native: None,
    };
    // One cell, as a run of one mechanism and one duration has it.
    let config = TimedWaitsConfig {
        durations_ms: vec![1],
        mechanisms: vec![Mechanism::TimeoutFreshTask],
        ..TimedWaitsConfig::default()
    };
    let cells = vec![Cell {
        key: CellKey {
            mechanism: Mechanism::TimeoutFreshTask,
            requested_ms: Some(1),
        },
        outcome: waitlab_core::outcome::Outcome::measured(vec![1.1; 200]).unwrap(),
    }];
    let tw = TimedWaits {
        config,
        cells,
        chain: NestedChain { levels: Vec::new() },
        own: None,
    };
    Report::new(env, Some(tw))
}

#[wasm_bindgen_test]
async fn links_round_trip_through_the_browsers_deflate() {
    use waitlab_browser::links;
    let report = small_report();
    let payload = links::encode(&report)
        .await
        .expect("the browser compresses");
    assert!(payload.starts_with("v1:"), "{payload}");
    let back = links::decode(&payload).await.expect("it opens again");
    assert!(back.from_link);
    let cell = &back.timed_waits.unwrap().cells[0];
    match &cell.outcome {
        waitlab_core::outcome::Outcome::Measured { summary, .. } => {
            assert!((summary.p50 - 1.1).abs() < 0.01, "{summary:?}");
        }
        other => panic!("{other:?}"),
    }
}

#[wasm_bindgen_test]
async fn inflation_stops_at_its_cap() {
    use waitlab_browser::deflate::{InflateError, deflate, inflate};
    // 64 KiB + 1 of zeros deflate to a few hundred bytes.
    let bomb = deflate(&vec![0u8; 64 * 1024 + 1]).await.unwrap();
    assert!(bomb.len() < 1024, "{} bytes", bomb.len());
    assert_eq!(inflate(&bomb, 64 * 1024).await, Err(InflateError::TooLarge));
    assert_eq!(
        inflate(&bomb, 65 * 1024).await.map(|b| b.len()),
        Ok(64 * 1024 + 1)
    );
    assert!(matches!(
        inflate(b"not deflate at all", 1024).await,
        Err(InflateError::Corrupt(_))
    ));
    let damaged = waitlab_browser::links::decode("v1:AAAA").await;
    assert!(damaged.is_err(), "{damaged:?}");
}

#[wasm_bindgen_test]
fn a_drawing_is_text_in_svg_and_replaces_the_one_before() {
    use waitlab_browser::svg::draw_first;
    use waitlab_core::svg::Node;
    let document = web_sys::window().unwrap().document().unwrap();
    let frame = document.create_element("figure").unwrap();
    frame
        .append_child(&document.create_element("p").unwrap())
        .unwrap();
    let drawing =
        |text: &str| Node::new("svg").child(Node::label("tick", 1.0, 2.0, Some("end"), text));
    draw_first(&frame, &drawing("<b>1 ms</b>")).unwrap();
    let svg = frame.first_element_child().unwrap();
    assert_eq!(
        svg.namespace_uri().as_deref(),
        Some("http://www.w3.org/2000/svg")
    );
    assert!(
        frame.query_selector("b").unwrap().is_none(),
        "text is not markup"
    );
    assert_eq!(svg.text_content().as_deref(), Some("<b>1 ms</b>"));
    let label = svg.first_element_child().unwrap();
    assert_eq!(label.get_attribute("text-anchor").as_deref(), Some("end"));
    draw_first(&frame, &drawing("2 ms")).unwrap();
    assert_eq!(frame.child_element_count(), 2, "one drawing, then the p");
    assert_eq!(frame.text_content().as_deref(), Some("2 ms"));
}
