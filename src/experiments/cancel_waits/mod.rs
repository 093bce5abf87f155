//! Experiment 6, cancellable waits: controls, and how long after its
//! cancel each strategy's waiter was free.

mod runner;

use crate::components::blocks::StrategyResults;
use crate::components::charts::OverviewRow;
use crate::components::run_controls::ConfigForm;
use crate::experiments::{FormChunk, OnPage};
use crate::hooks::{Experiments, UseEnvironment};
use leptos::prelude::*;
use waitlab_core::clock::ClockInfo;
use waitlab_core::experiments::cancel_waits::{CancelConfig, CancelWaits};
use waitlab_core::key;
use waitlab_core::schema::Report;

/// Experiment 6's form: its fields, Run and Cancel (a chunk of its own).
#[component]
pub fn CancelWaitsForm() -> impl IntoView {
    view! {
        <ConfigForm experiment={expect_context::<Experiments>().of::<CancelWaits>()} defaults={CancelWaits::defaults(expect_context::<UseEnvironment>().cores)} />
    }
}

/// Findings and chart of a finished run.
#[component]
pub(super) fn CancelWaitsResults(
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

form!(form_cancel_waits, CancelWaitsForm);

impl OnPage for CancelWaits {
    type Config = CancelConfig;

    fn defaults(_: u32) -> CancelConfig {
        CancelConfig::default()
    }

    fn estimated_ms(config: &CancelConfig) -> f64 {
        config.estimated_ms()
    }

    fn form() -> FormChunk {
        Box::pin(form_cancel_waits())
    }

    fn results(&self, report: &Report) -> AnyView {
        view! { <CancelWaitsResults cancel=self.clone() clock=report.env.clock /> }.into_any()
    }
}
