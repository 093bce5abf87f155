//! A trace drawn: one lane per thread (a row per overlapping span), the
//! spans of a time window as bars coloured by kind, animation frames as
//! ticks with the gaps where frames were missed, flows as lines from
//! sender to receiver, a time axis on top.
//!
//! Drawing is decimated, never the trace: neighbouring spans of one kind
//! in one row that are too narrow to see on their own (under 3 px) and
//! fall within a pixel of each other become one bar (its title says how
//! many), so a window holds at most a few bars per pixel column whatever
//! the trace's length; flows and frames likewise keep one per pixel.

use super::{Kind, Lane, Span, Trace};
use crate::chart::{Scale, fit};
use crate::svg::Node;
use crate::text::{Catalog, Phrase};

/// Width of the lanes' names, px, at most (a quarter of a narrow drawing,
/// and no less than 64).
pub const LABEL_WIDTH: f64 = 112.0;
/// Height of the time axis above the lanes, px.
pub const AXIS: f64 = 24.0;
/// Height of one row of spans, px.
pub const ROW: f64 = 12.0;
/// Space between lanes (the frames' ticks sit in it), px.
pub const GAP: f64 = 10.0;
/// The narrowest window, ms: 10 µs, two Chromium clock steps.
pub const MIN_WINDOW_MS: f64 = 0.01;

/// A time window, ms since the run began.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Window {
    /// Its start.
    pub start_ms: f64,
    /// Its end (> start).
    pub end_ms: f64,
}

impl Window {
    /// All of `trace`, with a margin of 1 % each side.
    pub fn whole(trace: &Trace) -> Window {
        let (lo, hi) = trace.extent();
        let pad = (hi - lo) * 0.01;
        Window {
            start_ms: lo - pad,
            end_ms: hi + pad,
        }
    }

    /// How long it is, ms.
    pub fn span_ms(self) -> f64 {
        self.end_ms - self.start_ms
    }

    /// The time at `fraction` of its width.
    pub fn at(self, fraction: f64) -> f64 {
        self.start_ms + self.span_ms() * fraction
    }

    /// Zoomed by `factor` (< 1 in, > 1 out) about `fraction` of its width,
    /// kept within `bounds` and no narrower than [`MIN_WINDOW_MS`].
    pub fn zoom(self, factor: f64, fraction: f64, bounds: Window) -> Window {
        let fraction = fraction.clamp(0.0, 1.0);
        let pivot = self.at(fraction);
        let span = (self.span_ms() * factor)
            .max(MIN_WINDOW_MS)
            .min(bounds.span_ms());
        Window {
            start_ms: pivot - span * fraction,
            end_ms: pivot + span * (1.0 - fraction),
        }
        .within(bounds)
    }

    /// Moved by `fraction` of its width (negative: earlier), within `bounds`.
    pub fn pan(self, fraction: f64, bounds: Window) -> Window {
        let by = self.span_ms() * fraction;
        Window {
            start_ms: self.start_ms + by,
            end_ms: self.end_ms + by,
        }
        .within(bounds)
    }

    fn within(self, bounds: Window) -> Window {
        let span = self.span_ms().min(bounds.span_ms());
        let start = self.start_ms.clamp(bounds.start_ms, bounds.end_ms - span);
        Window {
            start_ms: start,
            end_ms: start + span,
        }
    }
}

/// Where each lane sits: its top and rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// Per lane: its top, px, and its spans' rows.
    pub lanes: Vec<(f64, Vec<usize>)>,
    /// The drawing's width, px.
    pub width: f64,
    /// The width of the lanes' names, px: where the plot begins.
    pub label: f64,
    /// The drawing's height, px.
    pub height: f64,
}

impl Layout {
    /// `trace`'s lanes stacked in a drawing `width` px wide.
    pub fn of(trace: &Trace, width: f64) -> Layout {
        let mut top = AXIS + GAP;
        let lanes = trace
            .lanes
            .iter()
            .map(|l| {
                let rows = l.rows();
                let at = top;
                top += lane_rows(&rows) as f64 * ROW + GAP;
                (at, rows)
            })
            .collect();
        Layout {
            lanes,
            width: width.max(164.0),
            label: (width * 0.25).clamp(64.0, LABEL_WIDTH),
            height: top,
        }
    }

    fn scale(&self, window: Window) -> Scale {
        Scale::Linear {
            lo: window.start_ms,
            hi: window.end_ms,
            from: self.label,
            to: self.width - 8.0,
        }
    }

    /// The plot's width, px (the drawing's, less the names and a margin).
    pub fn plot_width(&self) -> f64 {
        (self.width - 8.0 - self.label).max(1.0)
    }

    /// The fraction of the plot's width at `x` px (for zooming about the
    /// pointer).
    pub fn fraction(&self, x: f64) -> f64 {
        ((x - self.label) / self.plot_width()).clamp(0.0, 1.0)
    }

    /// The span under `(x, y)` px in `window`, with its lane, if any (the
    /// nearest within 3 px, for a thin one).
    pub fn hit<'t>(
        &self,
        trace: &'t Trace,
        window: Window,
        x: f64,
        y: f64,
    ) -> Option<(usize, &'t Span)> {
        let (l, (top, rows)) = self
            .lanes
            .iter()
            .enumerate()
            .find(|(_, (top, rows))| y >= *top && y < top + lane_rows(rows) as f64 * ROW)?;
        let row = ((y - top) / ROW) as usize;
        let slack = 3.0 * window.span_ms() / self.plot_width();
        let t = window.at(self.fraction(x));
        trace.lanes[l]
            .spans
            .iter()
            .zip(rows)
            .filter(|(s, r)| **r == row && s.start_ms - slack <= t && s.end_ms + slack >= t)
            .min_by(|(a, _), (b, _)| distance(a, t).total_cmp(&distance(b, t)))
            .map(|(s, _)| (l, s))
    }
}

fn lane_rows(rows: &[usize]) -> usize {
    rows.iter().max().map_or(1, |m| m + 1)
}

fn distance(s: &Span, t: f64) -> f64 {
    if t < s.start_ms {
        s.start_ms - t
    } else {
        (t - s.end_ms).max(0.0)
    }
}

/// The span of `lane` nearest to `t` (ms), if it has any: the keyboard's
/// cursor reads it out.
pub fn nearest(lane: &Lane, t: f64) -> Option<&Span> {
    // Spans are by start: those that began last before `t`, and the first
    // after it, hold the nearest (spans a lane overlaps are few).
    let i = lane.spans.partition_point(|s| s.start_ms <= t);
    lane.spans[i.saturating_sub(64)..(i + 1).min(lane.spans.len())]
        .iter()
        .min_by(|a, b| distance(a, t).total_cmp(&distance(b, t)))
}

/// The gaps between frames longer than 2.5 times their median interval
/// (frames the page missed), `(from, to)` ms.
pub fn frame_gaps(frames: &[f64]) -> Vec<(f64, f64)> {
    let mut intervals: Vec<f64> = frames.windows(2).map(|w| w[1] - w[0]).collect();
    if intervals.is_empty() {
        return Vec::new();
    }
    intervals.sort_by(f64::total_cmp);
    let median = intervals[intervals.len() / 2];
    frames
        .windows(2)
        .filter(|w| w[1] - w[0] > 2.5 * median)
        .map(|w| (w[0], w[1]))
        .collect()
}

/// What one span of `lane` in `trace` was, as a sentence: where, what,
/// how long (and what ran in it, for a long animation frame).
pub fn describe(trace: &Trace, lane: &Lane, span: &Span, catalog: &Catalog) -> String {
    let said = catalog.render(
        &Phrase::new(crate::key!("timeline.readout"))
            .data("thread", lane.name(catalog))
            .data("what", span.name.render(catalog))
            .phrase("kind", span.kind.label())
            .ms("start", span.start_ms)
            .ms("ms", span.duration_ms()),
    );
    match trace.note(span) {
        Some(note) => format!("{said} ({note})"),
        None => said,
    }
}

/// A bar being merged: its kind, pixel extent and how many spans.
struct Bar {
    kind: Kind,
    x0: f64,
    x1: f64,
    count: usize,
    first: Span,
}

/// The drawing of `trace` in `window` on `layout`, its words in
/// `catalog`'s language, and how many marks it holds.
pub fn draw(trace: &Trace, layout: &Layout, window: Window, catalog: &Catalog) -> (Node, usize) {
    let scale = layout.scale(window);
    let (left, right) = (layout.label, layout.width - 8.0);
    let x = |t: f64| scale.map(t).clamp(left, right);
    let mut marks = 0;
    let mut svg = Node::new("svg")
        .class("chart tl-chart")
        .attr(
            "viewBox",
            format!(
                "0 0 {} {}",
                crate::svg::coord(layout.width),
                crate::svg::coord(layout.height)
            ),
        )
        // The view says it in words (its read-out and table): the drawing
        // is for the eye (its bars' titles for the pointer).
        .attr("aria-hidden", "true");
    // The axis.
    let mut axis = Node::new("g").class("tl-axis");
    for tick in scale.ticks() {
        if tick.pos < left - 0.5 || tick.pos > right + 0.5 {
            continue;
        }
        axis = axis
            .child(Node::line(
                "grid",
                tick.pos,
                AXIS - 4.0,
                tick.pos,
                layout.height,
            ))
            .child(Node::label(
                "tick",
                tick.pos,
                AXIS - 8.0,
                // The last label ends at its tick, inside the drawing.
                Some(if tick.pos > right - 30.0 {
                    "end"
                } else {
                    "middle"
                }),
                catalog.number(&tick.label),
            ));
    }
    svg = svg.child(axis.child(Node::label(
        "tick",
        4.0,
        AXIS - 8.0,
        None,
        catalog.text(crate::key!("timeline.axis")),
    )));
    for ((top, rows), lane) in layout.lanes.iter().zip(&trace.lanes) {
        let height = lane_rows(rows) as f64 * ROW;
        let name = lane.name(catalog);
        let mut g = Node::new("g").class("tl-lane").child(Node::rect(
            "tl-band",
            left,
            *top,
            right - left,
            height,
        ));
        g = g.child(Node::label(
            "tl-name",
            4.0,
            top + height / 2.0 + 4.0,
            None,
            fit(&name, layout.label - 8.0),
        ));
        let (bars, n) = lane_bars(trace, lane, rows, window, &x, *top, catalog);
        marks += n;
        g = g.children(bars);
        let (frames, n) = frame_marks(&lane.frames, window, &x, *top);
        marks += n;
        svg = svg.child(g.children(frames));
    }
    let (flows, n) = flow_lines(trace, layout, window, &x);
    marks += n;
    (
        svg.child(Node::new("g").class("tl-flows").children(flows)),
        marks,
    )
}

/// One lane's bars, decimated.
fn lane_bars(
    trace: &Trace,
    lane: &Lane,
    rows: &[usize],
    window: Window,
    x: &dyn Fn(f64) -> f64,
    top: f64,
    catalog: &Catalog,
) -> (Vec<Node>, usize) {
    // One bar open per row and kind: kinds that alternate faster than a
    // pixel each stay one bar per pixel run.
    let mut open: Vec<[Option<Bar>; 7]> =
        (0..lane_rows(rows)).map(|_| Default::default()).collect();
    let mut out = Vec::new();
    let emit = |bar: Bar, row: usize, out: &mut Vec<Node>| {
        let title = if bar.count == 1 {
            describe(trace, lane, &bar.first, catalog)
        } else {
            catalog.render(
                &Phrase::new(crate::key!("timeline.merged"))
                    .count("count", bar.count as u64)
                    .phrase("kind", bar.kind.label()),
            )
        };
        let y = top + row as f64 * ROW + 1.0;
        // A bar wide enough keeps a pixel's gap before the next one.
        let width = bar.x1 - bar.x0;
        let width = if width >= 4.0 {
            width - 1.0
        } else {
            width.max(1.0)
        };
        out.push(
            Node::rect(format!("tl-{}", bar.kind.id()), bar.x0, y, width, ROW - 2.0)
                .child(Node::new("title").text(title)),
        );
    };
    for (s, &row) in lane.spans.iter().zip(rows) {
        if s.end_ms < window.start_ms || s.start_ms > window.end_ms {
            continue;
        }
        let (x0, x1) = (x(s.start_ms), x(s.end_ms));
        match &mut open[row][s.kind.index()] {
            // Only what is too narrow to see on its own merges.
            Some(bar) if x0 <= bar.x1 + 1.0 && (x1 - x0 < 3.0 || bar.x1 - bar.x0 < 3.0) => {
                bar.x1 = bar.x1.max(x1);
                bar.count += 1;
            }
            slot => {
                if let Some(done) = slot.take() {
                    emit(done, row, &mut out);
                }
                *slot = Some(Bar {
                    kind: s.kind,
                    x0,
                    x1,
                    count: 1,
                    first: *s,
                });
            }
        }
    }
    for (row, bars) in open.into_iter().enumerate() {
        for bar in bars.into_iter().flatten() {
            emit(bar, row, &mut out);
        }
    }
    let n = out.len();
    (out, n)
}

/// A lane's frames: a tick per frame (one per pixel), a band over each
/// gap where frames were missed.
fn frame_marks(
    frames: &[f64],
    window: Window,
    x: &dyn Fn(f64) -> f64,
    top: f64,
) -> (Vec<Node>, usize) {
    let mut out: Vec<Node> = frame_gaps(frames)
        .into_iter()
        .filter(|&(a, b)| b >= window.start_ms && a <= window.end_ms)
        .map(|(a, b)| {
            Node::rect(
                "tl-gap",
                x(a),
                top - GAP + 2.0,
                (x(b) - x(a)).max(1.0),
                GAP - 4.0,
            )
        })
        .collect();
    let mut last = f64::NEG_INFINITY;
    for &t in frames {
        if t < window.start_ms || t > window.end_ms {
            continue;
        }
        let px = x(t);
        if px - last >= 1.0 {
            out.push(Node::line("tl-frame", px, top - GAP + 2.0, px, top - 2.0));
            last = px;
        }
    }
    let n = out.len();
    (out, n)
}

/// The flows in `window`, one per pixel of their receiving end.
fn flow_lines(
    trace: &Trace,
    layout: &Layout,
    window: Window,
    x: &dyn Fn(f64) -> f64,
) -> (Vec<Node>, usize) {
    let centre = |lane: usize| {
        layout
            .lanes
            .get(lane)
            .map_or(0.0, |(top, _)| top + ROW / 2.0)
    };
    let mut out = Vec::new();
    let mut last: Vec<f64> = vec![f64::NEG_INFINITY; trace.lanes.len()];
    for f in &trace.flows {
        if f.seen_ms < window.start_ms || f.sent_ms > window.end_ms {
            continue;
        }
        let (x0, x1) = (x(f.sent_ms), x(f.seen_ms));
        if let Some(l) = last.get_mut(f.to) {
            if x1 - *l < 1.0 {
                continue;
            }
            *l = x1;
        }
        out.push(Node::line("tl-flow", x0, centre(f.from), x1, centre(f.to)));
    }
    let n = out.len();
    (out, n)
}
