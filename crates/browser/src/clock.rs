//! `performance.now()` in any global scope, and the clock experiment (E5).

use super::global_property;
use std::cell::OnceCell;
use waitlab_core::clock::ClockInfo;
use wasm_bindgen::JsCast;

thread_local! {
    static PERFORMANCE: OnceCell<web_sys::Performance> = const { OnceCell::new() };
    static TIME_ORIGIN: OnceCell<f64> = const { OnceCell::new() };
}

fn with_performance<T>(f: impl FnOnce(&web_sys::Performance) -> T) -> T {
    PERFORMANCE.with(|cell| {
        f(cell.get_or_init(|| {
            global_property("performance")
                .expect("every window and worker has performance")
                .unchecked_into()
        }))
    })
}

/// Milliseconds since this global's time origin.
pub fn now() -> f64 {
    with_performance(|p| p.now())
}

/// Leaves a `performance.mark` named `name` (the page marks when it is
/// interactive, for the first-load benchmark).
pub fn mark(name: &str) {
    with_performance(|p| {
        let _ = p.mark(name);
    });
}

/// Leaves a `performance.measure` named `name` from the last mark named
/// `start` to now (the page measures how long a finished run takes to
/// draw, for the render benchmark).
pub fn measure_since(name: &str, start: &str) {
    with_performance(|p| {
        let _ = p.measure_with_start_mark(name, start);
    });
}

/// This global's time origin, ms since the Unix epoch. `time_origin() +
/// now()` puts readings of different threads into one time base.
pub fn time_origin() -> f64 {
    TIME_ORIGIN.with(|t| *t.get_or_init(|| with_performance(|p| p.time_origin())))
}

/// Whether this global is cross-origin isolated (shared memory allowed).
pub fn cross_origin_isolated() -> bool {
    global_property("crossOriginIsolated").and_then(|v| v.as_bool()) == Some(true)
}

/// Reads the clock in a tight loop for about `budget_ms` (or until it has
/// seen 20,000 changes) and derives its granularity. Only the readings
/// that changed are kept: a coarse clock (1 ms without isolation) read
/// 20,000 times within one of its ticks would show no step at all, so the
/// loop runs on through the budget, however fast a reading is.
pub fn measure_granularity(budget_ms: f64) -> Option<ClockInfo> {
    const MAX_CHANGES: usize = 20_000;
    let start = now();
    let mut changes = Vec::with_capacity(MAX_CHANGES);
    changes.push(start);
    let mut taken: u32 = 1;
    let mut last = start;
    while changes.len() < MAX_CHANGES {
        let t = now();
        taken = taken.saturating_add(1);
        if t != last {
            changes.push(t);
            last = t;
        }
        if t - start > budget_ms {
            break;
        }
    }
    ClockInfo::from_readings(&changes).map(|c| ClockInfo {
        readings: taken,
        ..c
    })
}

/// Busy-waits until `now() >= deadline_ms`, holding this thread: the only
/// way to block a page's main thread, and what a blocking job does there.
pub fn busy_wait_until(deadline_ms: f64) {
    while now() < deadline_ms {
        std::hint::spin_loop();
    }
}

/// `timeOrigin + now()`: ms since the Unix epoch, comparable between the
/// page and its workers up to a small skew.
pub fn epoch_now() -> f64 {
    time_origin() + now()
}
