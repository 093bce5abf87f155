//! Experiment 2b's chart: the pool's jobs as a Gantt chart. Drawn from
//! waitlab-core's chart geometry; all text goes in as text nodes.

use crate::components::charts::{chart_frame, chart_svg, footer, hit, reading, x_axis};
use crate::i18n::{t, tr};
use leptos::prelude::*;
use waitlab_core::chart::{LINE_PX, Scale};
use waitlab_core::experiments::JobMode;
use waitlab_core::experiments::pool_starvation::{PoolConfig, PoolRun};
use waitlab_core::key;
use waitlab_core::svg::Node;
use waitlab_core::text::Phrase;

/// Per-worker timelines (a Gantt chart) of each mode of experiment 2b: one
/// row per worker, one bar per job, the extra job highlighted.
#[component]
pub fn PoolGantt(
    /// The configuration that was run.
    config: PoolConfig,
    /// The runs, blocking first.
    runs: Vec<PoolRun>,
) -> impl IntoView {
    const LEFT: f64 = 90.0;
    const ROW: f64 = 16.0;
    const PANEL_GAP: f64 = 26.0;
    let end = runs
        .iter()
        .flat_map(|r| r.spans.iter().map(|s| s.end_ms))
        .fold(1.0, f64::max);
    let panel = ROW * f64::from(config.workers) + PANEL_GAP;
    let bottom = panel * runs.len() as f64 + 6.0;
    let batch = |mode: JobMode| runs.iter().find(|r| r.mode == mode).map(|r| r.batch_ms);
    let summary = match (batch(JobMode::Blocking), batch(JobMode::Async)) {
        (Some(blocking), Some(waiting)) => tr(&Phrase::new(key!("chart.pool.summary"))
            .ms("blocking", blocking)
            .ms("async", waiting)),
        _ => String::new(),
    };
    let workers: Vec<String> = (0..config.workers)
        .map(|w| tr(&Phrase::new(key!("chart.pool.worker")).count("n", w + 1)))
        .collect();
    // Each run's panel label, and each job's bar: its class (the extra
    // job's stands out), its start and end, its worker and its reading.
    type Job = (&'static str, f64, f64, u32, String);
    let panels: Vec<(String, Vec<Job>)> = runs
        .iter()
        .map(|run| {
            let jobs = run
                .spans
                .iter()
                .map(|s| {
                    let extra = s.job == config.jobs;
                    let text = tr(&Phrase::new(if extra {
                        key!("chart.pool.extra_job")
                    } else {
                        key!("chart.pool.job")
                    })
                    .count("job", s.job)
                    .ms("start", s.start_ms)
                    .ms("end", s.end_ms));
                    let class = if extra { "job extra" } else { "job" };
                    (class, s.start_ms, s.end_ms, s.worker, text)
                })
                .collect();
            (tr(&run.mode.label()), jobs)
        })
        .collect();
    let (axis, aria) = (t(key!("chart.pool.axis")), t(key!("chart.pool.aria")));
    chart_frame("pool", summary, move |width| {
        let x = Scale::linear_nice(0.0, end, LEFT, width - 12.0);
        let mut marks = x_axis(&x, 6.0, bottom, width);
        for (i, (label, jobs)) in panels.iter().enumerate() {
            let top = 14.0 + panel * i as f64;
            marks.push(Node::label(
                "panel-label",
                LEFT,
                top - 3.0,
                None,
                label.clone(),
            ));
            marks.extend(workers.iter().enumerate().map(|(w, name)| {
                Node::label(
                    "tick",
                    LEFT - 6.0,
                    top + ROW * w as f64 + ROW - 4.0,
                    Some("end"),
                    name.clone(),
                )
            }));
            marks.extend(
                jobs.iter()
                    .enumerate()
                    .map(|(j, (class, start, end, worker, text))| {
                        let (x0, x1) = (x.map(*start), x.map(*end));
                        let (y0, span) = (top + ROW * f64::from(*worker), (x1 - x0).max(1.5));
                        reading(
                            i == 0 && j == 0,
                            None,
                            text.clone(),
                            vec![
                                hit(x0, y0, span, ROW),
                                Node::rect(*class, x0, y0 + 2.0, span, ROW - 4.0),
                            ],
                        )
                    }),
            );
        }
        let (under, height) = footer(width, LEFT, bottom + 14.0 + LINE_PX, &[], &axis);
        marks.extend(under);
        chart_svg(width, height, aria.clone(), marks)
    })
}
