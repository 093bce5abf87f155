//! Experiment 7's chart: each tick's lateness, per scheduler. Drawn from
//! waitlab-core's chart geometry; all text goes in as text nodes.

use crate::components::charts::{
    LegendEntry, chart_frame, chart_svg, footer, line_reading, x_axis_at, y_axis,
};
use crate::i18n::{t, tr};
use leptos::prelude::*;
use waitlab_core::chart::{Plot, Scale};
use waitlab_core::experiments::periodic_work::{PeriodicWork, Schedule};
use waitlab_core::key;
use waitlab_core::text::Phrase;

/// Each tick's lateness against the ideal schedule, one line per loop of
/// experiment 7 (solid on the main thread, dashed in a worker): a loop
/// that waits after its work climbs, a schedule kept by the clock stays
/// near zero.
#[component]
pub fn LatenessChart(
    /// The run.
    periodic: PeriodicWork,
) -> impl IntoView {
    const PLOT: Plot = Plot::new(48.0, 206.0);
    let class = |schedule: Schedule| match schedule {
        Schedule::Chained => "chained",
        Schedule::Interval => "interval",
        Schedule::Corrected => "corrected",
    };
    // Each loop that kept its lateness: its test id, its reading, its
    // line's class, the lateness of each tick and its drift.
    type Line = (String, String, String, Vec<f64>, Option<f64>);
    let lines: Vec<Line> = periodic
        .results
        .iter()
        .filter_map(|r| {
            let schedule = r.scheduler.schedule()?;
            let lateness = r.outcome.samples()?.to_vec();
            let worker =
                waitlab_core::experiments::periodic_work::Scheduler::WORKER.contains(&r.scheduler);
            let text = tr(&Phrase::new(key!("chart.periodic.line"))
                .phrase("what", r.scheduler.label())
                .ms("drift", r.drift_ms().unwrap_or(0.0))
                .ms("p50", r.outcome.summary().map_or(0.0, |s| s.p50)));
            let class = format!(
                "lateness {}{}",
                class(schedule),
                if worker { " worker" } else { "" }
            );
            Some((
                format!("lateness-{}", r.scheduler.id()),
                text,
                class,
                lateness,
                r.drift_ms(),
            ))
        })
        .collect();
    let ticks = lines.iter().map(|l| l.3.len()).max().unwrap_or(1).max(2);
    let (lo, hi) = lines
        .iter()
        .flat_map(|l| l.3.iter().copied())
        .fold((0.0, 1.0), |(lo, hi): (f64, f64), v| (lo.min(v), hi.max(v)));
    let legend = [Schedule::Chained, Schedule::Interval, Schedule::Corrected]
        .map(|s| LegendEntry::text(class(s), format!("— {}", tr(&s.label()))));
    let drifts: Vec<f64> = lines.iter().filter_map(|l| l.4).collect();
    let summary = if drifts.is_empty() {
        String::new()
    } else {
        tr(&Phrase::new(key!("chart.periodic.summary"))
            .count("ticks", periodic.config.ticks)
            .ms(
                "least",
                drifts.iter().copied().fold(f64::INFINITY, f64::min),
            )
            .ms(
                "most",
                drifts.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            ))
    };
    let (axis, aria) = (
        t(key!("chart.periodic.axis")),
        t(key!("chart.periodic.aria")),
    );
    chart_frame("lateness", summary, move |width| {
        let x = Scale::linear_nice(1.0, ticks as f64, PLOT.left, width - 12.0);
        let y = Scale::linear_nice(lo, hi, PLOT.bottom, PLOT.top);
        let mut marks = y_axis(&y, PLOT.left, width - 12.0);
        marks.extend(x_axis_at(x.count_ticks(), PLOT.top, PLOT.bottom, width));
        marks.extend(
            lines
                .iter()
                .enumerate()
                .map(|(i, (id, text, class, lateness, _))| {
                    line_reading(
                        i == 0,
                        id.clone(),
                        text.clone(),
                        class.clone(),
                        lateness
                            .iter()
                            .enumerate()
                            .map(|(t, &l)| (x.map((t + 1) as f64), y.map(l))),
                    )
                }),
        );
        let (under, height) = footer(width, PLOT.left, PLOT.footer_top(), &legend, &axis);
        marks.extend(under);
        chart_svg(width, height, aria.clone(), marks)
    })
}
