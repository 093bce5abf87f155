//! Experiment 6, cancellable waits: its form, and how long after its
//! cancel each strategy's waiter was free.

mod runner;

use crate::components::blocks::strategy_results;
use crate::components::run_controls::config_form;
use waitlab_core::experiments::cancel_waits::CancelWaits;
use waitlab_core::key;

on_page! {
    CancelWaits,
    form form_cancel_waits = config_form::<CancelWaits>(),
    results |self, report| {
        strategy_results(self, report, key!("cancel_waits.chart"), None)
    },
}
