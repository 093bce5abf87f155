//! Experiment 4, wake latency: its form, and each strategy's wake-up
//! beside the event wait (the table has each median as a multiple of it).

mod runner;

use crate::components::run_controls::config_form;
use waitlab_core::experiments::wake_latency::WakeLatency;

on_page! {
    WakeLatency,
    form form_wake_latency = config_form::<WakeLatency>(),
    results |self, report| strategies "wake_latency.chart",
}
