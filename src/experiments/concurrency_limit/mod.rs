//! Experiment 8, at most N at once: its form, and how soon each gate
//! handed a freed slot to the next job.

mod runner;

use crate::components::blocks::strategy_results;
use crate::components::charts::ConcurrencyChart;
use crate::components::run_controls::config_form;
use leptos::prelude::*;
use waitlab_core::experiments::concurrency_limit::ConcurrencyLimit;
use waitlab_core::key;

on_page! {
    ConcurrencyLimit,
    form form_concurrency_limit = config_form::<ConcurrencyLimit>(),
    results |self, report| {
        let chart = view! { <ConcurrencyChart limit=self.clone() /> }.into_any();
        let own = Some((key!("concurrency_limit.chart"), chart));
        strategy_results(self, report, key!("concurrency_limit.chart_overview"), own)
    },
}
