//! The timed-waits table: one row per cell, what it is the analogue of, and
//! its statistics. Clicking a measured row selects it for the histogram.

use crate::components::blocks::{ClockNote, figure};
use crate::i18n::{t, tr};
use leptos::prelude::*;
use waitlab_core::clock::ClockInfo;
use waitlab_core::key;
use waitlab_core::outcome::{Outcome, reason};
use waitlab_core::schema::Cell;
use waitlab_core::text::Key;
use waitlab_core::text::Phrase;
use waitlab_core::timed::{CellKey, Thread};

/// The catalog key of a thread's name.
fn thread_key(thread: Thread) -> Key {
    match thread {
        Thread::Main => key!("thread.main"),
        Thread::Worker => key!("thread.worker"),
        Thread::Os => key!("thread.os"),
    }
}

/// The statistics columns of one row.
fn stat_cells(cell: &Cell, clock: Option<ClockInfo>) -> AnyView {
    match &cell.outcome {
        Outcome::Measured { summary: s, .. } => {
            let overshoot = match cell.key.requested_ms {
                Some(d) => figure(s.overshoot(f64::from(d)), clock).into_any(),
                None => view! { <td class="num">"–"</td> }.into_any(),
            };
            view! {
                {figure(s.p50, clock)}
                {figure(s.p90, clock)}
                {figure(s.p99, clock)}
                {figure(s.max, clock)}
                {figure(s.mean, clock)}
                {overshoot}
                <td class="num">{s.n}</td>
            }
            .into_any()
        }
        Outcome::Unavailable { reason } => view! {
            <td colspan="7" class="unavailable">
                {tr(&Phrase::new(key!("table.unavailable")).phrase("reason", reason::phrase(reason)))}
            </td>
        }
        .into_any(),
        Outcome::TimeoutNeverFired { waited_ms } => view! {
            <td colspan="7" class="finding">
                {tr(&Phrase::new(key!("table.never_fired")).ms("waited", *waited_ms))}
            </td>
        }
        .into_any(),
        Outcome::Failed { message } => view! {
            <td colspan="7" class="failed">
                {tr(&Phrase::new(key!("table.failed")).phrase("message", reason::phrase(message)))}
            </td>
        }
        .into_any(),
    }
}

/// The table of every cell.
#[component]
pub fn ResultsTable(
    /// The cells, in display order.
    cells: Vec<Cell>,
    /// The cell shown in the histogram.
    selected: RwSignal<Option<CellKey>>,
    /// The clock the run read, which decides what counts as measured.
    clock: Option<ClockInfo>,
) -> impl IntoView {
    let figures: Vec<f64> = cells
        .iter()
        .filter_map(|cell| cell.outcome.summary())
        .flat_map(|s| [s.p50, s.p90, s.p99, s.max, s.mean])
        .collect();
    let rows = cells
        .into_iter()
        .map(|cell| {
            let key = cell.key;
            let measured = cell.outcome.summary().is_some();
            let requested = key
                .requested_ms
                .map(|d| d.to_string())
                .unwrap_or_else(|| "–".to_owned());
            view! {
                <tr
                    data-testid=format!("row-{}", key.id())
                    class:selectable=measured
                    class:selected=move || selected.get() == Some(key)
                    on:click=move |_| if measured { selected.set(Some(key)) }
                >
                    <td class="mech">{tr(&key.label())}</td>
                    <td class="analogue">{tr(&key.analogue())}</td>
                    <td>{t(thread_key(key.mechanism.thread()))}</td>
                    <td class="num">{requested}</td>
                    {stat_cells(&cell, clock)}
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-wrap">
            <table class="results" data-testid="results-table">
                <thead>
                    <tr>
                        <th>{t(key!("table.mechanism"))}</th>
                        <th>{t(key!("table.analogue"))}</th>
                        <th>{t(key!("table.thread"))}</th>
                        <th class="num">{t(key!("table.asked"))}</th>
                        <th class="num">"p50"</th>
                        <th class="num">"p90"</th>
                        <th class="num">"p99"</th>
                        <th class="num">"max"</th>
                        <th class="num">{t(key!("table.mean"))}</th>
                        <th class="num" title=t(key!("table.overshoot_title"))>{t(key!("table.overshoot"))}</th>
                        <th class="num">"n"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        <ClockNote clock=clock figures=figures />
    }
}
