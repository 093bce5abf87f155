//! Experiment 9, producer/consumer handoff: its form, and how soon each
//! channel's consumer had an item, and how many a second went through.

mod runner;

use crate::components::blocks::strategy_results;
use crate::components::run_controls::config_form;
use crate::experiments::{FormChunk, OnPage};
use leptos::prelude::*;
use waitlab_core::experiments::producer_consumer::{ProducerConsumer, ProducerConsumerConfig};
use waitlab_core::key;
use waitlab_core::schema::Report;

form!(form_producer_consumer, config_form::<ProducerConsumer>());

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
        let findings = self.findings(report.env.clock);
        strategy_results(self, findings, key!("producer_consumer.chart"), None)
    }
}
