//! Experiment 3, the spin ladder: controls, the step-cost chart and the
//! spin-until numbers.

mod chart;
mod runner;

use crate::components::blocks::{NumbersTable, ResultsBlock, figure};
use crate::components::run_controls::config_form;
use crate::i18n::{num, t, tr};
use chart::LadderChart;
use leptos::prelude::*;
use waitlab_core::clock::ClockInfo;
use waitlab_core::experiments::Findings;
use waitlab_core::experiments::spin_ladder::SpinLadder;
use waitlab_core::key;
use waitlab_core::text::Phrase;

/// Findings, chart and table of a finished run.
#[component]
pub(super) fn SpinLadderResults(
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
                    <td>{t(if su.sleep_stage { key!("spin_ladder.with_sleep") } else { key!("spin_ladder.pure_spin") })}</td>
                    {figure(su.wall_ms, clock)}
                    {figure(su.busy_ms, clock)}
                    <td class="num">{format!("{} %", num(&waitlab_core::number::fixed(su.busy_fraction() * 100.0, 0)))}</td>
                    <td class="num">{su.calls}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <ResultsBlock findings=ladder.findings(clock)>
            <h3>{t(key!("spin_ladder.cost"))}</h3>
            <LadderChart steps=ladder.steps.clone() />
            {blocks_note(&ladder)}
            <h3>{t(key!("spin_ladder.spin_until_heading"))}</h3>
            <NumbersTable headers=&[key!("spin_ladder.col.ladder"), key!("spin_ladder.col.wall"), key!("spin_ladder.col.busy_ms"), key!("spin_ladder.col.busy"), key!("spin_ladder.col.calls")] numeric_from=1>
                {rows}
            </NumbersTable>
        </ResultsBlock>
    }
}

/// How the calls were timed: most far shorter than one clock step, each
/// is the time of a block of back-to-back calls divided by their number.
fn blocks_note(ladder: &SpinLadder) -> Option<impl IntoView + use<>> {
    let most = ladder.steps.iter().map(|s| s.block).max()?;
    let least = ladder.steps.iter().map(|s| s.block).min()?;
    (most > 1).then(|| {
        view! {
            <p class="note" data-testid="ladder-blocks">{tr(&Phrase::new(key!("spin_ladder.blocks")).count("most", most).count("least", least))}</p>
        }
    })
}

on_page! {
    SpinLadder,
    form form_spin_ladder = config_form::<SpinLadder>(),
    results |self, report| view! { <SpinLadderResults ladder=self.clone() clock=report.env.clock /> },
}
