//! Experiment 10 as every layer knows it: its comparison columns and rows
//! (each way's intervals visible and hidden, its lost ticks and how far
//! behind it ended), its CSV (both halves) and what it lacks without
//! shared memory.

use super::{HiddenTab, Keeper};
use crate::compare::{Measured, Value};
use crate::environment::Environment;
use crate::experiments::{Column, Description, Lacks, Sample, Tried, series};
use crate::stats::Summary;

/// What a way measured: its visible and hidden intervals, the ticks it
/// lost and how far behind it ended.
pub struct Keep {
    visible: Summary,
    hidden: Option<Summary>,
    lost: Option<u32>,
    behind_ms: Option<f64>,
}

/// A column of its table.
type C = Column<Keep>;

impl Description for HiddenTab {
    type Measure = Keep;
    const COLUMNS: &'static [C] = &[
        C::ms("visible_p50", |k| Value::of(k.visible.p50)).charted(),
        C::ms("hidden_p50", |k| Value::maybe(k.hidden.map(|s| s.p50))).charted(),
        C::ms("hidden_max", |k| Value::maybe(k.hidden.map(|s| s.max))),
        C::count("lost", |k| k.lost.map_or(Value::Absent, Value::count)),
        C::ms("behind", |k| Value::maybe(k.behind_ms)),
    ];
    type Config = super::HiddenConfig;

    /// Each way's hidden intervals once the page was hidden, its visible
    /// ones if it never was.
    fn tried(&self) -> Vec<Tried<'_>> {
        let hidden = !self.hidden.is_empty();
        Tried::each(
            &self.results,
            |r| (r.way, if hidden { &r.hidden } else { &r.visible }),
            Some(self.config.interval_ms),
        )
    }

    /// A row per way: its visible intervals' figures and, where the page
    /// was hidden, its hidden ones, whose samples the verdicts judge.
    fn rows(&self, _: &Environment) -> Vec<Measured<Keep>> {
        let rows = self.results.iter().map(|r| {
            let hidden = r.hidden.summary().copied();
            let visible = Tried::of(r.way, Some(self.config.interval_ms), &r.visible);
            let mut row = Measured::of_tried(&visible, |s| Keep {
                visible: *s,
                hidden,
                lost: r.lost,
                behind_ms: r.behind_ms,
            });
            if let Some(samples) = r.hidden.samples() {
                row.samples = samples.to_vec();
                row.median_ms = hidden.map(|s| s.p50);
                row.spread_ms = r.hidden.spread_ms();
            }
            row
        });
        rows.collect()
    }

    /// Each way's visible intervals (its id), then its hidden ones (its
    /// id and `_hidden`).
    fn samples(&self) -> Vec<Sample<'_>> {
        let mut out = Vec::new();
        let requested = Some(self.config.interval_ms);
        for r in &self.results {
            series(&mut out, r.way.id(), requested, &r.visible);
            series(&mut out, hidden_series(r.way), requested, &r.hidden);
        }
        out
    }

    fn lacks() -> Lacks {
        Lacks::ways(Keeper::needs_memory)
    }
}

/// The CSV series of a way's hidden intervals.
fn hidden_series(way: Keeper) -> &'static str {
    match way {
        Keeper::PageNested => "page_nested_hidden",
        Keeper::PageFresh => "page_fresh_hidden",
        Keeper::PageInterval => "page_interval_hidden",
        Keeper::PageFrame => "page_frame_hidden",
        Keeper::PageClock => "page_clock_hidden",
        Keeper::PageMessage => "page_message_hidden",
        Keeper::WorkerTimeout => "worker_timeout_hidden",
        Keeper::WorkerAtomics => "worker_atomics_hidden",
    }
}
