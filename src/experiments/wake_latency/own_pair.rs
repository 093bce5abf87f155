//! Experiment 4's "your own waiter and setter": a pair of functions, each
//! run in a worker of its own and timed from the setter's stamp to the
//! waiter's wake-up beside the run's ways (`components::own_way`), in a
//! wasm chunk of its own.

use crate::components::own_way::block_view;
use crate::hooks::{Beside, LinkedRuns, OwnWays};
use leptos::prelude::*;
use leptos::wasm_split::{SplitLoaderError, wasm_split};
use std::sync::Arc;
use waitlab_core::clock::ClockInfo;
use waitlab_core::experiments::own_way::OwnWay;
use waitlab_core::experiments::wake_latency::{Strategy, WakeLatency};
use waitlab_core::key;
use waitlab_core::own_wait::{self, Kind, Told};
use waitlab_core::sampling::Sampling;
use waitlab_core::schema::Report;
use waitlab_core::stats::Summary;
use waitlab_core::text::Phrase;

impl Beside for WakeLatency {
    type Way = Strategy;
    const KIND: Kind = Kind::Wake;

    fn of(report: &mut Report) -> Option<&mut Self> {
        report.wake_latency.as_mut()
    }

    fn ways_of(runs: &LinkedRuns) -> OwnWays<Strategy> {
        runs.pair
    }

    fn timed_ways(&self) -> Vec<(Strategy, Summary)> {
        let first = self.default_way();
        let measured = |r: &waitlab_core::outcome::StrategyOutcome<Strategy>| {
            r.outcome.samples()?;
            Some((r.strategy, *r.outcome.summary()?))
        };
        let all: Vec<_> = self.results.iter().filter_map(measured).collect();
        // The default first.
        all.iter()
            .filter(|(s, _)| Some(*s) == first)
            .chain(all.iter().filter(|(s, _)| Some(*s) != first))
            .copied()
            .collect()
    }

    /// The message on a `MessageChannel`, the recipe's twin, else the
    /// first way measured.
    fn default_way(&self) -> Option<Strategy> {
        let measured = || {
            self.results
                .iter()
                .filter(|r| r.outcome.samples().is_some())
                .map(|r| r.strategy)
        };
        measured()
            .find(|s| *s == Strategy::PostMessage)
            .or_else(|| measured().next())
    }

    fn name(way: Strategy) -> (String, Phrase) {
        (way.id().to_owned(), way.label())
    }

    /// The setter's largest delay before it sets, ms.
    fn ms(&self, _: Strategy) -> f64 {
        f64::from(self.config.max_delay_us) / 1000.0
    }

    fn sampling(&self) -> (u32, Sampling) {
        (self.config.rounds, Sampling::Fixed)
    }

    fn own(&self) -> Option<&Arc<OwnWay<Strategy>>> {
        self.own.as_ref()
    }

    fn set_own(&mut self, way: Arc<OwnWay<Strategy>>) {
        self.own = Some(way);
    }

    fn tell(&self, clock: Option<ClockInfo>, own: &OwnWay<Strategy>, shared: bool) -> Option<Told> {
        own_wait::tell_wake(self, clock, own, shared)
    }
}

/// The block's view, in a wasm chunk of its own (see
/// `timed_waits::own_wait`'s).
#[wasm_split(own_pair, wasm_split_path = ::leptos::wasm_split, fallible)]
pub(super) fn own_pair_view(
    wake: WakeLatency,
    clock: Option<ClockInfo>,
    shared: bool,
) -> Result<AnyView, SplitLoaderError> {
    Ok(block_view(
        wake,
        clock,
        shared,
        key!("wake_latency.own.lead"),
        key!("wake_latency.own.code_label"),
    ))
}
