//! Experiment 4, wake latency: controls, the distribution per strategy and
//! the table with each strategy's median as a multiple of the event wait.

use crate::components::blocks::StrategyResults;
use crate::components::charts::OverviewRow;
use crate::components::run_controls::ConfigForm;
use crate::hooks::Experiments;
use leptos::prelude::*;
use waitlab_core::clock::ClockInfo;
use waitlab_core::experiments::wake_latency::{WakeConfig, WakeLatency};
use waitlab_core::key;

/// Experiment 4's form: its fields, Run and Cancel (a chunk of its own).
#[component]
pub fn WakeLatencyForm() -> impl IntoView {
    view! {
        <ConfigForm experiment={expect_context::<Experiments>().wake} defaults={WakeConfig::default()} />
    }
}

/// Findings and chart of a finished run.
#[component]
pub(super) fn WakeResults(
    /// The results.
    wake: WakeLatency,
    /// The clock the run read, which decides what counts as measured.
    clock: Option<ClockInfo>,
) -> impl IntoView {
    let rows = wake
        .results
        .iter()
        .filter_map(|r| OverviewRow::of_strategy(r.strategy.id(), &r.strategy.label(), &r.outcome))
        .collect::<Vec<_>>();
    view! {
        <StrategyResults findings=wake.findings(clock) chart=key!("wake_latency.chart") rows=rows />
    }
}
