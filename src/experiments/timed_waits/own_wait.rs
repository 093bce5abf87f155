//! Experiment 1's "your own way of waiting": an async function of the
//! wait in ms, timed in one chain of calls beside the run's cells
//! (`components::own_way`), in a wasm chunk of its own.

use super::picker::{default_selection, with_samples};
use crate::components::own_way::block_view;
use crate::hooks::{Beside, LinkedRuns, OwnWays};
use leptos::prelude::*;
use leptos::wasm_split::{SplitLoaderError, wasm_split};
use std::sync::Arc;
use waitlab_core::clock::ClockInfo;
use waitlab_core::experiments::own_way::OwnWay;
use waitlab_core::experiments::timed_waits::{CellKey, Mechanism, TimedWaits};
use waitlab_core::key;
use waitlab_core::own_wait::{self, Kind, Told};
use waitlab_core::sampling::Sampling;
use waitlab_core::schema::Report;
use waitlab_core::stats::Summary;
use waitlab_core::text::Phrase;

impl Beside for TimedWaits {
    type Way = CellKey;
    const KIND: Kind = Kind::Timed;

    fn of(report: &mut Report) -> Option<&mut Self> {
        report.timed_waits.as_mut()
    }

    fn ways_of(runs: &LinkedRuns) -> OwnWays<CellKey> {
        runs.own
    }

    fn timed_ways(&self) -> Vec<(CellKey, Summary)> {
        let cells = with_samples(self);
        // The default first.
        let first = like_the_sandbox(&cells);
        first
            .into_iter()
            .chain(cells.into_iter().filter(|k| Some(*k) != first))
            .filter_map(|k| {
                let cell = self.cells.iter().find(|c| c.key == k)?;
                Some((k, *cell.outcome.summary()?))
            })
            .collect()
    }

    fn default_way(&self) -> Option<CellKey> {
        like_the_sandbox(&with_samples(self))
    }

    fn name(way: CellKey) -> (String, Phrase) {
        (way.id(), way.label())
    }

    fn ms(&self, way: CellKey) -> f64 {
        f64::from(way.requested_ms.unwrap_or(0))
    }

    fn sampling(&self) -> (u32, Sampling) {
        (self.config.samples, self.config.sampling)
    }

    fn own(&self) -> Option<&Arc<OwnWay<CellKey>>> {
        self.own.as_ref()
    }

    fn set_own(&mut self, way: Arc<OwnWay<CellKey>>) {
        self.own = Some(way);
    }

    fn tell(&self, clock: Option<ClockInfo>, own: &OwnWay<CellKey>, shared: bool) -> Option<Told> {
        own_wait::tell_timed(self, clock, own, shared)
    }
}

/// The cell a reader's way is judged against unless they pick another:
/// the sandbox runs the code in a worker, so like for like, the worker's
/// back-to-back timer of the smallest positive wait (the recipe's twin);
/// else the histogram's default. (WebKit's page timers ran 1-5 % later
/// than its workers' in `bench_own_wait`, so the page's cell judged the
/// recipe "perhaps faster".)
fn like_the_sandbox(cells: &[CellKey]) -> Option<CellKey> {
    cells
        .iter()
        .find(|k| k.mechanism == Mechanism::WorkerTimeout && k.requested_ms != Some(0))
        .copied()
        .or_else(|| default_selection(cells))
}

/// The block's view, in a wasm chunk of its own: fetched when the reader
/// first opens it (or a shared run carrying a way shows), so that neither
/// the page nor a run's results carry it. A shared run's way is shown,
/// never run; this browser's run gets the editor.
#[wasm_split(own_wait, wasm_split_path = ::leptos::wasm_split, fallible)]
pub(super) fn own_wait_view(
    tw: TimedWaits,
    clock: Option<ClockInfo>,
    shared: bool,
) -> Result<AnyView, SplitLoaderError> {
    Ok(block_view(
        tw,
        clock,
        shared,
        key!("timed_waits.own.lead"),
        key!("timed_waits.own.code_label"),
    ))
}
