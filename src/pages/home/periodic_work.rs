//! Experiment 7, periodic work: controls, and how far behind its
//! schedule each loop's ticks began.

use crate::components::blocks::StrategyResults;
use crate::components::charts::{LatenessChart, OverviewRow};
use crate::components::run_controls::ConfigForm;
use crate::hooks::Experiments;
use leptos::prelude::*;
use waitlab_core::clock::ClockInfo;
use waitlab_core::experiments::periodic_work::{PeriodicConfig, PeriodicWork};
use waitlab_core::key;

/// Experiment 7's form: its fields, Run and Cancel (a chunk of its own).
#[component]
pub fn PeriodicWorkForm() -> impl IntoView {
    view! {
        <ConfigForm experiment={expect_context::<Experiments>().periodic_work} defaults={PeriodicConfig::default()} />
    }
}

/// Findings and charts of a finished run: the ticks' lateness, and one
/// click away each loop's spread.
#[component]
pub(super) fn PeriodicResults(
    /// The results.
    periodic: PeriodicWork,
    /// The clock the run read, which decides what counts as measured.
    clock: Option<ClockInfo>,
) -> impl IntoView {
    let rows = periodic
        .results
        .iter()
        .filter_map(|r| {
            OverviewRow::of_strategy(r.scheduler.id(), &r.scheduler.label(), &r.outcome)
        })
        .collect::<Vec<_>>();
    let chart = view! { <LatenessChart periodic=periodic.clone() /> }.into_any();
    view! {
        <StrategyResults findings=periodic.findings(clock)
            chart=key!("periodic_work.chart_overview") rows=rows
            own=(key!("periodic_work.chart"), chart) />
    }
}
