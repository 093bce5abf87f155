//! Experiment 3's chart: the cost of each step of the spin ladder. Drawn from
//! waitlab-core's chart geometry; all text goes in as text nodes.

use crate::components::charts::{
    LegendEntry, chart_frame, chart_svg, column_hit, footer, reading, y_axis,
};
use crate::i18n::{t, tr};
use leptos::prelude::*;
use waitlab_core::chart::{Plot, Scale};
use waitlab_core::experiments::spin_ladder::StepCost;
use waitlab_core::key;
use waitlab_core::svg::Node;
use waitlab_core::text::Phrase;

/// The cost of each `SpinOnce` step, log scale, coloured by phase.
#[component]
pub fn LadderChart(
    /// The measured steps.
    steps: Vec<StepCost>,
) -> impl IntoView {
    const PLOT: Plot = Plot::new(52.0, 186.0);
    let lo = steps.iter().map(|s| s.p50_ms).fold(f64::INFINITY, f64::min);
    let hi = steps.iter().map(|s| s.p50_ms).fold(0.0, f64::max);
    let texts: Vec<String> = steps
        .iter()
        .map(|s| {
            tr(&Phrase::new(key!("chart.ladder.bar"))
                .count("step", s.count)
                .phrase("phase", s.step.phase_label())
                .ms("p50", s.p50_ms)
                .ms("max", s.max_ms))
        })
        .collect();
    let legend = [
        LegendEntry::text("phase-spin", format!("■ {}", t(key!("phase.spin")))),
        LegendEntry::text("phase-yield", format!("■ {}", t(key!("phase.yield")))),
        LegendEntry::text("phase-sleep", format!("■ {}", t(key!("phase.sleep")))),
    ];
    let summary = tr(&Phrase::new(key!("chart.ladder.summary"))
        .count("steps", steps.len() as u64)
        .ms("lo", lo)
        .ms("hi", hi));
    let (axis, aria) = (t(key!("chart.ladder.axis")), t(key!("chart.ladder.aria")));
    chart_frame("ladder", summary, move |width| {
        let y = Scale::log_decades(lo, hi, 0.0001, PLOT.bottom, PLOT.top);
        let slot = (width - 12.0 - PLOT.left) / steps.len().max(1) as f64;
        let mut marks = y_axis(&y, PLOT.left, width - 12.0);
        marks.extend(steps.iter().zip(&texts).enumerate().map(|(i, (s, text))| {
            let x0 = PLOT.left + slot * i as f64 + slot * 0.15;
            let top = y.map(s.p50_ms);
            let mut shapes = vec![
                column_hit(PLOT, i, slot),
                Node::rect(
                    format!("bar phase-{}", s.step.phase()),
                    x0,
                    top,
                    slot * 0.7,
                    (PLOT.bottom - top).max(1.0),
                ),
            ];
            if s.count % 5 == 0 {
                shapes.push(Node::label(
                    "tick",
                    x0 + slot * 0.35,
                    PLOT.bottom + 14.0,
                    Some("middle"),
                    s.count.to_string(),
                ));
            }
            reading(i == 0, None, text.clone(), shapes)
        }));
        let (under, height) = footer(width, PLOT.left, PLOT.footer_top(), &legend, &axis);
        marks.extend(under);
        chart_svg(width, height, aria.clone(), marks)
    })
}
