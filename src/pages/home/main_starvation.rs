//! Experiment 2a, starvation of the main thread: the
//! controls, the frame-gap chart and the numbers.

use crate::components::blocks::{Details, Findings};
use crate::components::charts::FrameGapChart;
use crate::components::run_controls::ConfigForm;
use crate::hooks::Experiments;
use crate::i18n::t;
use leptos::prelude::*;
use waitlab_core::clock::ClockInfo;
use waitlab_core::experiments::main_starvation::{MainConfig, MainStarvation};
use waitlab_core::key;

/// Experiment 2a's form: its fields, Run and Cancel (a chunk of its own).
#[component]
pub fn MainStarvationForm() -> impl IntoView {
    view! {
        <ConfigForm experiment={expect_context::<Experiments>().main} defaults={MainConfig::default()} />
    }
}

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
        <div class="results-block" data-testid="results">
            <Findings items=ms.findings(clock) />
            <Details summary=key!("results.details")>
            <h3>{t(key!("main_starvation.frames"))}</h3>
            <FrameGapChart runs=ms.runs.clone() />
            </Details>
        </div>
    }
}
