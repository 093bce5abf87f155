//! Experiment 9, producer/consumer handoff: controls, and how soon each
//! channel's consumer had an item, and how many a second went through.

mod runner;

use crate::components::blocks::StrategyResults;
use crate::components::charts::OverviewRow;
use crate::components::run_controls::ConfigForm;
use crate::experiments::{FormChunk, OnPage};
use crate::hooks::{Experiments, UseEnvironment};
use leptos::prelude::*;
use waitlab_core::clock::ClockInfo;
use waitlab_core::experiments::producer_consumer::{ProducerConsumer, ProducerConsumerConfig};
use waitlab_core::key;
use waitlab_core::schema::Report;

/// Experiment 9's form: its fields, Run and Cancel (a chunk of its own).
#[component]
pub fn ProducerConsumerForm() -> impl IntoView {
    view! {
        <ConfigForm experiment={expect_context::<Experiments>().of::<ProducerConsumer>()} defaults={ProducerConsumer::defaults(expect_context::<UseEnvironment>().cores)} />
    }
}

/// Findings and chart of a finished run.
#[component]
pub(super) fn ProducerConsumerResults(
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

form!(form_producer_consumer, ProducerConsumerForm);

impl OnPage for ProducerConsumer {
    type Config = ProducerConsumerConfig;

    fn defaults(_: u32) -> ProducerConsumerConfig {
        ProducerConsumerConfig::default()
    }

    fn estimated_ms(config: &ProducerConsumerConfig) -> f64 {
        config.estimated_ms()
    }

    fn form() -> FormChunk {
        Box::pin(form_producer_consumer())
    }

    fn results(&self, report: &Report) -> AnyView {
        view! { <ProducerConsumerResults handoff=self.clone() clock=report.env.clock /> }.into_any()
    }
}
