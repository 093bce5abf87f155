//! Each experiment's runner is a wasm chunk of its own (a `wasm_split`
//! point, split off by `cargo xtask post-build`): the probes, the worker
//! host and what only they use load when the reader first runs that
//! experiment, not with the page. The chunk lands before the run starts
//! measuring, and one that cannot be fetched fails the run with a message
//! (`fallible`: it never aborts the wasm).

use super::{
    Publish, run_cancel_waits, run_concurrency_limit, run_handoff, run_main_starvation,
    run_periodic_work, run_pool_starvation, run_spin_ladder, run_timed_waits, run_wake_latency,
};
use leptos::wasm_split::{SplitLoaderError, wasm_split};
use std::future::Future;
use std::pin::Pin;
use waitlab_core::experiments::cancel_waits::CancelConfig;
use waitlab_core::experiments::concurrency_limit::LimitConfig;
use waitlab_core::experiments::main_starvation::MainConfig;
use waitlab_core::experiments::periodic_work::PeriodicConfig;
use waitlab_core::experiments::pool_starvation::PoolConfig;
use waitlab_core::experiments::producer_consumer::ProducerConsumerConfig;
use waitlab_core::experiments::spin_ladder::LadderConfig;
use waitlab_core::experiments::timed_waits::TimedWaitsConfig;
use waitlab_core::experiments::wake_latency::WakeConfig;
use waitlab_core::key;
use waitlab_core::schema::Report;
use waitlab_core::text::Phrase;

/// A run, once its chunk has landed.
pub type Run = Pin<Box<dyn Future<Output = Report>>>;

/// Why a run could not start: its chunk did not load (the loader has
/// logged the browser's error to the console).
fn not_loaded(_: SplitLoaderError) -> Phrase {
    Phrase::new(key!("run.not_loaded"))
}

/// An experiment's config: how to load its runner and start a run.
pub trait Runner: Sized + 'static {
    /// Loads the runner's chunk (once) and starts a run of `self`.
    fn start(self, publish: Publish) -> impl Future<Output = Result<Run, Phrase>>;
}

/// A runner's split point (`$split`, the name of its chunk) and the
/// [`Runner`] of its config.
macro_rules! runner {
    ($config:ty, $split:ident, $run:path) => {
        #[wasm_split($split, wasm_split_path = ::leptos::wasm_split, fallible)]
        fn $split(config: $config, publish: Publish) -> Result<Run, SplitLoaderError> {
            Ok(Box::pin($run(config, publish)))
        }

        impl Runner for $config {
            async fn start(self, publish: Publish) -> Result<Run, Phrase> {
                $split(self, publish).await.map_err(not_loaded)
            }
        }
    };
}

runner!(TimedWaitsConfig, timed_waits, run_timed_waits);
runner!(MainConfig, main_starvation, run_main_starvation);
runner!(PoolConfig, pool_starvation, run_pool_starvation);
runner!(LadderConfig, spin_ladder, run_spin_ladder);
runner!(WakeConfig, wake_latency, run_wake_latency);
runner!(CancelConfig, cancel_waits, run_cancel_waits);
runner!(PeriodicConfig, periodic_work, run_periodic_work);
runner!(LimitConfig, concurrency_limit, run_concurrency_limit);
runner!(ProducerConsumerConfig, producer_consumer, run_handoff);
