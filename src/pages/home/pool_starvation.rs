//! Experiment 2b, starvation of a worker pool: controls, the per-worker
//! timeline and the numbers.

use crate::components::blocks::{Details, Findings};
use crate::components::charts::PoolGantt;
use crate::components::field::Field;
use crate::components::run_controls::RunForm;
use crate::hooks::{Experiments, UseEnvironment};
use crate::i18n::{ms, t};
use leptos::prelude::*;
use waitlab_core::clock::ClockInfo;
use waitlab_core::findings;
use waitlab_core::key;
use waitlab_core::starvation::{JobMode, PoolConfig, PoolStarvation};
use waitlab_core::text::Phrase;

/// Experiment 2b's form: its fields, Run and Cancel (a chunk of its own).
#[component]
pub fn PoolStarvationForm() -> impl IntoView {
    let defaults = PoolConfig::for_cores(expect_context::<UseEnvironment>().cores);
    let workers = RwSignal::new(defaults.workers.to_string());
    let jobs = RwSignal::new(defaults.jobs.to_string());
    let wait_ms = RwSignal::new(defaults.wait_ms.to_string());
    let config = Memo::new(move |_| {
        PoolConfig::parse(&workers.get(), &jobs.get(), &wait_ms.get()).map_err(|e| e.phrase())
    });
    let experiment = expect_context::<Experiments>().pool;
    view! {
        <RunForm experiment=experiment config=config
            hint=Signal::derive(move || config.get().ok().map(|c| {
                Phrase::new(key!("pool.hint"))
                    .data("blocking", ms(c.expected_batch_ms(JobMode::Blocking) / 1000.0))
                    .data("async", ms(c.expected_batch_ms(JobMode::Async) / 1000.0))
            }))>
            <Field label=key!("pool.workers") testid="workers" value=workers numeric=true />
            <Field label=key!("main.jobs") testid="jobs" value=jobs numeric=true />
            <Field label=key!("main.each_waits") testid="wait" value=wait_ms numeric=true />
        </RunForm>
    }
}

/// Findings and timeline of a finished run (its numbers are in the
/// experiment's one table, beside the reference sets').
#[component]
pub(super) fn PoolResults(
    /// The results.
    ps: PoolStarvation,
    /// The clock the run read, which decides what counts as measured.
    clock: Option<ClockInfo>,
) -> impl IntoView {
    view! {
        <div class="results-block" data-testid="results">
            <Findings items=findings::pool_starvation(&ps, clock) />
            <ul class="findings">
                {(!ps.blocking_sleeps).then(|| view! {
                    <li>{t(key!("pool.busy_waited"))}</li>
                })}
            </ul>
            <Details summary=key!("results.details")>
            <h3>{t(key!("pool.timeline"))}</h3>
            <PoolGantt config=ps.config.clone() runs=ps.runs.clone() />
            </Details>
        </div>
    }
}
