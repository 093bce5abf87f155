//! Experiment 7, periodic work: its form, and how far behind its
//! schedule each loop's ticks began (and, one click away, each loop's
//! spread).

mod chart;
mod runner;

use crate::components::run_controls::config_form;
use chart::LatenessChart;
use leptos::prelude::*;
use waitlab_core::experiments::periodic_work::PeriodicWork;

on_page! {
    PeriodicWork,
    form form_periodic_work = config_form::<PeriodicWork>(),
    results |self, report| strategies "periodic_work.chart_overview"
        own "periodic_work.chart" view! { <LatenessChart periodic=self.clone() /> },
}
