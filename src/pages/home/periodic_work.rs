//! Experiment 7, periodic work: controls, and how far behind its
//! schedule each loop's ticks began.

use crate::components::blocks::StrategyResults;
use crate::components::charts::{LatenessChart, OverviewRow};
use crate::components::field::Field;
use crate::components::run_controls::RunForm;
use crate::hooks::Experiments;
use crate::i18n::ms;
use leptos::prelude::*;
use waitlab_core::clock::ClockInfo;
use waitlab_core::findings;
use waitlab_core::key;
use waitlab_core::periodic::{PeriodicConfig, PeriodicWork};
use waitlab_core::text::Phrase;

/// Experiment 7's form: its fields, Run and Cancel (a chunk of its own).
#[component]
pub fn PeriodicWorkForm() -> impl IntoView {
    let defaults = PeriodicConfig::default();
    let ticks = RwSignal::new(defaults.ticks.to_string());
    let interval_ms = RwSignal::new(defaults.interval_ms.to_string());
    let work_ms = RwSignal::new(defaults.work_ms.to_string());
    let config = Memo::new(move |_| {
        PeriodicConfig::parse(&ticks.get(), &interval_ms.get(), &work_ms.get())
            .map_err(|e| e.phrase())
    });
    let experiment = expect_context::<Experiments>().periodic_work;
    view! {
        <RunForm experiment=experiment config=config
            hint=Signal::derive(move || config.get().ok().map(|c| {
                Phrase::new(key!("wake.hint")).data("seconds", ms(c.estimated_ms() / 1000.0))
            }))>
            <Field label=key!("periodic.ticks") testid="ticks" value=ticks numeric=true />
            <Field label=key!("periodic.interval") testid="interval" value=interval_ms numeric=true />
            <Field label=key!("periodic.work") testid="work" value=work_ms numeric=true />
        </RunForm>
    }
}

/// Findings and charts of a finished run: the ticks' lateness, and one
/// click away each loop's spread.
#[component]
pub(super) fn PeriodicResults(
    /// The results.
    periodic: PeriodicWork,
    /// The clock the run read, which decides what counts as measured.
    clock: Option<ClockInfo>,
) -> impl IntoView {
    let rows = periodic
        .results
        .iter()
        .filter_map(|r| {
            OverviewRow::of_strategy(r.scheduler.id(), &r.scheduler.label(), &r.outcome)
        })
        .collect::<Vec<_>>();
    let chart = view! { <LatenessChart periodic=periodic.clone() /> }.into_any();
    view! {
        <StrategyResults findings=findings::periodic_work(&periodic, clock)
            chart=key!("periodic.chart_overview") rows=rows
            own=(key!("periodic.chart"), chart) />
    }
}
