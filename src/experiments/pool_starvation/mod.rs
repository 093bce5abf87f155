//! Experiment 2b, starvation of a worker pool: controls, the per-worker
//! timeline and the numbers.

mod runner;

use crate::components::blocks::{Details, Findings};
use crate::components::charts::PoolGantt;
use crate::components::run_controls::config_form;
use crate::experiments::{FormChunk, OnPage};
use crate::i18n::t;
use leptos::prelude::*;
use waitlab_core::clock::ClockInfo;
use waitlab_core::experiments::main_starvation::JobMode;
use waitlab_core::experiments::pool_starvation::{PoolConfig, PoolStarvation};
use waitlab_core::key;
use waitlab_core::schema::Report;

/// Findings and timeline of a finished run (its numbers are in the
/// experiment's one table, beside the reference sets').
#[component]
pub(super) fn PoolStarvationResults(
    /// The results.
    ps: PoolStarvation,
    /// The clock the run read, which decides what counts as measured.
    clock: Option<ClockInfo>,
) -> impl IntoView {
    view! {
        <div class="results-block" data-testid="results">
            <Findings items=ps.findings(clock) />
            <ul class="findings">
                {(!ps.blocking_sleeps).then(|| view! {
                    <li>{t(key!("pool_starvation.busy_waited"))}</li>
                })}
            </ul>
            <Details summary=key!("results.details")>
            <h3>{t(key!("pool_starvation.timeline"))}</h3>
            <PoolGantt config=ps.config.clone() runs=ps.runs.clone() />
            </Details>
        </div>
    }
}

form!(form_pool_starvation, config_form::<PoolStarvation>());

impl OnPage for PoolStarvation {
    type Config = PoolConfig;

    fn defaults(cores: u32) -> PoolConfig {
        PoolConfig::for_cores(cores)
    }

    fn estimated_ms(config: &PoolConfig) -> f64 {
        JobMode::ALL
            .iter()
            .map(|&m| config.expected_batch_ms(m))
            .sum()
    }

    fn form() -> FormChunk {
        Box::pin(form_pool_starvation())
    }

    fn results(&self, report: &Report) -> AnyView {
        view! { <PoolStarvationResults ps=self.clone() clock=report.env.clock /> }.into_any()
    }
}
