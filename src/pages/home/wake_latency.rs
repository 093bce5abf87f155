//! Experiment 4, wake latency: controls, the distribution per strategy and
//! the table with each strategy's median as a multiple of the event wait.

use crate::components::blocks::{ClockNote, Findings, NumbersTable, figure, marked_cell};
use crate::components::charts::{OverviewChart, OverviewRow};
use crate::components::field::Field;
use crate::components::links::ExperimentOutput;
use crate::components::run_controls::RunForm;
use crate::hooks::use_experiment;
use crate::runner::run_wake_latency;
use leptos::prelude::*;
use waitlab_core::chart::format_ms;
use waitlab_core::clock::ClockInfo;
use waitlab_core::experiment::Experiment;
use waitlab_core::findings;
use waitlab_core::outcome::Outcome;
use waitlab_core::wake::{WakeConfig, WakeLatency};

/// Experiment 4.
#[component]
pub fn WakeLatencySection() -> impl IntoView {
    let rounds = RwSignal::new(WakeConfig::default().rounds.to_string());
    let config = Memo::new(move |_| WakeConfig::parse(&rounds.get()));
    let experiment = use_experiment(run_wake_latency);
    view! {
        <section class="card experiment" data-testid="wake-latency">
            <h2><span class="num-badge">"4"</span>" Wake latency: polling versus being signalled"</h2>
            <div class="explain">
                <p>"In the article a setter raised a flag after a random delay and waiters noticed it by \
                    spinning, by polling with Thread.Sleep(1) or Task.Delay(1), or by waiting on an event; \
                    the event waits woke about 50 times faster at the median than any polling loop."</p>
                <p>"Here a setter worker busy-waits a random 0–3 ms, stamps the time and raises a flag in \
                    shared memory; a waiter worker notices it by each strategy. Both stamp \
                    performance.timeOrigin + now(), and the skew between the two clocks is measured \
                    first and corrected for."</p>
            </div>
            <RunForm experiment=experiment config=config unit="rounds"
                hint=Signal::derive(move || config.get().ok().map(|c| format!("about {} s", format_ms(f64::from(c.rounds) * 0.02))))>
                <Field label="Rounds per strategy" testid="rounds" value=rounds numeric=true />
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
                label: r.strategy.label().to_owned(),
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
                .map_or_else(|| "–".to_owned(), |(_, x)| format!("{}×", waitlab_core::number::fixed(*x, 1)));
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
                Outcome::Unavailable { reason } => {
                    view! { <td colspan="5" class="unavailable">"Not available here: "{reason.clone()}</td> }.into_any()
                }
                Outcome::Failed { message } => view! { <td colspan="5" class="failed">{message.clone()}</td> }.into_any(),
                Outcome::TimeoutNeverFired { .. } => view! { <td colspan="5" class="failed">"did not finish"</td> }.into_any(),
            };
            view! {
                <tr data-testid=format!("row-{}", r.strategy.id())>
                    <td class="mech">{r.strategy.label()}</td>
                    <td class="analogue">{r.strategy.analogue()}</td>
                    {stats}
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="results-block" data-testid="results">
            <Findings items=findings::wake_latency(&wake, clock) />
            <h3>"Set → noticed, per strategy"</h3>
            <OverviewChart rows=rows />
            <NumbersTable headers=&["Waiter", ".NET analogue", "p50, ms", "p99", "max", "× event", "n"] numeric_from=2>
                {table}
            </NumbersTable>
            <ClockNote clock=clock figures=figures />
        </div>
    }
}
