//! Experiment 2a's chart: frame gaps over time, blocked against awaiting. Drawn from
//! waitlab-core's chart geometry; all text goes in as text nodes.

use crate::components::charts::{
    LegendEntry, chart_frame, chart_svg, footer, line_reading, x_axis, y_axis,
};
use crate::i18n::{t, tr};
use leptos::prelude::*;
use waitlab_core::chart::{Plot, Scale};
use waitlab_core::experiments::JobMode;
use waitlab_core::experiments::main_starvation::MainRun;
use waitlab_core::key;
use waitlab_core::svg::Node;
use waitlab_core::text::Phrase;

/// Frame gaps over time for each mode of experiment 2a, overlaid: a
/// blocked main thread shows as gaps as long as its jobs.
#[component]
pub fn FrameGapChart(
    /// The runs, blocking first.
    runs: Vec<MainRun>,
) -> impl IntoView {
    const PLOT: Plot = Plot::new(48.0, 186.0);
    let end = runs
        .iter()
        .flat_map(|r| r.frames_ms.last().copied())
        .fold(1.0, f64::max);
    let worst = runs
        .iter()
        .map(MainRun::longest_frame_gap)
        .fold(20.0, f64::max);
    let texts: Vec<String> = runs
        .iter()
        .map(|run| {
            tr(&Phrase::new(key!("chart.frames.line"))
                .phrase("mode", run.mode.label())
                .count("frames", run.frames_ms.len() as u64)
                .ms("p50", run.median_frame_gap())
                .ms("longest", run.longest_frame_gap())
                .count("long", run.long_frame_gaps() as u64))
        })
        .collect();
    let legend = [
        LegendEntry::text("blocking", format!("— {}", t(key!("mode.blocking")))),
        LegendEntry::text("async", format!("— {}", t(key!("mode.async")))),
    ];
    let gap = |mode: JobMode| {
        runs.iter()
            .find(|r| r.mode == mode)
            .map(MainRun::longest_frame_gap)
    };
    let summary = match (gap(JobMode::Blocking), gap(JobMode::Async)) {
        (Some(blocking), Some(waiting)) => tr(&Phrase::new(key!("chart.frames.summary"))
            .ms("blocking", blocking)
            .ms("async", waiting)),
        _ => String::new(),
    };
    let (axis, aria) = (t(key!("chart.frames.axis")), t(key!("chart.frames.aria")));
    chart_frame("frame-gaps", summary, move |width| {
        let x = Scale::linear_nice(0.0, end, PLOT.left, width - 12.0);
        let y = Scale::log_decades(1.0, worst, 1.0, PLOT.bottom, PLOT.top);
        let mut marks = y_axis(&y, PLOT.left, width - 12.0);
        marks.extend(x_axis(&x, PLOT.top, PLOT.bottom, width));
        let frame_y = y.map(1000.0 / 60.0);
        marks.push(Node::line(
            "frame-line",
            PLOT.left,
            frame_y,
            width - 12.0,
            frame_y,
        ));
        marks.extend(runs.iter().zip(&texts).enumerate().map(|(i, (run, text))| {
            line_reading(
                i == 0,
                format!("frames-{}", run.mode.name()),
                text.clone(),
                format!("gaps {}", run.mode.name()),
                run.frame_gaps()
                    .into_iter()
                    .map(|(t, gap)| (x.map(t), y.map(gap))),
            )
        }));
        let (under, height) = footer(width, PLOT.left, PLOT.footer_top(), &legend, &axis);
        marks.extend(under);
        chart_svg(width, height, aria.clone(), marks)
    })
}
