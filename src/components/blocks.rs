//! Building blocks of every results view: the findings list, a plain
//! numbers table, and figures marked when they are below the clock's
//! resolution.

use crate::components::charts::{OverviewChart, OverviewRow};
use crate::hooks::Embedded;
use crate::i18n::{ms, t, tr};
use leptos::prelude::*;
use waitlab_core::clock::{ClockInfo, RESOLVED_STEPS};
use waitlab_core::experiments::Description;
use waitlab_core::key;
use waitlab_core::schema::Report;
use waitlab_core::text::Key;
use waitlab_core::text::Phrase;

/// "What this run shows": the findings, one statement each.
#[component]
pub fn Findings(
    /// The findings.
    items: Vec<Phrase>,
) -> impl IntoView {
    view! {
        <h3>{t(key!("results.findings"))}</h3>
        <ul class="findings" data-testid="findings">
            {items.iter().map(|f| view! { <li>{tr(f)}</li> }).collect_view()}
        </ul>
    }
}

/// A finished run's results: its findings, what it shows beside them
/// (`lead`), and one click away its charts and tables (`children`).
#[component]
pub fn ResultsBlock(
    /// The findings.
    findings: Vec<Phrase>,
    /// What shows between the findings and the details.
    #[prop(optional_no_strip)]
    lead: Option<AnyView>,
    /// The charts and tables behind "details".
    children: Children,
) -> impl IntoView {
    view! {
        <div class="results-block" data-testid="results">
            <Findings items=findings />
            {lead}
            <Details summary=key!("results.details")>{children()}</Details>
        </div>
    }
}

/// The results of a run that compares strategies (experiments 4, 6, 7
/// and 8): its findings, its own chart where it has one (`own`: heading
/// and chart), and one click away the overview chart of every measured
/// strategy (its numbers are in the experiment's one table, beside the
/// reference sets'). An embed shows findings and the comparison's chart
/// alone (its details are hidden: "Open in waitlab" leads to the rest), so
/// there the own chart goes with the details.
#[component]
pub fn StrategyResults(
    /// The findings.
    findings: Vec<Phrase>,
    /// The overview chart's heading.
    chart: Key,
    /// The measured strategies, in display order.
    rows: Vec<OverviewRow>,
    /// The experiment's own chart and its heading.
    #[prop(optional_no_strip)]
    own: Option<(Key, AnyView)>,
) -> impl IntoView {
    let embedded = use_context::<Embedded>().is_some_and(|e| e.0);
    let own = own.map(|(heading, view)| view! { <h3>{t(heading)}</h3> {view} }.into_any());
    let (lead, inside) = if embedded { (None, own) } else { (own, None) };
    view! {
        <ResultsBlock findings=findings lead=lead>
            {inside}
            <h3>{t(chart)}</h3>
            <OverviewChart rows=rows />
        </ResultsBlock>
    }
}

/// The results of an experiment that compares ways of waiting, from
/// `report` (which holds it): [`StrategyResults`] of its findings, an
/// overview of every way it tried (under the heading `chart`), and its
/// `own` chart if it has one.
pub fn strategy_results<E: Description>(
    e: &E,
    report: &Report,
    chart: Key,
    own: Option<(Key, AnyView)>,
) -> AnyView {
    let findings = e.findings(report.env.clock);
    let rows: Vec<OverviewRow> = e.tried().iter().filter_map(OverviewRow::of_tried).collect();
    view! { <StrategyResults findings=findings chart=chart rows=rows own=own /> }.into_any()
}

/// What a reader opens to see more: a results view's charts and tables
/// beyond its findings, or a comparison's table. Closed at first, so a
/// section leads with its findings and one chart.
#[component]
pub fn Details(
    /// The summary line, a catalog key.
    summary: Key,
    /// What it holds.
    children: Children,
) -> impl IntoView {
    view! {
        <details class="details" data-testid="details">
            <summary>{t(summary)}</summary>
            {children()}
        </details>
    }
}

/// A results table: the headers (catalog keys), right-aligned from column
/// `numeric_from` on, and the rows as children.
#[component]
pub fn NumbersTable(
    /// Column headers, as catalog keys.
    headers: &'static [Key],
    /// The first numeric (right-aligned) column.
    numeric_from: usize,
    /// The `<tr>` rows.
    children: Children,
) -> impl IntoView {
    view! {
        <div class="table-wrap">
            <table class="results">
                <thead><tr>
                    {headers.iter().enumerate().map(|(i, h)| view! { <th class:num={i >= numeric_from}>{t(*h)}</th> }).collect_view()}
                </tr></thead>
                <tbody>{children()}</tbody>
            </table>
        </div>
    }
}

/// One figure, ms, in a table cell, marked ‡ when it spans fewer than 20
/// steps of `clock` (then it is rounding, not a measurement), with the
/// step it would need.
pub fn figure(value: f64, clock: Option<ClockInfo>) -> impl IntoView {
    let below = clock.filter(|c| !c.resolves(value));
    marked_cell(ms(value), value, below, None)
}

/// A verdict's test figures, one click away: a line each under
/// `summary` (nothing when there are none).
#[component]
pub fn VerdictFigures(
    /// The lines.
    figures: Vec<Phrase>,
    /// What the disclosure says.
    summary: Key,
) -> impl IntoView {
    (!figures.is_empty()).then(|| {
        view! {
            <details class="stats-of-verdict" data-testid="verdict-stats">
                <summary>{t(summary)}</summary>
                <ul>{figures.iter().map(|f| view! { <li>{tr(f)}</li> }).collect_view()}</ul>
            </details>
        }
    })
}

/// A numeric cell showing `text`; with `below`, marked ‡ as a figure of
/// `figure_ms` that this clock does not resolve; `label`: its column's
/// name, which a phone shows beside it (a row there is a card).
pub fn marked_cell(
    text: String,
    figure_ms: f64,
    below: Option<ClockInfo>,
    label: Option<String>,
) -> impl IntoView {
    view! {
        <td class="num" class:below-clock=below.is_some() data-label=label>
            {text}
            {below.map(|c| view! {
                <abbr class="clock-mark" data-testid="below-clock" title=tr(&Phrase::new(key!("clock.mark_title"))
                    .ms("resolution", c.resolution_ms())
                    .count("steps", RESOLVED_STEPS as u64)
                    .ms("step", c.tolerance_ms())
                    .ms("needed", figure_ms.abs() / RESOLVED_STEPS))>"‡"</abbr>
            })}
        </td>
    }
}

/// What the ‡ marks of a table mean, if `clock` leaves one of `figures`
/// (ms) unresolved; nothing otherwise.
#[component]
pub fn ClockNote(
    /// The clock the run read.
    clock: Option<ClockInfo>,
    /// Every figure the table shows, ms.
    figures: Vec<f64>,
) -> impl IntoView {
    clock
        .filter(|c| figures.iter().any(|&v| !c.resolves(v)))
        .map(|c| {
            view! {
                <p class="note" data-testid="clock-note">
                    {tr(&Phrase::new(key!("clock.note"))
                        .ms("resolution", c.resolution_ms())
                        .count("steps", RESOLVED_STEPS as u64)
                        .ms("step", c.tolerance_ms()))}
                </p>
            }
        })
}
