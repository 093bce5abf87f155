//! Experiment 2a, starvation of the main thread: the
//! controls, the frame-gap chart and the numbers.

use crate::components::blocks::{Details, Findings};
use crate::components::charts::FrameGapChart;
use crate::components::field::Field;
use crate::components::run_controls::RunForm;
use crate::hooks::Experiments;
use crate::i18n::{ms, t};
use leptos::prelude::*;
use waitlab_core::clock::ClockInfo;
use waitlab_core::findings;
use waitlab_core::key;
use waitlab_core::starvation::{JobMode, MainConfig, MainStarvation};
use waitlab_core::text::Phrase;

/// Experiment 2a's form: its fields, Run and Cancel (a chunk of its own).
#[component]
pub fn MainStarvationForm() -> impl IntoView {
    let defaults = MainConfig::default();
    let jobs = RwSignal::new(defaults.jobs.to_string());
    let wait_ms = RwSignal::new(defaults.wait_ms.to_string());
    let config =
        Memo::new(move |_| MainConfig::parse(&jobs.get(), &wait_ms.get()).map_err(|e| e.phrase()));
    let experiment = expect_context::<Experiments>().main;
    view! {
        <RunForm experiment=experiment config=config
            hint=Signal::derive(move || config.get().ok().map(|c| {
                Phrase::new(key!("main.hint")).data("seconds", ms(c.expected_batch_ms(JobMode::Blocking) / 1000.0))
            }))>
            <Field label=key!("main.jobs") testid="jobs" value=jobs numeric=true />
            <Field label=key!("main.each_waits") testid="wait" value=wait_ms numeric=true />
        </RunForm>
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
            <Findings items=findings::main_starvation(&ms, clock) />
            <Details summary=key!("results.details")>
            <h3>{t(key!("main.frames"))}</h3>
            <FrameGapChart runs=ms.runs.clone() />
            </Details>
        </div>
    }
}
