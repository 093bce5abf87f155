//! Experiment 2b, starvation of a worker pool: controls, the per-worker
//! timeline and the numbers.

use crate::components::blocks::{ClockNote, Details, Findings, NumbersTable, figure};
use crate::components::charts::PoolGantt;
use crate::components::field::Field;
use crate::components::links::ExperimentOutput;
use crate::components::run_controls::RunForm;
use crate::hooks::{Experiments, UseEnvironment};
use crate::i18n::{ms, t, tr};
use leptos::prelude::*;
use waitlab_core::clock::ClockInfo;
use waitlab_core::experiment::Experiment;
use waitlab_core::findings;
use waitlab_core::key;
use waitlab_core::starvation::{JobMode, PoolConfig, PoolStarvation};
use waitlab_core::text::Phrase;

/// Experiment 2b.
#[component]
pub fn PoolStarvationSection() -> impl IntoView {
    let defaults = PoolConfig::for_cores(expect_context::<UseEnvironment>().cores);
    let workers = RwSignal::new(defaults.workers.to_string());
    let jobs = RwSignal::new(defaults.jobs.to_string());
    let wait_ms = RwSignal::new(defaults.wait_ms.to_string());
    let config = Memo::new(move |_| {
        PoolConfig::parse(&workers.get(), &jobs.get(), &wait_ms.get()).map_err(|e| e.phrase())
    });
    let experiment = expect_context::<Experiments>().pool;
    view! {
        <section class="card experiment" data-testid="pool-starvation">
            <h2><span class="num-badge">"2b"</span>" "{t(key!("pool.heading"))}</h2>
            <div class="explain">
                <p>{t(key!("pool.article"))}</p>
                <p>{t(key!("pool.browser"))}</p>
            </div>
            <RunForm experiment=experiment config=config unit=key!("progress.jobs")
                hint=Signal::derive(move || config.get().ok().map(|c| {
                    Phrase::new(key!("pool.hint"))
                        .data("blocking", ms(c.expected_batch_ms(JobMode::Blocking) / 1000.0))
                        .data("async", ms(c.expected_batch_ms(JobMode::Async) / 1000.0))
                }))>
                <Field label=key!("pool.workers") testid="workers" value=workers numeric=true />
                <Field label=key!("main.jobs") testid="jobs" value=jobs numeric=true />
                <Field label=key!("main.each_waits") testid="wait" value=wait_ms numeric=true />
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
                    <td>{tr(&run.mode.label())}</td>
                    <td class="analogue">{tr(&run.mode.pool_analogue())}</td>
                    {figure(run.batch_ms, clock)}
                    <td class="num">{ms(ps.config.expected_batch_ms(run.mode))}</td>
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
                    <li>{t(key!("pool.busy_waited"))}</li>
                })}
            </ul>
            <Details summary=key!("results.details")>
            <h3>{t(key!("pool.timeline"))}</h3>
            <PoolGantt config=ps.config.clone() runs=ps.runs.clone() />
            <NumbersTable headers=&[key!("main.col.jobs"), key!("table.analogue"), key!("main.col.batch"), key!("pool.col.model"), key!("pool.col.extra")] numeric_from=2>
                {rows}
            </NumbersTable>
            <ClockNote clock=clock figures=figures />
            </Details>
        </div>
    }
}
