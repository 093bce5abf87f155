//! Experiment 2a, starvation of the main thread: the live animation, the
//! controls, the frame-gap chart and the numbers.

use crate::components::blocks::{ClockNote, Findings, NumbersTable, figure};
use crate::components::charts::FrameGapChart;
use crate::components::field::Field;
use crate::components::links::ExperimentOutput;
use crate::components::run_controls::RunForm;
use crate::components::ticker::Ticker;
use crate::hooks::use_experiment;
use crate::runner::run_main_starvation;
use leptos::prelude::*;
use waitlab_core::chart::format_ms;
use waitlab_core::clock::ClockInfo;
use waitlab_core::experiment::Experiment;
use waitlab_core::findings;
use waitlab_core::starvation::{JobMode, MainConfig, MainStarvation};

/// Experiment 2a.
#[component]
pub fn MainStarvationSection() -> impl IntoView {
    let defaults = MainConfig::default();
    let jobs = RwSignal::new(defaults.jobs.to_string());
    let wait_ms = RwSignal::new(defaults.wait_ms.to_string());
    let config = Memo::new(move |_| {
        MainConfig::parse(&jobs.get(), &wait_ms.get()).map_err(|e| e.to_string())
    });
    let experiment = use_experiment(run_main_starvation);
    view! {
        <section class="card experiment" data-testid="main-starvation">
            <h2><span class="num-badge">"2a"</span>" Starvation: blocking the main thread"</h2>
            <div class="explain">
                <p>"In the article, 200 work items that each Thread.Sleep(1000) on a pool of 10 threads \
                    took 18 s, and a trivial item queued behind them waited 17 s; with await Task.Delay(1000) \
                    the batch took 1 s. A blocked thread is lost to everyone else."</p>
                <p>"A page has one main thread, a pool of one. Jobs that busy-wait hold it, so timers, \
                    messages, input and rendering all wait; jobs that await a timer hold nothing. Watch \
                    the ball: requestAnimationFrame moves it, and it freezes while the blocking batch runs."</p>
            </div>
            <Ticker running=Signal::derive(move || experiment.progress.with(Option::is_some)) />
            <RunForm experiment=experiment config=config unit="batches"
                hint=Signal::derive(move || config.get().ok().map(|c| format!(
                    "the page freezes for about {} s during the blocking batch",
                    format_ms(c.expected_batch_ms(JobMode::Blocking) / 1000.0)
                )))>
                <Field label="Jobs" testid="jobs" value=jobs numeric=true />
                <Field label="Each waits, ms" testid="wait" value=wait_ms numeric=true />
            </RunForm>
            <ExperimentOutput experiment=Experiment::MainStarvation report=experiment.report render=|r| r.main_starvation.clone().map(|ms| view! { <MainStarvationResults ms=ms clock=r.env.clock /> }.into_any()) />
        </section>
    }
}

/// Findings, chart and table of a finished run.
#[component]
fn MainStarvationResults(
    /// The results.
    ms: MainStarvation,
    /// The clock the run read, which decides what counts as measured.
    clock: Option<ClockInfo>,
) -> impl IntoView {
    let figures: Vec<f64> = ms
        .runs
        .iter()
        .flat_map(|run| {
            [
                run.batch_ms,
                run.timer_queue_wait_ms,
                run.message_queue_wait_ms,
                run.longest_frame_gap(),
            ]
        })
        .collect();
    let rows = ms
        .runs
        .iter()
        .map(|run| {
            view! {
                <tr data-testid=format!("row-{}", run.mode.name())>
                    <td>{run.mode.name()}</td>
                    <td class="analogue">{run.mode.main_analogue()}</td>
                    {figure(run.batch_ms, clock)}
                    <td class="num">{format_ms(ms.config.expected_batch_ms(run.mode))}</td>
                    {figure(run.timer_queue_wait_ms, clock)}
                    {figure(run.message_queue_wait_ms, clock)}
                    {figure(run.longest_frame_gap(), clock)}
                    <td class="num">{run.frames_ms.len()}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="results-block" data-testid="results">
            <Findings items=findings::main_starvation(&ms, clock) />
            <h3>"Time between animation frames"</h3>
            <FrameGapChart runs=ms.runs.clone() />
            <NumbersTable headers=&["Jobs", ".NET analogue", "Batch, ms", "Expected", "setTimeout(0) waited", "Message waited", "Longest frame gap", "Frames"] numeric_from=2>
                {rows}
            </NumbersTable>
            <ClockNote clock=clock figures=figures />
        </div>
    }
}
