//! Experiment 2b's worker side: one job of the pool, waiting with the
//! worker blocked in `Atomics.wait` (spinning where no memory is shared)
//! or awaiting a timer, answered with when it started and ended.

use crate::clock::{busy_wait_until, epoch_now, now};
use crate::{memory, wait, worker_scope};
use waitlab_core::experiments::JobMode;
use waitlab_core::experiments::pool_starvation::job::{JobDone, PoolJob};
use waitlab_core::protocol::{FromWorker, shared_slots};

/// Serves a pool job. It records nothing for the timeline (the page puts
/// the spans on each worker's lane).
pub(crate) fn serve(job: PoolJob) {
    let start_ms = epoch_now();
    let done = move || {
        let end_ms = epoch_now();
        worker_scope::post(&FromWorker::reply(&JobDone {
            job: job.job,
            start_ms,
            end_ms,
        }));
    };
    match job.mode {
        JobMode::Blocking => {
            match worker_scope::memory() {
                Some(memory) => {
                    let _ = memory::wait(&memory, shared_slots::SLEEP, 0, f64::from(job.wait_ms));
                }
                // Without shared memory the only way to block is to spin.
                None => busy_wait_until(now() + f64::from(job.wait_ms)),
            }
            done();
        }
        JobMode::Async => wasm_bindgen_futures::spawn_local(async move {
            wait::timeout(job.wait_ms).await;
            done();
        }),
    }
}
