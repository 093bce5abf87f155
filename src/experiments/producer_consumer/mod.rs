//! Experiment 9, producer/consumer handoff: its form, and how soon each
//! channel's consumer had an item, and how many a second went through.

mod runner;

use crate::components::run_controls::config_form;
use waitlab_core::experiments::producer_consumer::ProducerConsumer;

on_page! {
    ProducerConsumer,
    form form_producer_consumer = config_form::<ProducerConsumer>(),
    results |self, report| strategies "producer_consumer.chart",
}
