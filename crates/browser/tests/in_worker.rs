//! Browser-layer tests inside a dedicated worker, where `Atomics.wait` may
//! block: the Thread.Sleep analogue and the worker probes themselves.
//! Run by `cargo xtask test` in headless Chromium and Firefox, on the test
//! runner's cross-origin isolated pages: a test that needs shared memory
//! fails without it, unless the runner was told not to isolate
//! (`WASM_BINDGEN_TEST_NO_ORIGIN_ISOLATION`); then it checks that the
//! reason names what is missing instead.
#![cfg(target_arch = "wasm32")]

use waitlab_browser::memory::WaitEnd;
use waitlab_browser::probes::timed_waits::measure_in_worker;
use waitlab_browser::{clock, memory};
use waitlab_core::experiments::timed_waits::Mechanism;
use waitlab_core::outcome::reason;
use waitlab_core::protocol::WorkerOutcome;
use waitlab_core::sampling::{Sampling, Stop};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_dedicated_worker);

/// A fixed count of `n` samples.
fn fixed(n: u32) -> Stop {
    Stop::new(Sampling::Fixed, n, 0.0)
}

fn step() -> f64 {
    clock::measure_granularity(20.0)
        .expect("the clock moves")
        .tolerance_ms()
}

/// Shared memory. wasm-bindgen-test-runner serves its pages cross-origin
/// isolated unless `WASM_BINDGEN_TEST_NO_ORIGIN_ISOLATION` is set, so
/// where it is not set, no shared memory is a failure (these tests used to
/// pass by skipping); where it is, `None`, with the reason checked.
fn memory() -> Option<js_sys::Int32Array> {
    match memory::new_shared_i32(4) {
        Ok(memory) => Some(memory),
        Err(why) => {
            assert!(
                option_env!("WASM_BINDGEN_TEST_NO_ORIGIN_ISOLATION").is_some(),
                "the test runner serves this worker cross-origin isolated, yet it has no shared memory: {why}"
            );
            assert!(
                [reason::NOT_ISOLATED, reason::NO_SHARED_ARRAY_BUFFER].contains(&why),
                "{why}"
            );
            console_log!("no shared memory here: {why}");
            None
        }
    }
}

#[wasm_bindgen_test]
fn atomics_wait_times_out_no_earlier_than_asked() {
    let (Some(memory), tol) = (memory(), step()) else {
        return;
    };
    for ms in [1.0, 5.0, 10.0] {
        let t0 = clock::now();
        let result = memory::wait(&memory, 0, 0, ms).unwrap();
        let took = clock::now() - t0;
        assert_eq!(result, WaitEnd::TimedOut);
        assert!(
            took >= ms - tol,
            "Atomics.wait({ms}) returned after {took} ms"
        );
    }
}

#[wasm_bindgen_test]
fn atomics_wait_on_a_changed_value_returns_at_once() {
    let Some(memory) = memory() else {
        return;
    };
    memory.set_index(1, 7);
    assert_eq!(
        memory::wait(&memory, 1, 0, 1000.0).unwrap(),
        WaitEnd::NotEqual
    );
}

#[wasm_bindgen_test]
async fn worker_probe_measures_blocking_sleeps() {
    let (Some(memory), tol) = (memory(), step()) else {
        return;
    };
    let mut ticks = 0;
    let outcome = measure_in_worker(
        Mechanism::WorkerAtomicsWait,
        2,
        &mut fixed(5),
        Some(&memory),
        &mut || ticks += 1,
    )
    .await;
    let WorkerOutcome::Samples { samples_ms } = outcome else {
        panic!("{outcome:?}");
    };
    assert_eq!((samples_ms.len(), ticks), (5, 5));
    assert!(samples_ms.iter().all(|&v| v >= 2.0 - tol), "{samples_ms:?}");
}

#[wasm_bindgen_test]
async fn wait_async_is_measured_or_reported_never_hangs() {
    let Some(memory) = memory() else {
        return;
    };
    let outcome = measure_in_worker(
        Mechanism::WorkerWaitAsync,
        2,
        &mut fixed(3),
        Some(&memory),
        &mut || (),
    )
    .await;
    match outcome {
        WorkerOutcome::Samples { samples_ms } => assert_eq!(samples_ms.len(), 3),
        WorkerOutcome::TimeoutNeverFired { waited_ms } => assert!(waited_ms >= 2.0),
        WorkerOutcome::Failed { message } => assert!(message.contains("waitAsync"), "{message}"),
    }
}

#[wasm_bindgen_test]
async fn blocking_probes_without_shared_memory_fail_with_a_message() {
    let outcome = measure_in_worker(
        Mechanism::WorkerAtomicsWait,
        1,
        &mut fixed(1),
        None,
        &mut || (),
    )
    .await;
    assert!(
        matches!(outcome, WorkerOutcome::Failed { ref message } if message == reason::NOT_SHARED),
        "{outcome:?}"
    );
}
