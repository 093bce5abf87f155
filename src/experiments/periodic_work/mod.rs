//! Experiment 7, periodic work: controls, and how far behind its
//! schedule each loop's ticks began.

mod runner;

use crate::components::blocks::StrategyResults;
use crate::components::charts::{LatenessChart, OverviewRow};
use crate::components::run_controls::ConfigForm;
use crate::experiments::{FormChunk, OnPage};
use crate::hooks::{Experiments, UseEnvironment};
use leptos::prelude::*;
use waitlab_core::clock::ClockInfo;
use waitlab_core::experiments::periodic_work::{PeriodicConfig, PeriodicWork};
use waitlab_core::key;
use waitlab_core::schema::Report;

/// Experiment 7's form: its fields, Run and Cancel (a chunk of its own).
#[component]
pub fn PeriodicWorkForm() -> impl IntoView {
    view! {
        <ConfigForm experiment={expect_context::<Experiments>().of::<PeriodicWork>()} defaults={PeriodicWork::defaults(expect_context::<UseEnvironment>().cores)} />
    }
}

/// Findings and charts of a finished run: the ticks' lateness, and one
/// click away each loop's spread.
#[component]
pub(super) fn PeriodicWorkResults(
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

form!(form_periodic_work, PeriodicWorkForm);

impl OnPage for PeriodicWork {
    type Config = PeriodicConfig;

    fn defaults(_: u32) -> PeriodicConfig {
        PeriodicConfig::default()
    }

    fn estimated_ms(config: &PeriodicConfig) -> f64 {
        config.estimated_ms()
    }

    fn form() -> FormChunk {
        Box::pin(form_periodic_work())
    }

    fn results(&self, report: &Report) -> AnyView {
        view! { <PeriodicWorkResults periodic=self.clone() clock=report.env.clock /> }.into_any()
    }
}
