//! Experiment 2a, starvation of the main thread: the
//! controls, the frame-gap chart and the numbers.

mod runner;

use crate::components::blocks::{Details, Findings};
use crate::components::charts::FrameGapChart;
use crate::components::run_controls::config_form;
use crate::experiments::{FormChunk, OnPage};
use crate::i18n::t;
use leptos::prelude::*;
use waitlab_core::clock::ClockInfo;
use waitlab_core::experiments::main_starvation::JobMode;
use waitlab_core::experiments::main_starvation::{MainConfig, MainStarvation};
use waitlab_core::key;
use waitlab_core::schema::Report;

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

form!(form_main_starvation, config_form::<MainStarvation>());

impl OnPage for MainStarvation {
    type Config = MainConfig;

    fn defaults(_: u32) -> MainConfig {
        MainConfig::default()
    }

    fn estimated_ms(config: &MainConfig) -> f64 {
        JobMode::ALL
            .iter()
            .map(|&m| config.expected_batch_ms(m))
            .sum()
    }

    fn form() -> FormChunk {
        Box::pin(form_main_starvation())
    }

    fn results(&self, report: &Report) -> AnyView {
        view! { <MainStarvationResults ms=self.clone() clock=report.env.clock /> }.into_any()
    }
}
