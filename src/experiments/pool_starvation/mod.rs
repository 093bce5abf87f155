//! Experiment 2b, starvation of a worker pool: controls, the per-worker
//! timeline and the numbers.

mod chart;
mod runner;

use crate::components::blocks::ResultsBlock;
use crate::components::run_controls::config_form;
use crate::i18n::t;
use chart::PoolGantt;
use leptos::prelude::*;
use waitlab_core::clock::ClockInfo;
use waitlab_core::experiments::Findings;
use waitlab_core::experiments::pool_starvation::PoolStarvation;
use waitlab_core::key;

/// Findings and timeline of a finished run (its numbers are in the
/// experiment's one table, beside the reference sets').
#[component]
pub(super) fn PoolStarvationResults(
    /// The results.
    ps: PoolStarvation,
    /// The clock the run read, which decides what counts as measured.
    clock: Option<ClockInfo>,
) -> impl IntoView {
    let busy_waited = (!ps.blocking_sleeps).then(|| {
        let note = view! { <li>{t(key!("pool_starvation.busy_waited"))}</li> };
        view! { <ul class="findings">{note}</ul> }.into_any()
    });
    view! {
        <ResultsBlock findings=ps.findings(clock) lead=busy_waited>
            <h3>{t(key!("pool_starvation.timeline"))}</h3>
            <PoolGantt config=ps.config.clone() runs=ps.runs.clone() />
        </ResultsBlock>
    }
}

on_page! {
    PoolStarvation,
    form form_pool_starvation = config_form::<PoolStarvation>(),
    results |self, report| view! { <PoolStarvationResults ps=self.clone() clock=report.env.clock /> },
}
