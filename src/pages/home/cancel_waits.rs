//! Experiment 6, cancellable waits: controls, and how long after its
//! cancel each strategy's waiter was free.

use crate::components::blocks::StrategyResults;
use crate::components::charts::OverviewRow;
use crate::components::field::Field;
use crate::components::run_controls::RunForm;
use crate::hooks::Experiments;
use crate::i18n::ms;
use leptos::prelude::*;
use waitlab_core::cancel::{CancelConfig, CancelWaits};
use waitlab_core::clock::ClockInfo;
use waitlab_core::findings;
use waitlab_core::key;
use waitlab_core::text::Phrase;

/// Experiment 6's form: its fields, Run and Cancel (a chunk of its own).
#[component]
pub fn CancelWaitsForm() -> impl IntoView {
    let defaults = CancelConfig::default();
    let rounds = RwSignal::new(defaults.rounds.to_string());
    let wait_ms = RwSignal::new(defaults.wait_ms.to_string());
    let config = Memo::new(move |_| {
        CancelConfig::parse(&rounds.get(), &wait_ms.get()).map_err(|e| e.phrase())
    });
    let experiment = expect_context::<Experiments>().cancel_waits;
    view! {
        <RunForm experiment=experiment config=config
            hint=Signal::derive(move || config.get().ok().map(|c| {
                Phrase::new(key!("wake.hint")).data("seconds", ms(c.estimated_ms() / 1000.0))
            }))>
            <Field label=key!("wake.rounds") testid="rounds" value=rounds numeric=true />
            <Field label=key!("main.each_waits") testid="wait" value=wait_ms numeric=true />
        </RunForm>
    }
}

/// Findings and chart of a finished run.
#[component]
pub(super) fn CancelResults(
    /// The results.
    cancel: CancelWaits,
    /// The clock the run read, which decides what counts as measured.
    clock: Option<ClockInfo>,
) -> impl IntoView {
    let rows = cancel
        .results
        .iter()
        .filter_map(|r| OverviewRow::of_strategy(r.strategy.id(), &r.strategy.label(), &r.outcome))
        .collect::<Vec<_>>();
    view! {
        <StrategyResults findings=findings::cancel_waits(&cancel, clock) chart=key!("cancel.chart") rows=rows />
    }
}
