//! Each experiment's runner is a wasm chunk of its own (a `wasm_split`
//! point, split off by `cargo xtask post-build`): the probes, the worker
//! host and what only they use load when the reader first runs that
//! experiment, not with the page. The chunk lands before the run starts
//! measuring, and one that cannot be fetched fails the run with a message
//! (`fallible`: it never aborts the wasm).

use super::Publish;
use leptos::wasm_split::SplitLoaderError;
use std::future::Future;
use std::pin::Pin;
use waitlab_core::key;
use waitlab_core::schema::Report;
use waitlab_core::text::Phrase;

/// A run, once its chunk has landed.
pub type Run = Pin<Box<dyn Future<Output = Report>>>;

/// Why a run could not start: its chunk did not load (the loader has
/// logged the browser's error to the console).
pub(crate) fn not_loaded(_: SplitLoaderError) -> Phrase {
    Phrase::new(key!("run.not_loaded"))
}

/// An experiment's config: how to load its runner and start a run
/// (written for each by `runner!`, in its folder's `runner.rs`).
pub trait Runner: Sized + 'static {
    /// Loads the runner's chunk (once) and starts a run of `self`.
    fn start(self, publish: Publish) -> impl Future<Output = Result<Run, Phrase>>;
}

/// A runner's split point (`$split`, the name of its chunk) and the
/// [`Runner`] of its config, written in the runner's module: from its run
/// function, or from its `measure` (of the config and a reporter that
/// counts `units` of progress), whose result the run's report holds.
macro_rules! runner {
    ($config:ty, $split:ident, units $units:expr, measure $measure:path) => {
        async fn run(
            config: $config,
            publish: $crate::runner::Publish,
        ) -> waitlab_core::schema::Report {
            let scope = $crate::runner::RunScope::begin();
            let units: fn(&$config) -> u32 = $units;
            let reporter = $crate::runner::Reporter::new(publish, units(&config));
            let result = $measure(&config, &reporter).await;
            scope.finish_with(result)
        }

        $crate::runner::chunks::runner!($config, $split, run);
    };
    ($config:ty, $split:ident, $run:path) => {
        #[::leptos::wasm_split::wasm_split($split, wasm_split_path = ::leptos::wasm_split, fallible)]
        fn $split(
            config: $config,
            publish: $crate::runner::Publish,
        ) -> Result<$crate::runner::chunks::Run, ::leptos::wasm_split::SplitLoaderError> {
            Ok(Box::pin($run(config, publish)))
        }

        impl $crate::runner::Runner for $config {
            async fn start(
                self,
                publish: $crate::runner::Publish,
            ) -> Result<$crate::runner::chunks::Run, waitlab_core::text::Phrase> {
                $split(self, publish)
                    .await
                    .map_err($crate::runner::chunks::not_loaded)
            }
        }
    };
}

pub(crate) use runner;
