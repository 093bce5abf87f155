//! Experiment 8, at most N at once: its form, and how soon each gate
//! handed a freed slot to the next job.

mod runner;

use crate::components::blocks::strategy_results;
use crate::components::charts::ConcurrencyChart;
use crate::components::run_controls::config_form;
use crate::experiments::{FormChunk, OnPage};
use leptos::prelude::*;
use waitlab_core::experiments::concurrency_limit::{ConcurrencyLimit, LimitConfig};
use waitlab_core::key;
use waitlab_core::schema::Report;

form!(form_concurrency_limit, config_form::<ConcurrencyLimit>());

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
        let findings = self.findings(report.env.clock);
        let chart = view! { <ConcurrencyChart limit=self.clone() /> }.into_any();
        let own = Some((key!("concurrency_limit.chart"), chart));
        strategy_results(
            self,
            findings,
            key!("concurrency_limit.chart_overview"),
            own,
        )
    }
}
