//! Each experiment's runner is a wasm chunk of its own (a `wasm_split`
//! point, split off by `cargo xtask post-build`): the probes, the worker
//! host and what only they use load when the reader first runs that
//! experiment, not with the page. The chunk lands before the run starts
//! measuring, and one that cannot be fetched fails the run with a message
//! (`fallible`: it never aborts the wasm).

use super::{
    Publish, run_cancel_waits, run_main_starvation, run_pool_starvation, run_spin_ladder,
    run_timed_waits, run_wake_latency,
};
use leptos::wasm_split::{SplitLoaderError, wasm_split};
use std::future::Future;
use std::pin::Pin;
use waitlab_core::cancel::CancelConfig;
use waitlab_core::key;
use waitlab_core::ladder::LadderConfig;
use waitlab_core::schema::Report;
use waitlab_core::starvation::{MainConfig, PoolConfig};
use waitlab_core::text::Phrase;
use waitlab_core::timed::TimedWaitsConfig;
use waitlab_core::wake::WakeConfig;

/// A run, once its chunk has landed.
pub type Run = Pin<Box<dyn Future<Output = Report>>>;

type Loaded = Result<Run, SplitLoaderError>;

#[wasm_split(timed_waits, wasm_split_path = ::leptos::wasm_split, fallible)]
fn timed_waits(config: TimedWaitsConfig, publish: Publish) -> Loaded {
    Ok(Box::pin(run_timed_waits(config, publish)))
}

#[wasm_split(main_starvation, wasm_split_path = ::leptos::wasm_split, fallible)]
fn main_starvation(config: MainConfig, publish: Publish) -> Loaded {
    Ok(Box::pin(run_main_starvation(config, publish)))
}

#[wasm_split(pool_starvation, wasm_split_path = ::leptos::wasm_split, fallible)]
fn pool_starvation(config: PoolConfig, publish: Publish) -> Loaded {
    Ok(Box::pin(run_pool_starvation(config, publish)))
}

#[wasm_split(spin_ladder, wasm_split_path = ::leptos::wasm_split, fallible)]
fn spin_ladder(config: LadderConfig, publish: Publish) -> Loaded {
    Ok(Box::pin(run_spin_ladder(config, publish)))
}

#[wasm_split(wake_latency, wasm_split_path = ::leptos::wasm_split, fallible)]
fn wake_latency(config: WakeConfig, publish: Publish) -> Loaded {
    Ok(Box::pin(run_wake_latency(config, publish)))
}

#[wasm_split(cancel_waits, wasm_split_path = ::leptos::wasm_split, fallible)]
fn cancel_waits(config: CancelConfig, publish: Publish) -> Loaded {
    Ok(Box::pin(run_cancel_waits(config, publish)))
}

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

macro_rules! runner {
    ($config:ty, $load:ident) => {
        impl Runner for $config {
            async fn start(self, publish: Publish) -> Result<Run, Phrase> {
                $load(self, publish).await.map_err(not_loaded)
            }
        }
    };
}

runner!(TimedWaitsConfig, timed_waits);
runner!(MainConfig, main_starvation);
runner!(PoolConfig, pool_starvation);
runner!(LadderConfig, spin_ladder);
runner!(WakeConfig, wake_latency);
runner!(CancelConfig, cancel_waits);
