//! Experiment 4, wake latency: controls, the distribution per strategy and
//! the table with each strategy's median as a multiple of the event wait.

use crate::components::blocks::{ClockNote, Details, Findings, NumbersTable, figure, marked_cell};
use crate::components::charts::{OverviewChart, OverviewRow};
use crate::components::field::Field;
use crate::components::links::ExperimentOutput;
use crate::components::run_controls::RunForm;
use crate::hooks::Experiments;
use crate::i18n::{ms, num, t, tr};
use leptos::prelude::*;
use waitlab_core::clock::ClockInfo;
use waitlab_core::experiment::Experiment;
use waitlab_core::findings;
use waitlab_core::key;
use waitlab_core::outcome::{Outcome, reason};
use waitlab_core::text::Phrase;
use waitlab_core::wake::{WakeConfig, WakeLatency};

/// Experiment 4.
#[component]
pub fn WakeLatencySection() -> impl IntoView {
    let rounds = RwSignal::new(WakeConfig::default().rounds.to_string());
    let config = Memo::new(move |_| WakeConfig::parse(&rounds.get()).map_err(|e| e.phrase()));
    let experiment = expect_context::<Experiments>().wake;
    view! {
        <section class="card experiment" data-testid="wake-latency">
            <h2><span class="num-badge">"4"</span>" "{t(key!("wake.heading"))}</h2>
            <div class="explain">
                <p>{t(key!("wake.article"))}</p>
                <p>{t(key!("wake.browser"))}</p>
            </div>
            <RunForm experiment=experiment config=config unit=key!("progress.rounds")
                hint=Signal::derive(move || config.get().ok().map(|c| {
                    Phrase::new(key!("wake.hint")).data("seconds", ms(c.estimated_ms() / 1000.0))
                }))>
                <Field label=key!("wake.rounds") testid="rounds" value=rounds numeric=true />
            </RunForm>
            <ExperimentOutput experiment=Experiment::WakeLatency report=experiment.report render=|r| r.wake_latency.clone().map(|wake| view! { <WakeResults wake=wake clock=r.env.clock /> }.into_any()) />
        </section>
    }
}

/// Findings, chart and table of a finished run.
#[component]
fn WakeResults(
    /// The results.
    wake: WakeLatency,
    /// The clock the run read, which decides what counts as measured.
    clock: Option<ClockInfo>,
) -> impl IntoView {
    let ratios = wake.ratios_to_event();
    let figures: Vec<f64> = wake
        .results
        .iter()
        .filter_map(|r| r.outcome.summary())
        .flat_map(|s| [s.p50, s.p99, s.max])
        .collect();
    // A ratio is only as resolved as the event wait it divides by.
    let event = wake.event_p50().unwrap_or(f64::INFINITY);
    let ratio_clock = clock.filter(|c| !c.resolves(event));
    let rows = wake
        .results
        .iter()
        .filter_map(|r| {
            r.outcome.summary().map(|s| OverviewRow {
                id: r.strategy.id().to_owned(),
                label: tr(&r.strategy.label()),
                requested_ms: None,
                summary: *s,
            })
        })
        .collect::<Vec<_>>();
    let table = wake
        .results
        .iter()
        .map(|r| {
            let ratio = ratios
                .iter()
                .find(|(s, _)| *s == r.strategy)
                .map_or_else(|| "–".to_owned(), |(_, x)| format!("{}×", num(&waitlab_core::number::fixed(*x, 1))));
            let ratio = marked_cell(ratio, event, ratio_clock);
            let stats = match &r.outcome {
                Outcome::Measured { summary: s, .. } => view! {
                    {figure(s.p50, clock)}
                    {figure(s.p99, clock)}
                    {figure(s.max, clock)}
                    {ratio}
                    <td class="num">{s.n}</td>
                }
                .into_any(),
                Outcome::Unavailable { reason: why } => view! {
                    <td colspan="5" class="unavailable">
                        {tr(&Phrase::new(key!("table.unavailable")).phrase("reason", reason::phrase(why)))}
                    </td>
                }
                .into_any(),
                Outcome::Failed { message } => view! {
                    <td colspan="5" class="failed">{tr(&reason::phrase(message))}</td>
                }
                .into_any(),
                Outcome::TimeoutNeverFired { .. } => view! { <td colspan="5" class="failed">{t(key!("wake.did_not_finish"))}</td> }.into_any(),
            };
            view! {
                <tr data-testid=format!("row-{}", r.strategy.id())>
                    <td class="mech">{tr(&r.strategy.label())}</td>
                    <td class="analogue">{tr(&r.strategy.analogue())}</td>
                    {stats}
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="results-block" data-testid="results">
            <Findings items=findings::wake_latency(&wake, clock) />
            <Details summary=key!("results.details")>
            <h3>{t(key!("wake.chart"))}</h3>
            <OverviewChart rows=rows />
            <NumbersTable headers=&[key!("wake.col.waiter"), key!("table.analogue"), key!("column.wake_latency.p50"), key!("wake.col.p99"), key!("wake.col.max"), key!("column.wake_latency.ratio"), key!("wake.col.n")] numeric_from=2>
                {table}
            </NumbersTable>
            <ClockNote clock=clock figures=figures />
            </Details>
        </div>
    }
}
