//! Experiment 7 natively: the same seeded work every tick, scheduled by a
//! loop of `std::thread::sleep(interval)` after the work, and by tokio's
//! `interval` with each `MissedTickBehavior`, on a current-thread runtime.
//! Every tick's start is stamped on one monotonic clock before its work;
//! lateness is against the ideal schedule, as in the browser
//! (`periodic::lateness_ms`).

use crate::{Native, Progress, runtime, trace};
use std::time::{Duration, Instant};
use tokio::time::MissedTickBehavior;
use waitlab_core::experiments::periodic_work::{
    PeriodicConfig, PeriodicResult, PeriodicWork, Scheduler, lateness_ms,
};
use waitlab_core::key;
use waitlab_core::outcome::Outcome;
use waitlab_core::trace::{Kind, Name};

/// The ticks' start times, ms after the loop's start, under `scheduler`.
fn measure(scheduler: Scheduler, interval: Duration, works: &[Duration]) -> (Instant, Vec<f64>) {
    let mut began = Vec::with_capacity(works.len());
    let start = Instant::now();
    let since = |t: Instant| t.duration_since(start).as_secs_f64() * 1000.0;
    let behavior = match scheduler {
        Scheduler::SleepLoop => None,
        Scheduler::TokioBurst => Some(MissedTickBehavior::Burst),
        Scheduler::TokioDelay => Some(MissedTickBehavior::Delay),
        _ => Some(MissedTickBehavior::Skip),
    };
    match behavior {
        None => {
            for &w in works {
                std::thread::sleep(interval);
                began.push(since(Instant::now()));
                crate::busy_for(w);
            }
        }
        Some(behavior) => runtime::current_thread().block_on(async {
            // The first tick of an interval completes at once: it is the
            // schedule's start, not one of the loop's ticks.
            let mut ticks =
                tokio::time::interval_at(tokio::time::Instant::from_std(start), interval);
            ticks.set_missed_tick_behavior(behavior);
            ticks.tick().await;
            for &w in works {
                ticks.tick().await;
                began.push(since(Instant::now()));
                crate::busy_for(w);
            }
        }),
    }
    (start, began)
}

/// A loop on the timeline, once it is over: each tick's work, and the
/// wait before it.
fn on_timeline(scheduler: Scheduler, start: Instant, began: &[f64], works: &[Duration]) {
    let (kind, name) = scheduler.timeline();
    let work = Name::of(key!("timeline.name.work"));
    let mut free_from = 0.0;
    let spans = began.iter().zip(works).flat_map(|(&at, w)| {
        let end = at + w.as_secs_f64() * 1000.0;
        let wait = (kind, name, free_from, at);
        free_from = end;
        [wait, (Kind::Busy, work, at, end)]
    });
    trace::spans_since(
        "periodic work: the loop's thread",
        start,
        spans.collect::<Vec<_>>(),
    );
}

impl Native for PeriodicWork {
    /// Runs experiment 7 with `config`.
    fn run(config: &PeriodicConfig, tick: &Progress) -> PeriodicWork {
        let interval = Duration::from_millis(u64::from(config.interval_ms));
        let works = crate::durations(config.work_us(), Duration::from_micros(1));
        let results = crate::each_way(&Scheduler::NATIVE, tick, config.ticks, |scheduler| {
            let (start, began) = measure(scheduler, interval, &works);
            on_timeline(scheduler, start, &began, &works);
            let outcome = Outcome::of_samples(lateness_ms(0.0, config.interval_ms, &began));
            PeriodicResult { scheduler, outcome }
        });
        PeriodicWork {
            config: config.clone(),
            results,
        }
    }

    /// Units of progress of a run.
    fn units(config: &PeriodicConfig) -> u64 {
        u64::from(config.ticks) * Scheduler::NATIVE.len() as u64
    }
}
