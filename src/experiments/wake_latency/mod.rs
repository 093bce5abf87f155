//! Experiment 4, wake latency: its form, each strategy's wake-up beside
//! the event wait (the table has each median as a multiple of it), and
//! the reader's own waiter and setter.

mod own_pair;
mod runner;

use crate::components::blocks::strategy_results;
use crate::components::own_way::own_way_block;
use crate::components::run_controls::config_form;
use leptos::prelude::*;
use waitlab_core::clock::ClockInfo;
use waitlab_core::experiments::wake_latency::WakeLatency;
use waitlab_core::key;

/// "Your own waiter and setter" under the results, in a component of its
/// own (its state lives as long as it shows).
#[component]
fn OwnPair(
    /// The run's results.
    wake: WakeLatency,
    /// The clock that read them.
    clock: Option<ClockInfo>,
    /// Whether the run was opened from a link.
    shared: bool,
) -> impl IntoView {
    own_way_block(
        wake,
        clock,
        shared,
        key!("wake_latency.own.heading"),
        own_pair::own_pair_view,
    )
}

on_page! {
    WakeLatency,
    form form_wake_latency = config_form::<WakeLatency>(),
    results |self, report| {
        let results = strategy_results(self, report, key!("wake_latency.chart"), None);
        let measured = self.results.iter().any(|r| r.outcome.samples().is_some());
        let (wake, clock, shared) = (self.clone(), report.env.clock, report.from_link);
        let own = measured.then(|| view! { <OwnPair wake=wake clock=clock shared=shared /> });
        view! { {results} {own} }
    },
}
