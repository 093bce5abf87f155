//! Experiment 8 natively: the same seeded jobs, each a `tokio::time::sleep`
//! of its length, on a current-thread runtime (the native stand-in for the
//! page's main thread), through tokio's `Semaphore` or a counter polled
//! with `sleep(1 ms)`. Each job stamps its start once it holds a slot and
//! its end before it gives the slot back, on one monotonic clock.

use crate::{Native, Progress, ms_since, runtime, trace};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;
use waitlab_core::experiments::concurrency_limit::{
    ConcurrencyLimit, Gate, LimitConfig, LimitRun, Span,
};
use waitlab_core::key;
use waitlab_core::trace::{Kind, Name};

/// Takes a slot of the polling gate: checks the counter, sleeps 1 ms while
/// it is full.
async fn poll_for_slot(running: &AtomicU32, limit: u32) {
    loop {
        let now = running.load(Ordering::Acquire);
        if now < limit
            && running
                .compare_exchange(now, now + 1, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
}

/// One gate's batch: each job's span, in job order.
fn batch(gate: Gate, limit: u32, jobs: &[Duration]) -> (Instant, Vec<Span>) {
    runtime::current_thread().block_on(async {
        let start = Instant::now();
        let semaphore = Arc::new(Semaphore::new(limit as usize));
        let running = Arc::new(AtomicU32::new(0));
        let tasks: Vec<_> = jobs
            .iter()
            .map(|&wait| {
                let (semaphore, running) = (semaphore.clone(), running.clone());
                tokio::spawn(async move {
                    let permit = if gate.polls() {
                        poll_for_slot(&running, limit).await;
                        None
                    } else {
                        Some(
                            semaphore
                                .acquire_owned()
                                .await
                                .expect("the semaphore stays open"),
                        )
                    };
                    let start_ms = ms_since(start);
                    tokio::time::sleep(wait).await;
                    let end_ms = ms_since(start);
                    running.fetch_sub(u32::from(permit.is_none()), Ordering::AcqRel);
                    drop(permit);
                    Span { start_ms, end_ms }
                })
            })
            .collect();
        let mut spans = Vec::with_capacity(tasks.len());
        for task in tasks {
            spans.push(task.await.expect("a job does not panic"));
        }
        (start, spans)
    })
}

/// A batch on the timeline, once it is over: each job queued for its slot,
/// then holding it while its timer runs.
fn on_timeline(gate: Gate, start: Instant, spans: &[Span], jobs: &[Duration]) {
    let (queued, job) = (
        Name::of(gate.label().key),
        Name::of(key!("timeline.name.job")),
    );
    let spans = spans.iter().zip(jobs).flat_map(|(s, d)| {
        let running = Name {
            arg: d.as_millis() as u32,
            ..job
        };
        [
            (Kind::Queued, queued, 0.0, s.start_ms),
            (Kind::Free, running, s.start_ms, s.end_ms),
        ]
    });
    trace::spans_since(
        "concurrency limit: a current-thread runtime",
        start,
        spans.collect::<Vec<_>>(),
    );
}

impl Native for ConcurrencyLimit {
    /// Runs experiment 8 with `config`.
    fn run(config: &LimitConfig, tick: &Progress) -> ConcurrencyLimit {
        let jobs = crate::durations(config.jobs_ms(), Duration::from_millis(1));
        let runs = crate::each_way(&Gate::NATIVE, tick, config.jobs, |gate| {
            let (start, spans) = batch(gate, config.limit, &jobs);
            on_timeline(gate, start, &spans, &jobs);
            LimitRun::measured(gate, spans, config.limit)
        });
        ConcurrencyLimit {
            config: config.clone(),
            runs,
        }
    }

    /// Units of progress of a run.
    fn units(config: &LimitConfig) -> u64 {
        u64::from(config.jobs) * Gate::NATIVE.len() as u64
    }
}
