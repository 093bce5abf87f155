//! One series' statistics in the terms BenchmarkDotNet's readers know,
//! beside its histogram: every figure computed by core's `describe`.

use crate::components::blocks::{ClockNote, figure};
use crate::i18n::{count, num, t, tr};
use leptos::prelude::*;
use waitlab_core::clock::ClockInfo;
use waitlab_core::describe::{
    Description, Interval, Modality, RERUN_COVERAGE, RERUN_DRIFT, RERUN_STEPS, describe,
};
use waitlab_core::key;
use waitlab_core::number::fixed;
use waitlab_core::stats::Samples;
use waitlab_core::text::{Key, Phrase};

/// The catalog key of the mvalue's verdict.
fn modality_key(m: Modality) -> Key {
    match m {
        Modality::Unimodal => key!("stats.unimodal"),
        Modality::SeveralModes => key!("stats.several_modes"),
        Modality::Bimodal => key!("stats.bimodal"),
        Modality::Multimodal => key!("stats.multimodal"),
    }
}

/// A row's value: a figure (marked when the clock does not resolve it) or
/// a plain number.
enum Value {
    Figure(f64),
    Text(String),
}

/// An interval's words, or why there is none.
fn interval(i: Option<Interval>) -> String {
    match i {
        Some(i) => tr(&Phrase::new(key!("stats.interval"))
            .ms("lo", i.lo)
            .ms("hi", i.hi)),
        None => t(key!("stats.too_few")),
    }
}

/// The row of where a rerun's median lies, and what that range holds.
fn rerun_row(d: &Description) -> (Key, Value, Option<String>) {
    let Some(i) = d.rerun_interval else {
        return (
            key!("stats.rerun"),
            Value::Text("–".into()),
            Some(t(key!("stats.too_few"))),
        );
    };
    let range = Phrase::new(key!("stats.rerun_range"))
        .ms("lo", i.lo)
        .ms("hi", i.hi);
    let note = match d.wander_ms {
        Some(wander) => drift(Phrase::new(key!("stats.rerun_note_wander"))).ms("wander", wander),
        None => drift(Phrase::new(key!("stats.rerun_note"))),
    };
    (
        key!("stats.rerun"),
        Value::Text(tr(&range)),
        Some(tr(&note)),
    )
}

/// `phrase` with the rerun interval's widening: its clock steps and its
/// share of the median.
fn drift(phrase: Phrase) -> Phrase {
    phrase
        .count("steps", RERUN_STEPS as u64)
        .count("percent", (RERUN_DRIFT * 100.0) as u64)
}

/// The statistics of `samples` (of the series `what`), measured with
/// `clock`, as a two-column table with a note per row.
#[component]
pub fn StatisticsTable(
    /// What the samples are of.
    what: Phrase,
    /// The samples, ms.
    samples: Samples,
    /// The clock the run read.
    clock: Option<ClockInfo>,
    /// How far its run saw its median wander (`stats::rerun_spread`).
    spread_ms: Option<f64>,
) -> impl IntoView {
    let d = describe(&samples, clock, spread_ms);
    let mut figures = vec![d.mean, d.std_dev, d.median];
    figures.extend(d.error);
    let figure_row = |label: Key, v: f64, note: Option<String>| (label, Value::Figure(v), note);
    let mut rows = vec![
        (key!("stats.n"), Value::Text(count(d.n.into())), None),
        figure_row(
            key!("stats.mean"),
            d.mean,
            Some(interval(d.mean_interval())),
        ),
        (
            key!("stats.error"),
            d.error.map_or(Value::Text("–".into()), Value::Figure),
            Some(t(key!("stats.error_note"))),
        ),
        figure_row(key!("stats.std_dev"), d.std_dev, None),
        figure_row(
            key!("stats.median"),
            d.median,
            Some(interval(d.median_interval)),
        ),
        rerun_row(&d),
    ];
    for (label, v) in [
        (key!("stats.min"), d.min),
        (key!("stats.q1"), d.q1),
        (key!("stats.q3"), d.q3),
        (key!("stats.p90"), d.p90),
        (key!("stats.p99"), d.p99),
        (key!("stats.max"), d.max),
    ] {
        figures.push(v);
        rows.push(figure_row(label, v, None));
    }
    let outliers = Phrase::new(key!("stats.outliers_note"))
        .count("low", d.outliers.low)
        .ms("lo", d.outliers.fences.lo)
        .count("high", d.outliers.high)
        .ms("hi", d.outliers.fences.hi);
    rows.push((
        key!("stats.outliers"),
        Value::Text(count((d.outliers.low + d.outliers.high).into())),
        Some(tr(&outliers)),
    ));
    rows.push((
        key!("stats.mvalue"),
        Value::Text(num(&fixed(d.mvalue, 2))),
        Some(t(modality_key(d.modality()))),
    ));
    if let (Some(c), Some(under)) = (clock, d.at_resolution) {
        rows.push((
            key!("stats.at_resolution"),
            Value::Text(count(under.into())),
            Some(tr(&Phrase::new(key!("stats.at_resolution_note"))
                .count("n", d.n)
                .ms("two_steps", 2.0 * c.tolerance_ms()))),
        ));
    }
    let about = drift(Phrase::new(key!("stats.rerun_about")))
        .count("coverage", (RERUN_COVERAGE * 100.0) as u64);
    let rows = rows
        .into_iter()
        .map(|(label, value, note)| {
            let value = match value {
                Value::Figure(v) => figure(v, clock).into_any(),
                Value::Text(text) => view! { <td class="num">{text}</td> }.into_any(),
            };
            view! {
                <tr>
                    <th scope="row">{t(label)}</th>
                    {value}
                    <td class="note">{note}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-wrap">
            <table class="results stats" data-testid="statistics">
                <caption>{tr(&Phrase::new(key!("stats.caption")).phrase("what", what))}</caption>
                <tbody>{rows}</tbody>
            </table>
        </div>
        <p class="note" data-testid="rerun-about">{tr(&about)}</p>
        <ClockNote clock=clock figures=figures />
    }
}
