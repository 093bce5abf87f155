//! Experiment 1's charts: one cell's histogram, and the nested-timer chain. Drawn from
//! waitlab-core's chart geometry; all text goes in as text nodes.

use crate::components::charts::{
    chart_frame, chart_svg, column_hit, footer, hit, reading, x_axis, y_axis,
};
use crate::i18n::{ms, t, tr};
use leptos::prelude::*;
use waitlab_core::chart::{LABEL_PX, Plot, Scale, histogram_bars, text_width};
use waitlab_core::experiments::timed_waits::{CellKey, NestedChain};
use waitlab_core::key;
use waitlab_core::outcome::Outcome;
use waitlab_core::stats::Samples;
use waitlab_core::svg::Node;
use waitlab_core::text::Phrase;

/// Histogram of one cell's samples with its requested wait, p50 and p99,
/// on a linear axis or (`log`) one of decades, whose bins are even in
/// `log10` and whose floor is `floor_ms` (the clock's step: a sample under
/// it cannot be told from it).
#[component]
pub fn HistogramChart(
    /// The cell.
    key: CellKey,
    /// Its samples, ms.
    samples: Samples,
    /// Whether the axis is logarithmic.
    log: bool,
    /// The log axis's floor, ms.
    floor_ms: f64,
) -> impl IntoView {
    const PLOT: Plot = Plot::new(44.0, 190.0);
    let bins = if log {
        samples.log_histogram(40, floor_ms)
    } else {
        samples.histogram(40)
    };
    // The requested wait is drawn only when it fits beside the samples
    // without squeezing them into a sliver (a clamped 1 ms timer lands at 4;
    // on the log axis, only a wait above the floor).
    let spread = (samples.max() - samples.min()).max(0.05);
    let requested = key.requested_ms.map(f64::from).filter(|&d| {
        d <= samples.max()
            && if log {
                d >= floor_ms.max(samples.min() / 10.0)
            } else {
                d >= samples.min() - spread
            }
    });
    let lo = samples.min().min(requested.unwrap_or(f64::INFINITY));
    let tallest = bins.iter().map(|b| b.count).max().unwrap_or(1);
    let bar_texts: Vec<String> = bins
        .iter()
        .map(|b| {
            tr(&Phrase::new(key!("chart.histogram.bar"))
                .ms("lo", b.lo)
                .ms("hi", b.hi)
                .count("count", b.count as u64))
        })
        .collect();
    let p50 = samples.quantile(0.5);
    let p99 = samples.quantile(0.99);
    let summary = tr(&Phrase::new(key!("chart.histogram.summary"))
        .ms("min", samples.min())
        .ms("q1", samples.quantile(0.25))
        .ms("q3", samples.quantile(0.75))
        .ms("p50", p50)
        .ms("p99", p99)
        .ms("max", samples.max()));
    let asked = requested.map(|d| {
        (
            d,
            tr(&Phrase::new(key!("chart.histogram.asked")).ms("ms", d)),
        )
    });
    let (p50_text, p99_text) = (format!("p50 {}", ms(p50)), format!("p99 {}", ms(p99)));
    let mut axis = tr(&match key.requested_ms {
        Some(d) if requested.is_none() => Phrase::new(key!("chart.histogram.axis_off"))
            .phrase("what", key.label())
            .count("count", samples.len() as u64)
            .count("d", d),
        _ => Phrase::new(key!("chart.histogram.axis"))
            .phrase("what", key.label())
            .count("count", samples.len() as u64),
    });
    if log {
        axis = format!("{axis} · {}", t(key!("chart.log_axis")));
    }
    let aria = tr(&Phrase::new(key!("chart.histogram.aria")).phrase("what", key.label()));
    let max = samples.max();
    chart_frame("histogram", summary, move |width| {
        let x = if log {
            Scale::log_decades(lo, max, floor_ms, PLOT.left, width - 12.0)
        } else {
            Scale::linear_nice(lo, max, PLOT.left, width - 12.0)
        };
        let y = Scale::linear_nice(0.0, f64::from(tallest), PLOT.bottom, PLOT.top);
        let mut marks = x_axis(&x, PLOT.top, PLOT.bottom, width);
        marks.extend(
            histogram_bars(&bins, &x, &y)
                .into_iter()
                .zip(&bar_texts)
                .enumerate()
                .map(|(i, (r, text))| {
                    reading(
                        i == 0,
                        None,
                        text.clone(),
                        vec![
                            hit(r.x, PLOT.top, r.width, PLOT.bottom - PLOT.top),
                            Node::rect("bar", r.x, r.y, r.width, r.height),
                        ],
                    )
                }),
        );
        // A label goes right of its line, or left of it where `before`
        // asks and there is room (the requested wait's, as samples lie
        // after it) or where it would run off the chart.
        let marker = |class: &'static str, value: f64, label_y: f64, text: &str, before: bool| {
            let px = x.map(value);
            let room = text_width(text, LABEL_PX) + 3.0;
            let (lx, anchor) = if (before || px + room > width - 2.0) && px - PLOT.left > room {
                (px - 3.0, "end")
            } else {
                (px + 3.0, "start")
            };
            [
                Node::line(class, px, PLOT.top, px, PLOT.bottom),
                Node::label(
                    format!("{class}-label"),
                    lx,
                    label_y,
                    Some(anchor),
                    text.to_owned(),
                ),
            ]
        };
        if let Some((d, asked)) = &asked {
            marks.extend(marker("requested", *d, PLOT.bottom - 6.0, asked, true));
        }
        marks.extend(marker("p50", p50, PLOT.top + 10.0, &p50_text, false));
        marks.extend(marker("p99", p99, PLOT.top + 23.0, &p99_text, false));
        let (under, height) = footer(width, PLOT.left, PLOT.footer_top(), &[], &axis);
        marks.extend(under);
        chart_svg(width, height, aria.clone(), marks)
    })
}

/// The nested `setTimeout(0)` chain: median delay per nesting level, the
/// 4 ms clamp line, and where the clamp starts.
#[component]
pub fn ChainChart(
    /// The chain.
    chain: NestedChain,
    /// One clock step, ms.
    tolerance_ms: f64,
) -> impl IntoView {
    const PLOT: Plot = Plot::new(44.0, 170.0);
    let n = chain.levels.len().max(1) as f64;
    let hi = chain
        .levels
        .iter()
        .map(|s| s.p90)
        .fold(NestedChain::CLAMP_MS + 1.0, f64::max);
    let onset = chain.clamp_onset(tolerance_ms);
    let bar_texts: Vec<String> = chain
        .levels
        .iter()
        .enumerate()
        .map(|(i, s)| {
            tr(&Phrase::new(key!("chart.chain.bar"))
                .count("level", i as u32 + 1)
                .ms("p50", s.p50)
                .ms("p90", s.p90))
        })
        .collect();
    let axis = tr(&match onset {
        Some(level) => Phrase::new(key!("chart.chain.axis_clamped")).count("level", level),
        None => Phrase::new(key!("chart.chain.axis")),
    });
    let summary = match (chain.levels.first(), chain.levels.last()) {
        (Some(first), Some(last)) => tr(&Phrase::new(key!("chart.chain.summary"))
            .ms("first", first.p50)
            .count("levels", chain.levels.len() as u64)
            .ms("last", last.p50)),
        _ => String::new(),
    };
    let (clamp, aria) = (t(key!("chart.chain.clamp")), t(key!("chart.chain.aria")));
    chart_frame("chain", summary, move |width| {
        let y = Scale::linear_nice(0.0, hi, PLOT.bottom, PLOT.top);
        let slot = (width - 12.0 - PLOT.left) / n;
        let mut marks = y_axis(&y, PLOT.left, width - 12.0);
        marks.extend(
            chain
                .levels
                .iter()
                .zip(&bar_texts)
                .enumerate()
                .map(|(i, (s, text))| {
                    let level = i as u32 + 1;
                    let x0 = PLOT.left + slot * i as f64 + slot * 0.15;
                    let clamped = onset.is_some_and(|o| level >= o);
                    let (top, whisker) = (y.map(s.p50), y.map(s.p90));
                    let middle = x0 + slot * 0.35;
                    reading(
                        i == 0,
                        None,
                        text.clone(),
                        vec![
                            column_hit(PLOT, i, slot),
                            Node::rect(
                                if clamped { "bar clamped" } else { "bar" },
                                x0,
                                top,
                                slot * 0.7,
                                PLOT.bottom - top,
                            ),
                            Node::line("whisker", middle, top, middle, whisker),
                            Node::label(
                                "tick",
                                middle,
                                PLOT.bottom + 14.0,
                                Some("middle"),
                                level.to_string(),
                            ),
                        ],
                    )
                }),
        );
        let clamp_y = y.map(NestedChain::CLAMP_MS);
        marks.push(Node::line(
            "clamp",
            PLOT.left,
            clamp_y,
            width - 12.0,
            clamp_y,
        ));
        marks.push(Node::label(
            "clamp-label",
            width - 14.0,
            clamp_y - 4.0,
            Some("end"),
            clamp.clone(),
        ));
        let (under, height) = footer(width, PLOT.left, PLOT.footer_top(), &[], &axis);
        marks.extend(under);
        chart_svg(width, height, aria.clone(), marks)
    })
}

/// The samples of a measured outcome, if it kept them.
pub fn samples_of(outcome: &Outcome) -> Option<Samples> {
    Samples::new(outcome.samples()?.to_vec()).ok()
}
