//! Experiment 8, at most N at once: controls, and how soon each gate
//! handed a freed slot to the next job.

mod runner;

use crate::components::blocks::StrategyResults;
use crate::components::charts::{ConcurrencyChart, OverviewRow};
use crate::components::run_controls::ConfigForm;
use crate::experiments::{FormChunk, OnPage};
use crate::hooks::{Experiments, UseEnvironment};
use leptos::prelude::*;
use waitlab_core::clock::ClockInfo;
use waitlab_core::experiments::concurrency_limit::{ConcurrencyLimit, LimitConfig};
use waitlab_core::key;
use waitlab_core::schema::Report;

/// Experiment 8's form: its fields, Run and Cancel (a chunk of its own).
#[component]
pub fn ConcurrencyLimitForm() -> impl IntoView {
    view! {
        <ConfigForm experiment={expect_context::<Experiments>().of::<ConcurrencyLimit>()} defaults={ConcurrencyLimit::defaults(expect_context::<UseEnvironment>().cores)} />
    }
}

/// Findings and charts of a finished run: jobs running at once over each
/// batch, and one click away each gate's handoffs.
#[component]
pub(super) fn ConcurrencyLimitResults(
    /// The results.
    limit: ConcurrencyLimit,
    /// The clock the run read, which decides what counts as measured.
    clock: Option<ClockInfo>,
) -> impl IntoView {
    let rows = limit
        .runs
        .iter()
        .filter_map(|r| OverviewRow::of_strategy(r.gate.id(), &r.gate.label(), &r.outcome))
        .collect::<Vec<_>>();
    let chart = view! { <ConcurrencyChart limit=limit.clone() /> }.into_any();
    view! {
        <StrategyResults findings=limit.findings(clock)
            chart=key!("concurrency_limit.chart_overview") rows=rows
            own=(key!("concurrency_limit.chart"), chart) />
    }
}

form!(form_concurrency_limit, ConcurrencyLimitForm);

impl OnPage for ConcurrencyLimit {
    type Config = LimitConfig;

    fn defaults(_: u32) -> LimitConfig {
        LimitConfig::default()
    }

    fn estimated_ms(config: &LimitConfig) -> f64 {
        config.estimated_ms()
    }

    fn form() -> FormChunk {
        Box::pin(form_concurrency_limit())
    }

    fn results(&self, report: &Report) -> AnyView {
        view! { <ConcurrencyLimitResults limit=self.clone() clock=report.env.clock /> }.into_any()
    }
}
