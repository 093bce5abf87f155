//! Experiment 2b, starvation of a worker pool: controls, the per-worker
//! timeline and the numbers.

use crate::components::blocks::{ClockNote, Findings, NumbersTable, figure};
use crate::components::charts::PoolGantt;
use crate::components::field::Field;
use crate::components::links::ExperimentOutput;
use crate::components::run_controls::RunForm;
use crate::hooks::{UseEnvironment, use_experiment};
use crate::runner::run_pool_starvation;
use leptos::prelude::*;
use waitlab_core::chart::format_ms;
use waitlab_core::clock::ClockInfo;
use waitlab_core::experiment::Experiment;
use waitlab_core::findings;
use waitlab_core::starvation::{JobMode, PoolConfig, PoolStarvation};

/// Experiment 2b.
#[component]
pub fn PoolStarvationSection() -> impl IntoView {
    let defaults = PoolConfig::for_cores(expect_context::<UseEnvironment>().cores);
    let workers = RwSignal::new(defaults.workers.to_string());
    let jobs = RwSignal::new(defaults.jobs.to_string());
    let wait_ms = RwSignal::new(defaults.wait_ms.to_string());
    let config = Memo::new(move |_| {
        PoolConfig::parse(&workers.get(), &jobs.get(), &wait_ms.get()).map_err(|e| e.to_string())
    });
    let experiment = use_experiment(run_pool_starvation);
    view! {
        <section class="card experiment" data-testid="pool-starvation">
            <h2><span class="num-badge">"2b"</span>" Starvation: a pool of blocked workers"</h2>
            <div class="explain">
                <p>"The article's thread-pool experiment: when every work item sleeps on its thread, \
                    the pool can only run as many items at once as it has threads, so the batch takes \
                    ceil(N / K) × T and new work queues behind it. When items await a delay instead, \
                    the whole batch finishes in about T."</p>
                <p>"Here K Web Workers are the pool. A blocking job holds its worker in Atomics.wait \
                    (a busy-wait where shared memory is off); an async job awaits setTimeout, and one \
                    worker's event loop holds any number of pending timers."</p>
            </div>
            <RunForm experiment=experiment config=config unit="jobs"
                hint=Signal::derive(move || config.get().ok().map(|c| format!(
                    "blocking should take about {} s, async about {} s",
                    format_ms(c.expected_batch_ms(JobMode::Blocking) / 1000.0),
                    format_ms(c.expected_batch_ms(JobMode::Async) / 1000.0)
                )))>
                <Field label="Workers" testid="workers" value=workers numeric=true />
                <Field label="Jobs" testid="jobs" value=jobs numeric=true />
                <Field label="Each waits, ms" testid="wait" value=wait_ms numeric=true />
            </RunForm>
            <ExperimentOutput experiment=Experiment::PoolStarvation report=experiment.report render=|r| r.pool_starvation.clone().map(|ps| view! { <PoolResults ps=ps clock=r.env.clock /> }.into_any()) />
        </section>
    }
}

/// Findings, timeline and table of a finished run.
#[component]
fn PoolResults(
    /// The results.
    ps: PoolStarvation,
    /// The clock the run read, which decides what counts as measured.
    clock: Option<ClockInfo>,
) -> impl IntoView {
    let figures: Vec<f64> = ps
        .runs
        .iter()
        .flat_map(|run| [run.batch_ms, run.extra_job_wait_ms])
        .collect();
    let rows = ps
        .runs
        .iter()
        .map(|run| {
            view! {
                <tr data-testid=format!("row-{}", run.mode.name())>
                    <td>{run.mode.name()}</td>
                    <td class="analogue">{run.mode.pool_analogue()}</td>
                    {figure(run.batch_ms, clock)}
                    <td class="num">{format_ms(ps.config.expected_batch_ms(run.mode))}</td>
                    {figure(run.extra_job_wait_ms, clock)}
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="results-block" data-testid="results">
            <Findings items=findings::pool_starvation(&ps, clock) />
            <ul class="findings">
                {(!ps.blocking_sleeps).then(|| view! {
                    <li>"Shared memory is off here, so blocking jobs busy-waited instead of sleeping in Atomics.wait"</li>
                })}
            </ul>
            <h3>"Which worker ran what, when"</h3>
            <PoolGantt config=ps.config.clone() runs=ps.runs.clone() />
            <NumbersTable headers=&["Jobs", ".NET analogue", "Batch, ms", "Model: ceil(N/K)·T or T", "Extra job waited, ms"] numeric_from=2>
                {rows}
            </NumbersTable>
            <ClockNote clock=clock figures=figures />
        </div>
    }
}
