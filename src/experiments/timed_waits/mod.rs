//! Experiment 1, timed waits: controls, progress, findings, charts, table.

mod chart;
mod own_wait;
mod picker;
mod runner;

use crate::components::blocks::{NumbersTable, ResultsBlock, figure};
use crate::components::charts::{OverviewChart, OverviewRow};
use crate::components::field::Field;
use crate::components::own_way::own_way_block;
use crate::components::run_controls::RunForm;
use crate::components::statistics::StatisticsTable;
use crate::hooks::Experiments;
use crate::i18n::{t, tr};
use chart::{ChainChart, HistogramChart, samples_of};
use leptos::prelude::*;
use picker::{CellPicker, default_selection, with_samples};
use waitlab_core::experiments::Config;
use waitlab_core::experiments::Findings;
use waitlab_core::experiments::timed_waits::TimedWaits;
use waitlab_core::experiments::timed_waits::{Mechanism, Thread, TimedWaitsConfig};
use waitlab_core::key;
use waitlab_core::sampling::Sampling;
use waitlab_core::schema::Report;
use waitlab_core::text::{Arg, Phrase};

/// Experiment 1's form: its fields, Run and Cancel (a chunk of its own).
#[component]
pub fn TimedWaitsForm() -> impl IntoView {
    let defaults = TimedWaitsConfig::default();
    let durations = RwSignal::new(
        defaults
            .durations_ms
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", "),
    );
    let samples = RwSignal::new(defaults.samples.to_string());
    let adaptive = RwSignal::new(defaults.sampling == Sampling::Adaptive);
    let mechanisms = RwSignal::new(defaults.mechanisms);
    let config = Memo::new(move |_| {
        let sampling = if adaptive.get() {
            Sampling::Adaptive
        } else {
            Sampling::Fixed
        };
        let samples = (samples.get(), sampling);
        mechanisms
            .with(|m| TimedWaitsConfig::parse(&durations.get(), (&samples.0, samples.1), m))
            .map_err(|e| e.phrase())
    });
    let experiment = expect_context::<Experiments>().of::<TimedWaits>();
    view! {
        <RunForm experiment=experiment config=config
            hint=Signal::derive(move || config.get().ok().map(|c| Phrase::new(key!("run.about_seconds")).arg("seconds", Arg::Fixed((c.estimated_ms() / 1000.0).ceil(), 0))))>
            <Field label=key!("timed_waits.durations") testid="durations" value=durations />
            <Field label=key!("timed_waits.samples") testid="samples" value=samples numeric=true />
            <label class="toggle form-toggle">
                <input type="checkbox" data-testid="adaptive" prop:checked=move || adaptive.get()
                    on:change=move |e| adaptive.set(event_target_checked(&e)) />
                " "{t(key!("timed_waits.adaptive"))}
            </label>
            <MechanismPicker picked=mechanisms />
        </RunForm>
    }
}

/// Which mechanisms a run measures: every one unless the reader unticks
/// some, grouped by the thread that waits (folded away until asked for).
#[component]
fn MechanismPicker(
    /// The mechanisms picked (in any order; the configuration sorts them).
    picked: RwSignal<Vec<Mechanism>>,
) -> impl IntoView {
    let group = |thread: Thread, heading| {
        let boxes = Mechanism::BROWSER
            .into_iter()
            .filter(|m| m.thread() == thread)
            .map(|m| {
                view! {
                    <label>
                        <input type="checkbox" data-testid=format!("mechanism-{}", m.id())
                            prop:checked=move || picked.with(|p| p.contains(&m))
                            on:change=move |e| {
                                let on = event_target_checked(&e);
                                picked.update(|p| {
                                    p.retain(|x| *x != m);
                                    if on {
                                        p.push(m);
                                    }
                                });
                            } />
                        <code>{tr(&m.label())}</code>
                    </label>
                }
            })
            .collect_view();
        view! { <fieldset><legend>{t(heading)}</legend>{boxes}</fieldset> }
    };
    let summary = move || {
        tr(&Phrase::new(key!("timed_waits.mechanisms"))
            .count("picked", picked.with(Vec::len) as u64)
            .count("all", Mechanism::BROWSER.len() as u64))
    };
    view! {
        <details class="mechanisms" data-testid="mechanisms">
            <summary>{summary}</summary>
            <div class="mechanism-groups">
                {group(Thread::Main, key!("run.main_thread"))}
                {group(Thread::Worker, key!("run.worker"))}
            </div>
        </details>
    }
}

/// Findings, charts, table and the raw JSON of a finished run.
#[component]
pub(super) fn TimedWaitsResults(
    /// The finished run.
    report: Report,
) -> impl IntoView {
    let Some(tw) = report.timed_waits.clone() else {
        return view! { <p class="error">{t(key!("timed_waits.no_data"))}</p> }.into_any();
    };
    let tolerance = report.env.clock.map(|c| c.tolerance_ms()).unwrap_or(0.001);
    let measured = with_samples(&tw);
    let selected = RwSignal::new(default_selection(&measured));
    let own = tw.clone();
    let shared = report.from_link;
    let any_samples = !measured.is_empty();
    let overview: Vec<_> = tw
        .cells
        .iter()
        .filter_map(|c| c.outcome.summary().map(|s| OverviewRow::of_cell(c.key, *s)))
        .collect();
    let cells = tw.cells.clone();
    let clock = report.env.clock;
    let log = RwSignal::new(false);
    let histogram = move || {
        let key = selected.get()?;
        let cell = cells.iter().find(|c| c.key == key)?;
        let samples = samples_of(&cell.outcome)?;
        Some(view! {
            <HistogramChart key=key samples=samples.clone() log=log.get() floor_ms=tolerance />
            <StatisticsTable what=key.label() samples=samples clock=clock spread_ms=cell.outcome.spread_ms() />
        })
    };
    view! {
        <ResultsBlock findings=tw.findings(report.env.clock)>
            {tw.sampled().map(|p| view! { <p class="note" data-testid="sampled">{tr(&p)}</p> })}
            <h3>{t(key!("timed_waits.glance"))}</h3>
            <OverviewChart rows=overview />
            <h3>{t(key!("timed_waits.distribution"))}</h3>
            {any_samples.then(|| view! { <div class="chart-controls">
                <CellPicker label=key!("timed_waits.cell") testid="histogram-cell" cells=measured selected=selected />
                <label class="toggle">
                    <input type="checkbox" data-testid="histogram-log" prop:checked=move || log.get()
                        on:change=move |e| log.set(event_target_checked(&e)) />
                    " "{t(key!("chart.log_scale"))}
                </label>
            </div> })}
            {histogram}
            <h3>{t(key!("timed_waits.chain"))}</h3>
            <ChainChart chain=tw.chain.clone() tolerance_ms=tolerance />
            // The chart's numbers, for readers who cannot see it.
            <NumbersTable headers=&[key!("table.level"), key!("table.p50_ms"), key!("table.p90_ms")] numeric_from=0>
                {tw.chain.levels.iter().enumerate().map(|(i, level)| view! {
                    <tr data-testid="chain-row"><td class="num">{i + 1}</td>{figure(level.p50, clock)}{figure(level.p90, clock)}</tr>
                }).collect_view()}
            </NumbersTable>
            </ResultsBlock>
            {any_samples.then(|| own_way_block(own, clock, shared, key!("timed_waits.own.heading"), own_wait::own_wait_view))}
    }
    .into_any()
}

on_page! {
    TimedWaits,
    form form_timed_waits = view! { <TimedWaitsForm /> },
    results |self, report| view! { <TimedWaitsResults report=report.clone() /> },
}
