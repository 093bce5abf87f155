//! One experiment as the page runs and shows it ([`OnPage`]), beside
//! core's [`Description`](waitlab_core::experiments::Description): its configuration and runner, its state among
//! the page's, the configuration Run all runs, its form (a wasm chunk of
//! its own) and its results view. Each experiment's folder, named by its
//! slug, implements it beside its form and results (`mod.rs`) and its
//! runner (`runner.rs`); [`visit`] is the one place that lists them.
//!
//! Code that handles every experiment alike reaches one through a
//! [`Visit`], monomorphized where it is called, never through a table of
//! functions: a results view is only reachable from the results chunk,
//! and a form only from its own, so `wasm_split` keeps them out of the
//! page's first load.

/// Implements [`OnPage`] for `$experiment`: its form as a chunk of its
/// own (`$split`: its fields, Run and Cancel, and what only they use, made
/// untracked, as a component is), and its results view of `$report`: its
/// own, or for an experiment that compares ways of waiting the overview
/// under the key `strategies`, and its `own` chart under its key.
macro_rules! on_page {
    (
        $experiment:ty, form $split:ident = $form:expr,
        results |$self:ident, $report:ident| strategies $overview:literal
        $(own $own:literal $chart:expr)? $(,)?
    ) => {
        on_page! {
            $experiment,
            form $split = $form,
            results |$self, $report| {
                let own = None $(.or(Some((::waitlab_core::key!($own), $chart.into_any()))))?;
                let overview = ::waitlab_core::key!($overview);
                $crate::components::blocks::strategy_results($self, $report, overview, own)
            },
        }
    };
    ($experiment:ty, form $split:ident = $form:expr, results |$self:ident, $report:ident| $results:expr $(,)?) => {
        #[::leptos::wasm_split::wasm_split($split, wasm_split_path = ::leptos::wasm_split, fallible)]
        fn $split() -> Result<::leptos::prelude::AnyView, ::leptos::wasm_split::SplitLoaderError> {
            use ::leptos::prelude::*;
            Ok(untrack(|| $form.into_any()))
        }

        impl $crate::experiments::OnPage for $experiment {
            fn form() -> $crate::experiments::FormChunk {
                Box::pin($split())
            }

            fn results(&$self, $report: &::waitlab_core::schema::Report) -> ::leptos::prelude::AnyView {
                use ::leptos::prelude::*;
                $results.into_any()
            }
        }
    };
}

pub mod cancel_waits;
pub mod concurrency_limit;
pub mod hidden_tab;
pub mod main_starvation;
pub mod periodic_work;
pub mod pool_starvation;
pub mod producer_consumer;
pub mod spin_ladder;
pub mod timed_waits;
pub mod wake_latency;

use crate::runner::Runner;
use leptos::prelude::AnyView;
use leptos::wasm_split::SplitLoaderError;
use std::future::Future;
use std::pin::Pin;
use waitlab_core::experiments::{Experiment, Registered};
use waitlab_core::schema::Report;

/// A form once its chunk is in.
pub type FormChunk = Pin<Box<dyn Future<Output = Result<AnyView, SplitLoaderError>>>>;

/// One experiment as the page runs and shows it (written by `on_page!`):
/// its configuration (core's [`Description::Config`](waitlab_core::experiments::Description::Config)) is what its form
/// edits and its runner runs.
pub trait OnPage: Registered<Config: Runner> {
    /// Its form, once its chunk is in.
    fn form() -> FormChunk;
    /// Its findings, charts and tables, from `report` (which holds it).
    fn results(&self, report: &Report) -> AnyView;
}

/// Something done with one experiment's [`OnPage`], whichever it is.
pub trait Visit {
    /// What it gives.
    type Out;
    /// Does it with `E`.
    fn visit<E: OnPage>(self) -> Self::Out;
}

/// Does `v` with `experiment`'s [`OnPage`].
pub fn visit<V: Visit>(experiment: Experiment, v: V) -> V::Out {
    match experiment {
        Experiment::TimedWaits => v.visit::<waitlab_core::experiments::timed_waits::TimedWaits>(),
        Experiment::MainStarvation => {
            v.visit::<waitlab_core::experiments::main_starvation::MainStarvation>()
        }
        Experiment::PoolStarvation => {
            v.visit::<waitlab_core::experiments::pool_starvation::PoolStarvation>()
        }
        Experiment::SpinLadder => v.visit::<waitlab_core::experiments::spin_ladder::SpinLadder>(),
        Experiment::WakeLatency => {
            v.visit::<waitlab_core::experiments::wake_latency::WakeLatency>()
        }
        Experiment::CancelWaits => {
            v.visit::<waitlab_core::experiments::cancel_waits::CancelWaits>()
        }
        Experiment::PeriodicWork => {
            v.visit::<waitlab_core::experiments::periodic_work::PeriodicWork>()
        }
        Experiment::ConcurrencyLimit => {
            v.visit::<waitlab_core::experiments::concurrency_limit::ConcurrencyLimit>()
        }
        Experiment::ProducerConsumer => {
            v.visit::<waitlab_core::experiments::producer_consumer::ProducerConsumer>()
        }
        Experiment::HiddenTab => v.visit::<waitlab_core::experiments::hidden_tab::HiddenTab>(),
    }
}
