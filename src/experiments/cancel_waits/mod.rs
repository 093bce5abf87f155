//! Experiment 6, cancellable waits: its form, and how long after its
//! cancel each strategy's waiter was free.

mod runner;

use crate::components::run_controls::config_form;
use waitlab_core::experiments::cancel_waits::CancelWaits;

on_page! {
    CancelWaits,
    form form_cancel_waits = config_form::<CancelWaits>(),
    results |self, report| strategies "cancel_waits.chart",
}
