//! Experiment 8, at most N at once: controls, and how soon each gate
//! handed a freed slot to the next job.

use crate::components::blocks::StrategyResults;
use crate::components::charts::{ConcurrencyChart, OverviewRow};
use crate::components::field::Field;
use crate::components::run_controls::RunForm;
use crate::hooks::Experiments;
use crate::i18n::ms;
use leptos::prelude::*;
use waitlab_core::clock::ClockInfo;
use waitlab_core::findings;
use waitlab_core::key;
use waitlab_core::limit::{ConcurrencyLimit, LimitConfig};
use waitlab_core::text::Phrase;

/// Experiment 8's form: its fields, Run and Cancel (a chunk of its own).
#[component]
pub fn ConcurrencyLimitForm() -> impl IntoView {
    let defaults = LimitConfig::default();
    let jobs = RwSignal::new(defaults.jobs.to_string());
    let limit = RwSignal::new(defaults.limit.to_string());
    let job_ms = RwSignal::new(defaults.job_ms.to_string());
    let config = Memo::new(move |_| {
        LimitConfig::parse(&jobs.get(), &limit.get(), &job_ms.get()).map_err(|e| e.phrase())
    });
    let experiment = expect_context::<Experiments>().concurrency_limit;
    view! {
        <RunForm experiment=experiment config=config
            hint=Signal::derive(move || config.get().ok().map(|c| {
                Phrase::new(key!("wake.hint")).data("seconds", ms(c.estimated_ms() / 1000.0))
            }))>
            <Field label=key!("limit.jobs") testid="jobs" value=jobs numeric=true />
            <Field label=key!("limit.limit") testid="limit" value=limit numeric=true />
            <Field label=key!("limit.job_ms") testid="job-ms" value=job_ms numeric=true />
        </RunForm>
    }
}

/// Findings and charts of a finished run: jobs running at once over each
/// batch, and one click away each gate's handoffs.
#[component]
pub(super) fn LimitResults(
    /// The results.
    limit: ConcurrencyLimit,
    /// The clock the run read, which decides what counts as measured.
    clock: Option<ClockInfo>,
) -> impl IntoView {
    let rows = limit
        .runs
        .iter()
        .filter_map(|r| OverviewRow::of_strategy(r.gate.id(), &r.gate.label(), &r.outcome))
        .collect::<Vec<_>>();
    let chart = view! { <ConcurrencyChart limit=limit.clone() /> }.into_any();
    view! {
        <StrategyResults findings=findings::concurrency_limit(&limit, clock)
            chart=key!("limit.chart_overview") rows=rows
            own=(key!("limit.chart"), chart) />
    }
}
