//! Experiment 3, the spin ladder: controls, the step-cost chart and the
//! spin-until numbers.

use crate::components::blocks::{Findings, NumbersTable, figure};
use crate::components::charts::LadderChart;
use crate::components::field::Field;
use crate::components::links::ExperimentOutput;
use crate::components::run_controls::RunForm;
use crate::hooks::use_experiment;
use crate::runner::run_spin_ladder;
use leptos::prelude::*;
use waitlab_core::chart::format_ms;
use waitlab_core::clock::ClockInfo;
use waitlab_core::experiment::Experiment;
use waitlab_core::findings;
use waitlab_core::ladder::{LadderConfig, SpinLadder};

/// Experiment 3.
#[component]
pub fn SpinLadderSection() -> impl IntoView {
    let defaults = LadderConfig::default();
    let repeats = RwSignal::new(defaults.repeats.to_string());
    let spin_until = RwSignal::new(defaults.spin_until_ms.to_string());
    let config = Memo::new(move |_| LadderConfig::parse(&repeats.get(), &spin_until.get()));
    let experiment = use_experiment(run_spin_ladder);
    view! {
        <section class="card experiment" data-testid="spin-ladder">
            <h2><span class="num-badge">"3"</span>" The spin ladder"</h2>
            <div class="explain">
                <p>"SpinWait.SpinOnce escalates: ten calls of growing busy spins, then spins alternating \
                    with Thread.Yield (every fifth yield a Sleep(0)), and from the twentieth call on a \
                    Thread.Sleep(1) each time. In the article the first ten calls took 9.8 µs, the next \
                    ten another 10 µs, and every later one about 1,265 µs."</p>
                <p>"Here a worker walks the same ladder with the same constants: a busy loop for the \
                    spins, Atomics.wait(…, 0) for the yields and Atomics.wait(…, 1) for Sleep(1). Then it \
                    runs a spin-until twice, with and without the sleep stage, and counts how much of the \
                    time it kept its core busy."</p>
                <p>"A spin unit is calibrated the way .NET calibrates Thread.SpinWait: before the \
                    ladder the worker times its busy loop and takes as one unit the turns that last 37 ns \
                    (one turn if a single turn is longer), and caps a spin call at the units nearest to \
                    272 ns (7 of 37 ns), .NET's targets. The native probe calibrates its loop (the CPU's \
                    pause instruction) the same way, so a spin means the same time in the browser, \
                    native and article columns."</p>
            </div>
            <RunForm experiment=experiment config=config unit="runs"
                hint=Signal::derive(move || config.get().ok().map(|c| format!(
                    "about {} s; the worker spins or sleeps throughout",
                    format_ms(c.estimated_ms() / 1000.0)
                )))>
                <Field label="Ladders (30 steps each)" testid="repeats" value=repeats numeric=true />
                <Field label="Each spin-until, ms" testid="spin-until" value=spin_until numeric=true />
            </RunForm>
            <ExperimentOutput experiment=Experiment::SpinLadder report=experiment.report render=|r| {
                r.spin_ladder.clone().map(|ladder| view! { <LadderResults ladder=ladder clock=r.env.clock /> }.into_any())
            } />
        </section>
    }
}

/// Findings, chart and table of a finished run.
#[component]
fn LadderResults(
    /// The results.
    ladder: SpinLadder,
    /// The clock the run read.
    clock: Option<ClockInfo>,
) -> impl IntoView {
    let rows = ladder
        .spin_until
        .iter()
        .map(|su| {
            view! {
                <tr>
                    <td>{if su.sleep_stage { "with Sleep(1) from call 20" } else { "pure spin (sleep1Threshold: -1)" }}</td>
                    {figure(su.wall_ms, clock)}
                    {figure(su.busy_ms, clock)}
                    <td class="num">{format!("{} %", waitlab_core::number::fixed(su.busy_fraction() * 100.0, 0))}</td>
                    <td class="num">{su.calls}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="results-block" data-testid="results">
            <Findings items=findings::spin_ladder(&ladder, clock) />
            <h3>"Cost of each SpinOnce"</h3>
            <LadderChart steps=ladder.steps.clone() />
            {blocks_note(&ladder)}
            <h3>"Spin-until"</h3>
            <NumbersTable headers=&["Ladder", "Wall, ms", "Busy, ms", "Busy", "SpinOnce calls"] numeric_from=1>
                {rows}
            </NumbersTable>
        </div>
    }
}

/// How the calls were timed: most far shorter than one clock step, each
/// is the time of a block of back-to-back calls divided by their number.
fn blocks_note(ladder: &SpinLadder) -> Option<impl IntoView + use<>> {
    let most = ladder.steps.iter().map(|s| s.block).max()?;
    let least = ladder.steps.iter().map(|s| s.block).min()?;
    (most > 1).then(|| {
        view! {
            <p class="note" data-testid="ladder-blocks">{format!(
                "A call is mostly far shorter than one clock step, so each cost is a block of \
                 back-to-back calls timed together and divided by their number: from {most} calls \
                 for the shortest spins to {least} for the longest steps, each block at least 20 \
                 clock steps long."
            )}</p>
        }
    })
}
