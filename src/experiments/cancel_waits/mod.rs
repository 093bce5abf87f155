//! Experiment 6, cancellable waits: its form, and how long after its
//! cancel each strategy's waiter was free.

mod runner;

use crate::components::blocks::strategy_results;
use crate::components::run_controls::config_form;
use crate::experiments::{FormChunk, OnPage};
use leptos::prelude::*;
use waitlab_core::experiments::cancel_waits::{CancelConfig, CancelWaits};
use waitlab_core::key;
use waitlab_core::schema::Report;

form!(form_cancel_waits, config_form::<CancelWaits>());

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
        let findings = self.findings(report.env.clock);
        strategy_results(self, findings, key!("cancel_waits.chart"), None)
    }
}
