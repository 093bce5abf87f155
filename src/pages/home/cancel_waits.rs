//! Experiment 6, cancellable waits: controls, and how long after its
//! cancel each strategy's waiter was free.

use crate::components::blocks::StrategyResults;
use crate::components::charts::OverviewRow;
use crate::components::run_controls::ConfigForm;
use crate::hooks::Experiments;
use leptos::prelude::*;
use waitlab_core::clock::ClockInfo;
use waitlab_core::experiments::cancel_waits::{CancelConfig, CancelWaits};
use waitlab_core::key;

/// Experiment 6's form: its fields, Run and Cancel (a chunk of its own).
#[component]
pub fn CancelWaitsForm() -> impl IntoView {
    view! {
        <ConfigForm experiment={expect_context::<Experiments>().cancel_waits} defaults={CancelConfig::default()} />
    }
}

/// Findings and chart of a finished run.
#[component]
pub(super) fn CancelResults(
    /// The results.
    cancel: CancelWaits,
    /// The clock the run read, which decides what counts as measured.
    clock: Option<ClockInfo>,
) -> impl IntoView {
    let rows = cancel
        .results
        .iter()
        .filter_map(|r| OverviewRow::of_strategy(r.strategy.id(), &r.strategy.label(), &r.outcome))
        .collect::<Vec<_>>();
    view! {
        <StrategyResults findings=cancel.findings(clock) chart=key!("cancel_waits.chart") rows=rows />
    }
}
