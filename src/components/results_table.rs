//! The timed-waits table: one row per cell, what it is the analogue of, and
//! its statistics. Clicking a measured row selects it for the histogram.

use leptos::prelude::*;
use waitlab_core::chart::format_ms;
use waitlab_core::probe::{CellKey, Thread};
use waitlab_core::schema::{Cell, Outcome};

fn thread_name(thread: Thread) -> &'static str {
    match thread {
        Thread::Main => "main",
        Thread::Worker => "worker",
        Thread::Os => "OS thread",
    }
}

/// The statistics columns of one row.
fn stat_cells(cell: &Cell) -> AnyView {
    match &cell.outcome {
        Outcome::Measured { summary: s, .. } => {
            let overshoot = cell
                .key
                .requested_ms
                .map(|d| format_ms(s.overshoot(f64::from(d))))
                .unwrap_or_else(|| "–".to_owned());
            view! {
                <td class="num" data-testid="p50">{format_ms(s.p50)}</td>
                <td class="num">{format_ms(s.p90)}</td>
                <td class="num">{format_ms(s.p99)}</td>
                <td class="num">{format_ms(s.max)}</td>
                <td class="num">{format_ms(s.mean)}</td>
                <td class="num">{overshoot}</td>
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
) -> impl IntoView {
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
                    {stat_cells(&cell)}
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
    }
}
