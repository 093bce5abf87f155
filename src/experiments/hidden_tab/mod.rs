//! Experiment 10, a hidden tab: its form, and each way's intervals while
//! the page was hidden (visible ones if it never was), with its findings.

mod runner;

use crate::components::run_controls::config_form;
use waitlab_core::experiments::hidden_tab::HiddenTab;

on_page! {
    HiddenTab,
    form form_hidden_tab = config_form::<HiddenTab>(),
    results |self, report| strategies "hidden_tab.chart_overview",
}
