//! Experiment 2a, starvation of the main thread: the
//! controls, the frame-gap chart and the numbers.

mod chart;
mod runner;

use crate::components::blocks::ResultsBlock;
use crate::components::run_controls::config_form;
use crate::i18n::t;
use chart::FrameGapChart;
use leptos::prelude::*;
use waitlab_core::clock::ClockInfo;
use waitlab_core::experiments::Findings;
use waitlab_core::experiments::main_starvation::MainStarvation;
use waitlab_core::key;

/// Findings and chart of a finished run (its numbers are in the
/// experiment's one table, beside the reference sets').
#[component]
pub(super) fn MainStarvationResults(
    /// The results.
    ms: MainStarvation,
    /// The clock the run read, which decides what counts as measured.
    clock: Option<ClockInfo>,
) -> impl IntoView {
    view! {
        <ResultsBlock findings=ms.findings(clock)>
            <h3>{t(key!("main_starvation.frames"))}</h3>
            <FrameGapChart runs=ms.runs.clone() />
        </ResultsBlock>
    }
}

on_page! {
    MainStarvation,
    form form_main_starvation = config_form::<MainStarvation>(),
    results |self, report| view! { <MainStarvationResults ms=self.clone() clock=report.env.clock /> },
}
