//! Experiment 8's chart: jobs in flight and each slot's handoff. Drawn from
//! waitlab-core's chart geometry; all text goes in as text nodes.

use crate::components::charts::{
    LegendEntry, chart_frame, chart_svg, footer, line_reading, x_axis,
};
use crate::i18n::{num, t, tr};
use leptos::prelude::*;
use waitlab_core::chart::{Plot, Scale};
use waitlab_core::experiments::concurrency_limit::ConcurrencyLimit;
use waitlab_core::key;
use waitlab_core::svg::Node;
use waitlab_core::text::Phrase;

/// How many jobs ran at once over each gate's batch of experiment 8, as
/// steps: a semaphore's line drops and climbs back at once, a polling
/// gate's stays down until its next poll; the limit is a dashed line.
#[component]
pub fn ConcurrencyChart(
    /// The run.
    limit: ConcurrencyLimit,
) -> impl IntoView {
    const PLOT: Plot = Plot::new(40.0, 186.0);
    let end = limit.runs.iter().map(|r| r.batch_ms()).fold(1.0, f64::max);
    let class = |polls: bool| if polls { "polling" } else { "semaphore" };
    let texts: Vec<String> = limit
        .runs
        .iter()
        .map(|r| {
            tr(&Phrase::new(key!("chart.limit.line"))
                .phrase("what", r.gate.label())
                .ms("batch", r.batch_ms())
                .count("peak", r.peak()))
        })
        .collect();
    let legend = [false, true].map(|polls| {
        let gate = limit.runs.iter().find(|r| r.gate.polls() == polls);
        LegendEntry::text(
            class(polls),
            format!(
                "— {}",
                gate.map(|r| tr(&r.gate.label())).unwrap_or_default()
            ),
        )
    });
    let batches: Vec<f64> = limit.runs.iter().map(|r| r.batch_ms()).collect();
    let summary = tr(&Phrase::new(key!("chart.limit.summary"))
        .count(
            "peak",
            limit.runs.iter().map(|r| r.peak()).max().unwrap_or(0),
        )
        .count("limit", limit.config.limit)
        .ms(
            "least",
            batches.iter().copied().fold(f64::INFINITY, f64::min),
        )
        .ms("most", batches.iter().copied().fold(0.0, f64::max)));
    let (axis, aria) = (t(key!("chart.limit.axis")), t(key!("chart.limit.aria")));
    chart_frame("concurrency", summary, move |width| {
        let x = Scale::linear_nice(0.0, end, PLOT.left, width - 12.0);
        let y = Scale::linear_nice(
            0.0,
            f64::from(limit.config.limit) + 1.0,
            PLOT.bottom,
            PLOT.top + 16.0,
        );
        let mut marks = x_axis(&x, PLOT.top, PLOT.bottom, width);
        marks.extend(y.count_ticks().into_iter().flat_map(|t| {
            [
                Node::line("grid", PLOT.left, t.pos, width - 12.0, t.pos),
                Node::label(
                    "tick",
                    PLOT.left - 6.0,
                    t.pos + 4.0,
                    Some("end"),
                    num(&t.label),
                ),
            ]
        }));
        let cap = y.map(f64::from(limit.config.limit));
        marks.push(Node::line("frame-line", PLOT.left, cap, width - 12.0, cap));
        marks.extend(
            limit
                .runs
                .iter()
                .zip(&texts)
                .enumerate()
                .map(|(i, (r, text))| {
                    let mut steps = vec![(x.map(0.0), y.map(0.0))];
                    let mut level = 0;
                    for (t, n) in r.concurrency() {
                        steps.push((x.map(t), y.map(f64::from(level))));
                        steps.push((x.map(t), y.map(f64::from(n))));
                        level = n;
                    }
                    line_reading(
                        i == 0,
                        format!("concurrency-{}", r.gate.id()),
                        text.clone(),
                        format!("concurrency {}", class(r.gate.polls())),
                        steps.into_iter(),
                    )
                }),
        );
        let (under, height) = footer(width, PLOT.left, PLOT.footer_top(), &legend, &axis);
        marks.extend(under);
        chart_svg(width, height, aria.clone(), marks)
    })
}
