//! The sample loop the probes share, and what their samples and jobs have
//! in common (a port that is missing, a busy wait, how a loop ends early).

use crate::clock::{busy_wait_until, now};
use crate::{trace, wait};
use std::future::Future;
use waitlab_core::protocol::WorkerOutcome;
pub(crate) use waitlab_core::sampling::Stop as Enough;
use waitlab_core::trace::{Kind, Name};

/// What a job that needs a message port says without one.
pub const NO_PORT: &str = "the page did not pass a message port";

/// Busy-waits `us` microseconds.
pub(crate) fn spin_us(us: u32) {
    busy_wait_until(now() + f64::from(us) / 1000.0);
}

/// How long past its own timeout an `Atomics.waitAsync` may take before the
/// probe declares that the timeout never fires (Firefox ESR's behaviour).
pub const WAIT_ASYNC_GRACE_MS: u32 = 50;
/// How long the page waits for an animation frame before giving up.
pub(crate) const FRAME_TIMEOUT_MS: u32 = 1000;

/// How a sample loop ended early.
pub(crate) enum Stop {
    Failed(String),
    NeverFired(f64),
}

/// Runs `one` until `enough` says the samples are enough (between
/// samples, never inside one), calling `tick` after each sample; when
/// `tick` says so, lets the page render before the next sample, so no
/// rendering lands inside a measured wait. Each sample goes on the
/// timeline as a span `label`s, ending when the loop has it back (a
/// stamp after the sample's own, its length the sample's).
pub(crate) async fn sample_loop<F, Fut>(
    enough: &mut Enough,
    tick: &mut dyn FnMut() -> bool,
    (kind, name): (Kind, Name),
    mut one: F,
) -> Result<Vec<f64>, Stop>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<f64, Stop>>,
{
    let mut out = Vec::with_capacity(enough.max() as usize);
    loop {
        let sample = one().await?;
        let end = now();
        trace::span(kind, name, end - sample, end);
        out.push(sample);
        let render = tick();
        if enough.enough(&out) {
            return Ok(out);
        }
        if render {
            wait::let_page_render().await;
        }
    }
}

/// [`sample_loop`] for waits timed in batches by the site's script: each
/// sample is counted, traced at its own stamps and checked for enough in
/// turn (the rest of a batch that was enough is left out); the page
/// renders, when `tick` said so, after the batch.
pub(crate) async fn batch_loop(
    enough: &mut Enough,
    tick: &mut dyn FnMut() -> bool,
    (kind, name): (Kind, Name),
    fast: &wait::FastWaits,
) -> Result<Vec<f64>, Stop> {
    let mut out = Vec::with_capacity(enough.max() as usize);
    loop {
        let mut render = false;
        for (start, end) in fast.batch().await.map_err(Stop::Failed)? {
            trace::span(kind, name, start, end);
            out.push(end - start);
            render |= tick();
            if enough.enough(&out) {
                return Ok(out);
            }
        }
        if render {
            wait::let_page_render().await;
        }
    }
}

pub(crate) fn finish(result: Result<Vec<f64>, Stop>) -> WorkerOutcome {
    match result {
        Ok(samples_ms) => WorkerOutcome::Samples { samples_ms },
        Err(Stop::Failed(message)) => WorkerOutcome::Failed { message },
        Err(Stop::NeverFired(waited_ms)) => WorkerOutcome::TimeoutNeverFired { waited_ms },
    }
}
