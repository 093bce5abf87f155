//! SVG charts drawn client-side from waitlab-core's chart geometry: an
//! overview of every cell, one cell's histogram, and the nested-timer chain.
//! All text goes in as text nodes, never as markup.

use crate::i18n::{ms, num, t, tr};
use leptos::prelude::*;
use waitlab_browser::{chart_file, page};
use waitlab_core::chart::{
    LABEL_PX, LINE_PX, LabelSpot, RowLayout, Scale, drawn_width, fit, histogram_bars, legend_rows,
    text_width, wrap,
};
use waitlab_core::experiments::Experiment;
use waitlab_core::experiments::Tried;
use waitlab_core::experiments::concurrency_limit::ConcurrencyLimit;
use waitlab_core::experiments::main_starvation::{JobMode, MainRun};
use waitlab_core::experiments::periodic_work::{PeriodicWork, Schedule};
use waitlab_core::experiments::pool_starvation::{PoolConfig, PoolRun};
use waitlab_core::experiments::spin_ladder::StepCost;
use waitlab_core::experiments::timed_waits::CellKey;
use waitlab_core::experiments::timed_waits::NestedChain;
use waitlab_core::export;
use waitlab_core::key;
use waitlab_core::outcome::Outcome;
use waitlab_core::schema::Report;
use waitlab_core::stats::{Samples, Summary};
use waitlab_core::svg::{Node, coord};
use waitlab_core::text::Phrase;

/// What a chart's downloads are named after: the experiment and the run
/// it shows. Provided around each experiment's results (as `None` in an
/// embed, whose charts offer no downloads).
#[derive(Clone, Copy)]
pub struct ChartSource {
    /// The experiment.
    pub experiment: Experiment,
    /// The run shown.
    pub report: RwSignal<Option<Report>>,
}

/// A chart (`chart` names it in file names, such as `histogram`) drawn by
/// `draw` at its box's width, with its one-sentence `summary` (the
/// figure's caption, for screen readers: the chart itself shows it to the
/// eye) and its downloads: the SVG as drawn, in the reader's colours, and a
/// PNG of it at twice its size. The drawing is built by
/// `waitlab_browser::svg`, first in the frame, and drawn again when its
/// box's width changes: one unit of it is one CSS pixel, so its text keeps
/// its size on a phone.
pub fn chart_frame(
    chart: &'static str,
    summary: String,
    draw: impl Fn(f64) -> Node + 'static,
) -> AnyView {
    let source = use_context::<Option<ChartSource>>().flatten();
    let frame = NodeRef::<leptos::html::Figure>::new();
    let failed = RwSignal::new(None::<String>);
    let layout = layout_changes();
    // Drawn again once first laid out: the frame may have no width yet
    // when first drawn (a view mounted later, a closed `<details>`).
    let laid_out = RwSignal::new(false);
    let watch = StoredValue::new_local(None::<page::FirstLayout>);
    Effect::new(move |_| {
        if let Some(el) = frame.get() {
            watch.set_value(Some(page::FirstLayout::new(&el, move || {
                laid_out.set(true)
            })));
        }
    });
    Effect::new(move |drawn: Option<f64>| {
        layout.track();
        laid_out.track();
        let Some(el) = frame.get() else {
            return drawn.unwrap_or(0.0);
        };
        let width = drawn_width(f64::from(el.client_width()));
        if drawn != Some(width)
            && let Err(why) = waitlab_browser::svg::draw_first(&el, &draw(width))
        {
            failed.set(Some(why));
        }
        width
    });
    let save = move |extension: &'static str| {
        let (Some(source), Some(frame)) = (source, frame.get_untracked()) else {
            return;
        };
        if let Some(name) = source.report.with_untracked(|r| {
            r.as_ref()
                .map(|r| export::chart_file_name(r, source.experiment, chart, extension))
        }) {
            leptos::task::spawn_local(async move {
                failed.set(save_chart(&frame, &name, extension).await.err());
            });
        }
    };
    // The reading under the pointer or the keyboard's focus, in words (one
    // listener for every mark of the chart).
    let readout = RwSignal::new(String::new());
    let read = move |e: &web_sys::Event| {
        if let Some(label) = page::closest_attribute(e, READING, "aria-label") {
            readout.set(label);
        }
    };
    view! {
        <figure class="chart-frame" data-chart=chart node_ref=frame
            on:focusin=move |e| read(&e) on:mouseover=move |e| read(&e)
            on:keydown=move |e| if page::rove_focus(&e, READING) { e.prevent_default() }>
            <p class="readout" data-testid="readout" aria-hidden="true">{move || readout.get()}</p>
            <figcaption class="visually-hidden" data-testid="chart-summary">{summary}</figcaption>
            // Offered once there is a run to name the files after.
            {move || source.filter(|s| s.report.with(Option::is_some)).map(|_| view! {
                <div class="chart-downloads">
                    {[("svg", "SVG", key!("chart.save_svg")), ("png", "PNG", key!("chart.save_png"))].map(|(extension, label, says)| {
                        let says = t(says);
                        view! {
                            <button type="button" data-testid=format!("save-{chart}-{extension}") title=says.clone() aria-label=says
                                on:click=move |_| save(extension)>{label}</button>
                        }
                    }).collect_view()}
                </div>
            })}
            {move || failed.get().map(|why| view! { <p class="error" role="alert">{why}</p> })}
        </figure>
    }
    .into_any()
}

/// What marks a [`reading`] (the frame finds them by it).
const READING: &str = "g.reading";

/// A chart's mark (or marks) that tells its figures: `text` is shown under
/// the chart on hover and keyboard focus, is the mark's tooltip and is what
/// a screen reader says of it. Only the `first` of a chart's readings is in
/// the Tab order; the arrow keys move between them (the frame does that).
/// The marks include the area that answers the pointer ([`hit`]).
pub(crate) fn reading(first: bool, testid: Option<String>, text: String, marks: Vec<Node>) -> Node {
    Node::new("g")
        .class("reading")
        .attr_if("data-testid", testid)
        .attr("tabindex", if first { "0" } else { "-1" })
        .attr("role", "img")
        .attr("aria-label", text.clone())
        .child(Node::new("title").text(text))
        .children(marks)
}

/// A [`reading`]'s area that answers the pointer, drawn on focus.
pub(crate) fn hit(x: f64, y: f64, width: f64, height: f64) -> Node {
    Node::rect("hit", x, y, width, height)
}

/// A line through `points` (pixels) that tells its figures as a
/// [`reading`]: the line drawn with `class`, and a wide invisible one
/// under it that answers the pointer.
pub(crate) fn line_reading(
    first: bool,
    testid: String,
    text: String,
    class: String,
    points: impl Iterator<Item = (f64, f64)>,
) -> Node {
    let points = points
        .map(|(x, y)| format!("{},{}", coord(x), coord(y)))
        .collect::<Vec<_>>()
        .join(" ");
    reading(
        first,
        Some(testid),
        text,
        vec![
            Node::new("polyline")
                .class("hit")
                .attr("points", points.clone()),
            Node::new("polyline").class(class).attr("points", points),
        ],
    )
}

/// Offers the chart in `frame` as `name`, an SVG or (`extension` png) a PNG.
async fn save_chart(frame: &web_sys::Element, name: &str, extension: &str) -> Result<(), String> {
    let file = chart_file::svg_of(frame)?;
    if extension == "svg" {
        page::download(name, "image/svg+xml", &file.markup)
    } else {
        page::download_blob(name, &chart_file::png_of(&file, 2.0).await?)
    }
}

/// A count that moves whenever a chart's box may have changed width (the
/// window resized, a `<details>` opened or closed): every chart frame
/// tracks it and draws itself again at its new width.
pub(crate) fn layout_changes() -> ArcRwSignal<u32> {
    thread_local! {
        // Reference-counted, not owned by the chart that first asks (which
        // would take it along when it goes).
        static CHANGES: ArcRwSignal<u32> = {
            let changes = ArcRwSignal::new(0u32);
            let bump = changes.clone();
            page::on_layout_change(move || bump.update(|n| *n = n.wrapping_add(1)));
            changes
        };
    }
    CHANGES.with(Clone::clone)
}

/// A chart's `svg` element, `width` × `height` units (a unit a CSS pixel
/// as drawn), named `aria` for screen readers, holding `children`.
pub(crate) fn chart_svg(width: f64, height: f64, aria: String, children: Vec<Node>) -> Node {
    Node::new("svg")
        .class("chart")
        .attr("viewBox", format!("0 0 {} {}", coord(width), coord(height)))
        .attr("role", "group")
        .attr("aria-label", aria)
        .children(children)
}

/// A row's label where `spot` says, cut short to its room (the row's
/// reading tells it whole).
pub(crate) fn row_label(spot: LabelSpot, text: &str) -> Node {
    Node::label(
        "row-label",
        spot.x,
        spot.y,
        spot.end.then_some("end"),
        fit(text, spot.room),
    )
}

/// One entry of a chart's legend: a symbol drawn by `symbol` at its `(x,
/// baseline)` (or none: the text says it, as "— blocking" in its line's
/// colour), then its text, set with `class`.
pub(crate) struct LegendEntry {
    /// Draws the symbol, `SYMBOL` wide.
    pub symbol: Option<Box<dyn Fn(f64, f64) -> Node>>,
    /// The text's class.
    pub class: String,
    /// The text.
    pub text: String,
}

impl LegendEntry {
    /// An entry that is text alone, coloured by `class`.
    pub fn text(class: &str, text: String) -> Self {
        Self {
            symbol: None,
            class: format!("legend {class}"),
            text,
        }
    }
}

/// The width of a legend entry's symbol and the gap after it.
const SYMBOL: f64 = 14.0;

/// What goes under a chart's plot, from the baseline `y` on: the legend's
/// entries from `left`, wrapping at the chart's right edge, then the axis
/// caption, right-aligned: on the legend's last line where it fits beside
/// it, else wrapped on lines of its own. The nodes, and the chart's height
/// below them.
pub(crate) fn footer(
    width: f64,
    left: f64,
    y: f64,
    legend: &[LegendEntry],
    caption: &str,
) -> (Vec<Node>, f64) {
    let labels: Vec<&str> = legend.iter().map(|e| e.text.as_str()).collect();
    // Laid out as if every entry had a symbol when any has: none runs into
    // the next.
    let mark = if legend.iter().any(|e| e.symbol.is_some()) {
        SYMBOL
    } else {
        0.0
    };
    let mut nodes = Vec::new();
    // The next free line, and how far the last one is taken.
    let (mut line, mut taken) = (0usize, f64::INFINITY);
    for (entry, spot) in legend
        .iter()
        .zip(legend_rows(left, width - 12.0, &labels, mark, 14.0))
    {
        let baseline = y + LINE_PX * spot.line as f64;
        if let Some(symbol) = &entry.symbol {
            nodes.push(symbol(spot.x + 5.0, baseline - 4.0));
        }
        for (i, text) in spot.lines.iter().enumerate() {
            nodes.push(Node::label(
                entry.class.clone(),
                spot.x + mark,
                baseline + LINE_PX * i as f64,
                None,
                text.clone(),
            ));
        }
        line = spot.line + spot.lines.len().max(1);
        let widest = spot
            .lines
            .iter()
            .map(|l| text_width(l, LABEL_PX))
            .fold(0.0, f64::max);
        taken = spot.x + mark + widest;
    }
    let lines = wrap(caption, width - 24.0);
    // On the legend's last line, right of its entries, when it fits.
    let beside = line > 0
        && lines.len() == 1
        && taken + 18.0 + text_width(&lines[0], LABEL_PX) <= width - 12.0;
    if beside {
        line -= 1;
    }
    for text in lines {
        nodes.push(Node::label(
            "axis-label",
            width - 12.0,
            y + LINE_PX * line as f64,
            Some("end"),
            text,
        ));
        line += 1;
    }
    (nodes, y + LINE_PX * line.saturating_sub(1) as f64 + 6.0)
}

/// Vertical grid lines and labels of an x axis, in a chart `width` wide.
pub fn x_axis(scale: &Scale, top: f64, bottom: f64, width: f64) -> Vec<Node> {
    x_axis_at(scale.ticks(), top, bottom, width)
}

/// Vertical grid lines and labels of an x axis at `ticks`.
fn x_axis_at(
    ticks: Vec<waitlab_core::chart::Tick>,
    top: f64,
    bottom: f64,
    width: f64,
) -> Vec<Node> {
    ticks
        .into_iter()
        .flat_map(|t| {
            // A label centred on the first or last tick could run off the
            // chart.
            let label = num(&t.label);
            let half = text_width(&label, LABEL_PX) / 2.0;
            let centre = t.pos.min(width - 2.0 - half).max(2.0 + half);
            [
                Node::line("grid", t.pos, top, t.pos, bottom),
                Node::label("tick", centre, bottom + 14.0, Some("middle"), label),
            ]
        })
        .collect()
}

/// One row of an [`OverviewChart`].
#[derive(Debug, Clone, PartialEq)]
pub struct OverviewRow {
    /// Stable id for `data-testid`.
    pub id: String,
    /// Row label.
    pub label: String,
    /// The requested wait, drawn as a notch, if any.
    pub requested_ms: Option<f64>,
    /// The statistics.
    pub summary: Summary,
}

impl OverviewRow {
    /// The row of a timed-waits cell.
    pub fn of_cell(key: CellKey, summary: Summary) -> Self {
        Self {
            id: key.id(),
            label: tr(&key.label()),
            requested_ms: key.requested_ms.map(f64::from),
            summary,
        }
    }

    /// The row of a way of waiting an experiment tried, if it was
    /// measured.
    pub fn of_tried(tried: &Tried<'_>) -> Option<Self> {
        tried.outcome.summary().map(|s| Self {
            id: tried.id.to_owned(),
            label: tr(&tried.label),
            requested_ms: None,
            summary: *s,
        })
    }
}

/// Horizontal grid lines and labels of a y axis spanning `left..right`.
fn y_axis(scale: &Scale, left: f64, right: f64) -> Vec<Node> {
    scale
        .ticks()
        .into_iter()
        .flat_map(|t| {
            [
                Node::line("grid", left, t.pos, right, t.pos),
                Node::label("tick", left - 6.0, t.pos + 4.0, Some("end"), num(&t.label)),
            ]
        })
        .collect()
}

/// Overview: for each measured row a line from min to max, a bar from p50
/// to p99 and a dot at p50, on a log axis; a requested wait is a notch.
#[component]
pub fn OverviewChart(
    /// Measured rows, in display order.
    rows: Vec<OverviewRow>,
) -> impl IntoView {
    const ROW: f64 = 20.0;
    const TOP: f64 = 8.0;
    let lo = rows
        .iter()
        .map(|r| r.summary.min)
        .fold(f64::INFINITY, f64::min);
    let hi = rows.iter().map(|r| r.summary.max).fold(0.0, f64::max);
    // The one-sentence summary a screen reader gives (the figure's caption).
    let by_p50 = |a: &&OverviewRow, b: &&OverviewRow| a.summary.p50.total_cmp(&b.summary.p50);
    let summary = match (rows.iter().min_by(by_p50), rows.iter().max_by(by_p50)) {
        (Some(lo), Some(hi)) => tr(&Phrase::new(key!("chart.overview.summary"))
            .ms("lo", lo.summary.p50)
            .data("lo_what", lo.label.clone())
            .ms("hi", hi.summary.p50)
            .data("hi_what", hi.label.clone())),
        _ => String::new(),
    };
    let readings: Vec<String> = rows
        .iter()
        .map(|row| {
            tr(&Phrase::new(key!("chart.overview.row"))
                .data("what", row.label.clone())
                .ms("p50", row.summary.p50)
                .ms("p99", row.summary.p99)
                .ms("max", row.summary.max))
        })
        .collect();
    let (axis, aria) = (
        t(key!("chart.overview.axis")),
        t(key!("chart.overview.aria")),
    );
    chart_frame("overview", summary, move |width| {
        let layout = RowLayout::new(rows.iter().map(|r| r.label.as_str()), width, ROW);
        let bottom = TOP + layout.pitch * rows.len() as f64 + 4.0;
        let x = Scale::log_decades(lo, hi, 0.001, layout.left, width - 12.0);
        let mut marks = x_axis(&x, TOP, bottom, width);
        marks.extend(
            rows.iter()
                .zip(&readings)
                .enumerate()
                .map(|(i, (row, text))| {
                    let s = row.summary;
                    let y = layout.centre(TOP, i);
                    let notch = row.requested_ms.filter(|&d| d > 0.0).map(|d| {
                        let px = x.map(d);
                        Node::line("requested", px, y - 7.0, px, y + 7.0)
                    });
                    let mut shapes = vec![
                        hit(0.0, y + ROW / 2.0 - layout.pitch, width, layout.pitch),
                        row_label(layout.label(y), &row.label),
                        Node::line("range", x.map(s.min), y, x.map(s.max), y),
                        Node::line("spread", x.map(s.p50), y, x.map(s.p99), y),
                    ];
                    shapes.extend(notch);
                    shapes.push(
                        Node::new("circle")
                            .class("median")
                            .at("cx", x.map(s.p50))
                            .at("cy", y)
                            .attr("r", "4"),
                    );
                    reading(
                        i == 0,
                        Some(format!("overview-{}", row.id)),
                        text.clone(),
                        shapes,
                    )
                }),
        );
        let (under, height) = footer(width, layout.left, bottom + 14.0 + LINE_PX, &[], &axis);
        marks.extend(under);
        chart_svg(width, height, aria.clone(), marks)
    })
}

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
    const LEFT: f64 = 44.0;
    const TOP: f64 = 10.0;
    const BOTTOM: f64 = 190.0;
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
            Scale::log_decades(lo, max, floor_ms, LEFT, width - 12.0)
        } else {
            Scale::linear_nice(lo, max, LEFT, width - 12.0)
        };
        let y = Scale::linear_nice(0.0, f64::from(tallest), BOTTOM, TOP);
        let mut marks = x_axis(&x, TOP, BOTTOM, width);
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
                            hit(r.x, TOP, r.width, BOTTOM - TOP),
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
            let (lx, anchor) = if (before || px + room > width - 2.0) && px - LEFT > room {
                (px - 3.0, "end")
            } else {
                (px + 3.0, "start")
            };
            [
                Node::line(class, px, TOP, px, BOTTOM),
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
            marks.extend(marker("requested", *d, BOTTOM - 6.0, asked, true));
        }
        marks.extend(marker("p50", p50, TOP + 10.0, &p50_text, false));
        marks.extend(marker("p99", p99, TOP + 23.0, &p99_text, false));
        let (under, height) = footer(width, LEFT, BOTTOM + 14.0 + LINE_PX, &[], &axis);
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
    const LEFT: f64 = 44.0;
    const TOP: f64 = 10.0;
    const BOTTOM: f64 = 170.0;
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
        let y = Scale::linear_nice(0.0, hi, BOTTOM, TOP);
        let slot = (width - 12.0 - LEFT) / n;
        let mut marks = y_axis(&y, LEFT, width - 12.0);
        marks.extend(
            chain
                .levels
                .iter()
                .zip(&bar_texts)
                .enumerate()
                .map(|(i, (s, text))| {
                    let level = i as u32 + 1;
                    let x0 = LEFT + slot * i as f64 + slot * 0.15;
                    let clamped = onset.is_some_and(|o| level >= o);
                    let (top, whisker) = (y.map(s.p50), y.map(s.p90));
                    let middle = x0 + slot * 0.35;
                    reading(
                        i == 0,
                        None,
                        text.clone(),
                        vec![
                            hit(LEFT + slot * i as f64, TOP, slot, BOTTOM - TOP),
                            Node::rect(
                                if clamped { "bar clamped" } else { "bar" },
                                x0,
                                top,
                                slot * 0.7,
                                BOTTOM - top,
                            ),
                            Node::line("whisker", middle, top, middle, whisker),
                            Node::label(
                                "tick",
                                middle,
                                BOTTOM + 14.0,
                                Some("middle"),
                                level.to_string(),
                            ),
                        ],
                    )
                }),
        );
        let clamp_y = y.map(NestedChain::CLAMP_MS);
        marks.push(Node::line("clamp", LEFT, clamp_y, width - 12.0, clamp_y));
        marks.push(Node::label(
            "clamp-label",
            width - 14.0,
            clamp_y - 4.0,
            Some("end"),
            clamp.clone(),
        ));
        let (under, height) = footer(width, LEFT, BOTTOM + 14.0 + LINE_PX, &[], &axis);
        marks.extend(under);
        chart_svg(width, height, aria.clone(), marks)
    })
}

/// The samples of a measured outcome, if it kept them.
pub fn samples_of(outcome: &Outcome) -> Option<Samples> {
    Samples::new(outcome.samples()?.to_vec()).ok()
}

/// Frame gaps over time for each mode of experiment 2a, overlaid: a
/// blocked main thread shows as gaps as long as its jobs.
#[component]
pub fn FrameGapChart(
    /// The runs, blocking first.
    runs: Vec<MainRun>,
) -> impl IntoView {
    const LEFT: f64 = 48.0;
    const TOP: f64 = 10.0;
    const BOTTOM: f64 = 186.0;
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
        let x = Scale::linear_nice(0.0, end, LEFT, width - 12.0);
        let y = Scale::log_decades(1.0, worst, 1.0, BOTTOM, TOP);
        let mut marks = y_axis(&y, LEFT, width - 12.0);
        marks.extend(x_axis(&x, TOP, BOTTOM, width));
        let frame_y = y.map(1000.0 / 60.0);
        marks.push(Node::line(
            "frame-line",
            LEFT,
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
        let (under, height) = footer(width, LEFT, BOTTOM + 14.0 + LINE_PX, &legend, &axis);
        marks.extend(under);
        chart_svg(width, height, aria.clone(), marks)
    })
}

/// Each tick's lateness against the ideal schedule, one line per loop of
/// experiment 7 (solid on the main thread, dashed in a worker): a loop
/// that waits after its work climbs, a schedule kept by the clock stays
/// near zero.
#[component]
pub fn LatenessChart(
    /// The run.
    periodic: PeriodicWork,
) -> impl IntoView {
    const LEFT: f64 = 48.0;
    const TOP: f64 = 10.0;
    const BOTTOM: f64 = 206.0;
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
        let x = Scale::linear_nice(1.0, ticks as f64, LEFT, width - 12.0);
        let y = Scale::linear_nice(lo, hi, BOTTOM, TOP);
        let mut marks = y_axis(&y, LEFT, width - 12.0);
        marks.extend(x_axis_at(x.count_ticks(), TOP, BOTTOM, width));
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
        let (under, height) = footer(width, LEFT, BOTTOM + 14.0 + LINE_PX, &legend, &axis);
        marks.extend(under);
        chart_svg(width, height, aria.clone(), marks)
    })
}

/// How many jobs ran at once over each gate's batch of experiment 8, as
/// steps: a semaphore's line drops and climbs back at once, a polling
/// gate's stays down until its next poll; the limit is a dashed line.
#[component]
pub fn ConcurrencyChart(
    /// The run.
    limit: ConcurrencyLimit,
) -> impl IntoView {
    const LEFT: f64 = 40.0;
    const TOP: f64 = 10.0;
    const BOTTOM: f64 = 186.0;
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
        let x = Scale::linear_nice(0.0, end, LEFT, width - 12.0);
        let y = Scale::linear_nice(0.0, f64::from(limit.config.limit) + 1.0, BOTTOM, TOP + 16.0);
        let mut marks = x_axis(&x, TOP, BOTTOM, width);
        marks.extend(y.count_ticks().into_iter().flat_map(|t| {
            [
                Node::line("grid", LEFT, t.pos, width - 12.0, t.pos),
                Node::label("tick", LEFT - 6.0, t.pos + 4.0, Some("end"), num(&t.label)),
            ]
        }));
        let cap = y.map(f64::from(limit.config.limit));
        marks.push(Node::line("frame-line", LEFT, cap, width - 12.0, cap));
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
        let (under, height) = footer(width, LEFT, BOTTOM + 14.0 + LINE_PX, &legend, &axis);
        marks.extend(under);
        chart_svg(width, height, aria.clone(), marks)
    })
}

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

/// The cost of each `SpinOnce` step, log scale, coloured by phase.
#[component]
pub fn LadderChart(
    /// The measured steps.
    steps: Vec<StepCost>,
) -> impl IntoView {
    const LEFT: f64 = 52.0;
    const TOP: f64 = 10.0;
    const BOTTOM: f64 = 186.0;
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
        let y = Scale::log_decades(lo, hi, 0.0001, BOTTOM, TOP);
        let slot = (width - 12.0 - LEFT) / steps.len().max(1) as f64;
        let mut marks = y_axis(&y, LEFT, width - 12.0);
        marks.extend(steps.iter().zip(&texts).enumerate().map(|(i, (s, text))| {
            let x0 = LEFT + slot * i as f64 + slot * 0.15;
            let top = y.map(s.p50_ms);
            let mut shapes = vec![
                hit(LEFT + slot * i as f64, TOP, slot, BOTTOM - TOP),
                Node::rect(
                    format!("bar phase-{}", s.step.phase()),
                    x0,
                    top,
                    slot * 0.7,
                    (BOTTOM - top).max(1.0),
                ),
            ];
            if s.count % 5 == 0 {
                shapes.push(Node::label(
                    "tick",
                    x0 + slot * 0.35,
                    BOTTOM + 14.0,
                    Some("middle"),
                    s.count.to_string(),
                ));
            }
            reading(i == 0, None, text.clone(), shapes)
        }));
        let (under, height) = footer(width, LEFT, BOTTOM + 14.0 + LINE_PX, &legend, &axis);
        marks.extend(under);
        chart_svg(width, height, aria.clone(), marks)
    })
}
