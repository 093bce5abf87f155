//! The timed-waits table: one row per cell, what it is the analogue of, and
//! its statistics. Clicking a measured row selects it for the histogram.

use crate::components::blocks::{ClockNote, figure};
use leptos::prelude::*;
use waitlab_core::chart::format_ms;
use waitlab_core::clock::ClockInfo;
use waitlab_core::outcome::Outcome;
use waitlab_core::schema::Cell;
use waitlab_core::timed::{CellKey, Thread};

fn thread_name(thread: Thread) -> &'static str {
    match thread {
        Thread::Main => "main",
        Thread::Worker => "worker",
        Thread::Os => "OS thread",
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
        Outcome::Unavailable { reason } => {
            view! { <td colspan="7" class="unavailable">"Not available here: "{reason.clone()}</td> }.into_any()
        }
        Outcome::TimeoutNeverFired { waited_ms } => view! {
            <td colspan="7" class="finding">
                {format!("Its timeout never fired: a fallback timer ended the wait after {} ms, and the probe moved on", format_ms(*waited_ms))}
            </td>
        }
        .into_any(),
        Outcome::Failed { message } => {
            view! { <td colspan="7" class="failed">"Failed: "{message.clone()}</td> }.into_any()
        }
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
                    <td class="mech">{key.label()}</td>
                    <td class="analogue">{key.analogue()}</td>
                    <td>{thread_name(key.mechanism.thread())}</td>
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
                        <th>"Browser mechanism"</th>
                        <th>".NET analogue"</th>
                        <th>"Thread"</th>
                        <th class="num">"Asked, ms"</th>
                        <th class="num">"p50"</th>
                        <th class="num">"p90"</th>
                        <th class="num">"p99"</th>
                        <th class="num">"max"</th>
                        <th class="num">"mean"</th>
                        <th class="num" title="p50 minus the requested wait">"overshoot"</th>
                        <th class="num">"n"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        <ClockNote clock=clock figures=figures />
    }
}
