//! At most N at once (experiment 8), on the main thread: each job takes a
//! slot from the gate, stamps its start, awaits a timer of its length,
//! stamps its end and gives the slot back. The gate is tokio's FIFO
//! `Semaphore` (its release wakes the next waiter) or a counter that each
//! waiting job checks after every `setTimeout(1)`.

use crate::clock::now;
use crate::{trace, wait};
use futures::future::join_all;
use std::cell::Cell;
use tokio::sync::Semaphore;
use waitlab_core::experiments::concurrency_limit::{Gate, Span};
use waitlab_core::key;
use waitlab_core::trace::{Kind, Name};

/// Waits for a slot of the polling gate and takes it.
async fn poll_for_slot(running: &Cell<u32>, limit: u32) {
    while running.get() >= limit {
        wait::timeout(1).await;
    }
    running.set(running.get() + 1);
}

/// One batch of `jobs_ms.len()` jobs through `gate`, at most `limit` at
/// once; each job's span, ms since the batch began, in job order.
///
/// # Panics
/// If `gate` is a native one.
pub async fn run(gate: Gate, limit: u32, jobs_ms: &[u32]) -> Vec<Span> {
    assert!(!Gate::NATIVE.contains(&gate), "{} is native", gate.id());
    let semaphore = Semaphore::new(limit as usize);
    let running = Cell::new(0);
    let start = now();
    let jobs = jobs_ms.iter().map(|&ms| {
        let (semaphore, running) = (&semaphore, &running);
        async move {
            let permit = if gate.polls() {
                poll_for_slot(running, limit).await;
                None
            } else {
                Some(
                    semaphore
                        .acquire()
                        .await
                        .expect("the semaphore is never closed"),
                )
            };
            let start_ms = now() - start;
            wait::timeout(ms).await;
            let end_ms = now() - start;
            if permit.is_none() {
                running.set(running.get() - 1);
            }
            drop(permit);
            Span { start_ms, end_ms }
        }
    });
    let spans = join_all(jobs).await;
    // On the timeline once the batch is done: each job queued for its
    // slot, then holding it while its timer runs.
    let (queued, job) = (
        Name::of(gate.label().key),
        Name::of(key!("timeline.name.job")),
    );
    for (s, &ms) in spans.iter().zip(jobs_ms) {
        trace::span(Kind::Queued, queued, start, start + s.start_ms);
        trace::span(
            Kind::Free,
            Name { arg: ms, ..job },
            start + s.start_ms,
            start + s.end_ms,
        );
    }
    spans
}
