//! Experiment 9, producer/consumer handoff: its form, and how soon each
//! channel's consumer had an item, and how many a second went through.

mod runner;

use crate::components::blocks::strategy_results;
use crate::components::run_controls::config_form;
use waitlab_core::experiments::producer_consumer::ProducerConsumer;
use waitlab_core::key;

on_page! {
    ProducerConsumer,
    form form_producer_consumer = config_form::<ProducerConsumer>(),
    results |self, report| {
        strategy_results(self, report, key!("producer_consumer.chart"), None)
    },
}
