//! Experiment 8, at most N at once: its form, and how soon each gate
//! handed a freed slot to the next job.

mod chart;
mod runner;

use crate::components::run_controls::config_form;
use chart::ConcurrencyChart;
use leptos::prelude::*;
use waitlab_core::experiments::concurrency_limit::ConcurrencyLimit;

on_page! {
    ConcurrencyLimit,
    form form_concurrency_limit = config_form::<ConcurrencyLimit>(),
    results |self, report| strategies "concurrency_limit.chart_overview"
        own "concurrency_limit.chart" view! { <ConcurrencyChart limit=self.clone() /> },
}
