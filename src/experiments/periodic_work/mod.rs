//! Experiment 7, periodic work: its form, and how far behind its
//! schedule each loop's ticks began (and, one click away, each loop's
//! spread).

mod runner;

use crate::components::blocks::strategy_results;
use crate::components::charts::LatenessChart;
use crate::components::run_controls::config_form;
use crate::experiments::{FormChunk, OnPage};
use leptos::prelude::*;
use waitlab_core::experiments::periodic_work::{PeriodicConfig, PeriodicWork};
use waitlab_core::key;
use waitlab_core::schema::Report;

form!(form_periodic_work, config_form::<PeriodicWork>());

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
        let findings = self.findings(report.env.clock);
        let chart = view! { <LatenessChart periodic=self.clone() /> }.into_any();
        let own = Some((key!("periodic_work.chart"), chart));
        strategy_results(self, findings, key!("periodic_work.chart_overview"), own)
    }
}
