//! Measurement loops: how each mechanism is timed, sample by sample.
//!
//! One sample is the time from just before a wait starts to the first
//! instruction after it ends, read with `performance.now()` on the thread
//! that waits. Main-thread probes run in the page; worker probes run in
//! [`crate::worker`], each experiment's serving its own jobs (its `serve`,
//! handed them by `serve` here: the glue's one list of experiments). One
//! module per experiment, named by its slug; `sample` holds the sample
//! loop they share.

pub mod cancel_waits;
pub mod concurrency_limit;
pub mod hidden_tab;
pub mod periodic_work;
mod pool_starvation;
pub mod producer_consumer;
mod sample;
pub mod spin_ladder;
pub mod timed_waits;
pub mod wake_latency;

use waitlab_core::bytes::Bytes;
use waitlab_core::experiments::Experiment;
use waitlab_core::protocol::read_body;

/// Serves a worker job of `experiment` (its body read as that experiment's
/// `job.rs` writes it) in this worker, or says why it cannot.
pub(crate) fn serve(experiment: Experiment, body: &[u8]) -> Result<(), String> {
    fn read<J: Bytes>(body: &[u8]) -> Result<J, String> {
        read_body(body).map_err(|e| e.to_string())
    }
    match experiment {
        Experiment::TimedWaits => timed_waits::serve(read(body)?),
        Experiment::PoolStarvation => pool_starvation::serve(read(body)?),
        Experiment::SpinLadder => spin_ladder::serve(read(body)?),
        Experiment::WakeLatency => wake_latency::serve(read(body)?),
        Experiment::CancelWaits => cancel_waits::serve(read(body)?),
        Experiment::PeriodicWork => periodic_work::serve(read(body)?),
        Experiment::ProducerConsumer => producer_consumer::serve(read(body)?),
        Experiment::HiddenTab => hidden_tab::serve(read(body)?),
        Experiment::MainStarvation | Experiment::ConcurrencyLimit => {
            return Err(format!("{} runs nothing in a worker", experiment.id()));
        }
    }
    Ok(())
}
