//! Experiment 9, producer/consumer handoff: controls, and how soon each
//! channel's consumer had an item, and how many a second went through.

use crate::components::blocks::StrategyResults;
use crate::components::charts::OverviewRow;
use crate::components::run_controls::ConfigForm;
use crate::hooks::Experiments;
use leptos::prelude::*;
use waitlab_core::clock::ClockInfo;
use waitlab_core::experiments::producer_consumer::{ProducerConsumer, ProducerConsumerConfig};
use waitlab_core::key;

/// Experiment 9's form: its fields, Run and Cancel (a chunk of its own).
#[component]
pub fn HandoffForm() -> impl IntoView {
    view! {
        <ConfigForm experiment={expect_context::<Experiments>().producer_consumer} defaults={ProducerConsumerConfig::default()} />
    }
}

/// Findings and chart of a finished run.
#[component]
pub(super) fn HandoffResults(
    /// The results.
    handoff: ProducerConsumer,
    /// The clock the run read, which decides what counts as measured.
    clock: Option<ClockInfo>,
) -> impl IntoView {
    let rows = handoff
        .runs
        .iter()
        .filter_map(|r| OverviewRow::of_strategy(r.channel.id(), &r.channel.label(), &r.outcome))
        .collect::<Vec<_>>();
    view! {
        <StrategyResults findings=handoff.findings(clock) chart=key!("producer_consumer.chart") rows=rows />
    }
}
