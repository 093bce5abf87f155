//! Experiment 4, wake latency: its form, and each strategy's wake-up
//! beside the event wait (the table has each median as a multiple of it).

mod runner;

use crate::components::blocks::strategy_results;
use crate::components::run_controls::config_form;
use crate::experiments::{FormChunk, OnPage};
use leptos::prelude::*;
use waitlab_core::experiments::wake_latency::{WakeConfig, WakeLatency};
use waitlab_core::key;
use waitlab_core::schema::Report;

form!(form_wake_latency, config_form::<WakeLatency>());

impl OnPage for WakeLatency {
    type Config = WakeConfig;

    fn defaults(_: u32) -> WakeConfig {
        WakeConfig::default()
    }

    fn estimated_ms(config: &WakeConfig) -> f64 {
        config.estimated_ms()
    }

    fn form() -> FormChunk {
        Box::pin(form_wake_latency())
    }

    fn results(&self, report: &Report) -> AnyView {
        let findings = self.findings(report.env.clock);
        strategy_results(self, findings, key!("wake_latency.chart"), None)
    }
}
