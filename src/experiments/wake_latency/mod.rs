//! Experiment 4, wake latency: its form, and each strategy's wake-up
//! beside the event wait (the table has each median as a multiple of it).

mod runner;

use crate::components::blocks::strategy_results;
use crate::components::run_controls::config_form;
use waitlab_core::experiments::wake_latency::WakeLatency;
use waitlab_core::key;

on_page! {
    WakeLatency,
    form form_wake_latency = config_form::<WakeLatency>(),
    results |self, report| {
        strategy_results(self, report, key!("wake_latency.chart"), None)
    },
}
