//! Experiment 9, producer/consumer handoff: controls, and how soon each
//! channel's consumer had an item, and how many a second went through.

use crate::components::blocks::StrategyResults;
use crate::components::charts::OverviewRow;
use crate::components::field::Field;
use crate::components::run_controls::RunForm;
use crate::hooks::Experiments;
use crate::i18n::ms;
use leptos::prelude::*;
use waitlab_core::clock::ClockInfo;
use waitlab_core::findings;
use waitlab_core::handoff::{Handoff, HandoffConfig};
use waitlab_core::key;
use waitlab_core::text::Phrase;

/// Experiment 9's form: its fields, Run and Cancel (a chunk of its own).
#[component]
pub fn HandoffForm() -> impl IntoView {
    let defaults = HandoffConfig::default();
    let items = RwSignal::new(defaults.items.to_string());
    let gap_ms = RwSignal::new(defaults.gap_ms.to_string());
    let burst = RwSignal::new(defaults.burst.to_string());
    let config = Memo::new(move |_| {
        HandoffConfig::parse(&items.get(), &gap_ms.get(), &burst.get()).map_err(|e| e.phrase())
    });
    let experiment = expect_context::<Experiments>().producer_consumer;
    view! {
        <RunForm experiment=experiment config=config
            hint=Signal::derive(move || config.get().ok().map(|c| {
                Phrase::new(key!("wake.hint")).data("seconds", ms(c.estimated_ms() / 1000.0))
            }))>
            <Field label=key!("handoff.items") testid="items" value=items numeric=true />
            <Field label=key!("handoff.gap_ms") testid="gap" value=gap_ms numeric=true />
            <Field label=key!("handoff.burst") testid="burst" value=burst numeric=true />
        </RunForm>
    }
}

/// Findings and chart of a finished run.
#[component]
pub(super) fn HandoffResults(
    /// The results.
    handoff: Handoff,
    /// The clock the run read, which decides what counts as measured.
    clock: Option<ClockInfo>,
) -> impl IntoView {
    let rows = handoff
        .runs
        .iter()
        .filter_map(|r| OverviewRow::of_strategy(r.channel.id(), &r.channel.label(), &r.outcome))
        .collect::<Vec<_>>();
    view! {
        <StrategyResults findings=findings::handoff(&handoff, clock) chart=key!("handoff.chart") rows=rows />
    }
}
