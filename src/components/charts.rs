//! SVG charts drawn client-side from waitlab-core's chart geometry: the
//! frame, readings, axes, legends and footers every chart shares, and the
//! overview of every cell. Each experiment's own charts are its folder's
//! `chart.rs`. All text goes in as text nodes, never as markup.

use crate::i18n::{num, t, tr};
use leptos::prelude::*;
use waitlab_browser::{chart_file, page};
use waitlab_core::chart::{
    LABEL_PX, LINE_PX, LabelSpot, Plot, RowLayout, Scale, drawn_width, fit_apart, legend_rows,
    spaced, text_width, tick_centre, wrap,
};
use waitlab_core::experiments::Experiment;
use waitlab_core::experiments::Tried;
use waitlab_core::experiments::timed_waits::CellKey;
use waitlab_core::export;
use waitlab_core::key;
use waitlab_core::schema::Report;
use waitlab_core::stats::Summary;
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

/// The [`hit`] area of the `i`th of the plot's columns, each `slot` px
/// wide from its left edge: the whole column, top to bottom.
pub(crate) fn column_hit(plot: Plot, i: usize, slot: f64) -> Node {
    let x = plot.left + slot * i as f64;
    hit(x, plot.top, slot, plot.bottom - plot.top)
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

/// Rows' labels as their `layout` has room for them, cut short apart
/// (`fit_apart`: two rows never read the same where their labels differ;
/// each row's reading tells it whole).
pub(crate) fn row_labels<'a>(
    layout: &RowLayout,
    labels: impl IntoIterator<Item = &'a str>,
) -> Vec<String> {
    fit_apart(labels, layout.label(0.0).room)
}

/// A row's label where `spot` says, `text` as [`row_labels`] cut it.
pub(crate) fn row_label(spot: LabelSpot, text: &str) -> Node {
    Node::label(
        "row-label",
        spot.x,
        spot.y,
        spot.end.then_some("end"),
        text.to_owned(),
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
pub(crate) fn x_axis_at(
    ticks: Vec<waitlab_core::chart::Tick>,
    top: f64,
    bottom: f64,
    width: f64,
) -> Vec<Node> {
    // Labels that would overlap are left out (`spaced`), their grid
    // lines kept.
    spaced(ticks, width)
        .into_iter()
        .flat_map(|t| {
            // A label centred on the first or last tick could run off the
            // chart.
            let label = num(&t.label);
            let centre = tick_centre(t.pos, &label, width);
            let grid = Node::line("grid", t.pos, top, t.pos, bottom);
            let label = (!label.is_empty())
                .then(|| Node::label("tick", centre, bottom + 14.0, Some("middle"), label));
            std::iter::once(grid).chain(label)
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
pub(crate) fn y_axis(scale: &Scale, left: f64, right: f64) -> Vec<Node> {
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
        let labels = row_labels(&layout, rows.iter().map(|r| r.label.as_str()));
        let bottom = TOP + layout.pitch * rows.len() as f64 + 4.0;
        let x = Scale::log_decades(lo, hi, 0.001, layout.left, width - 12.0);
        let mut marks = x_axis(&x, TOP, bottom, width);
        marks.extend(rows.iter().zip(&readings).zip(&labels).enumerate().map(
            |(i, ((row, text), label))| {
                let s = row.summary;
                let y = layout.centre(TOP, i);
                let notch = row.requested_ms.filter(|&d| d > 0.0).map(|d| {
                    let px = x.map(d);
                    Node::line("requested", px, y - 7.0, px, y + 7.0)
                });
                let mut shapes = vec![
                    hit(0.0, y + ROW / 2.0 - layout.pitch, width, layout.pitch),
                    row_label(layout.label(y), label),
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
            },
        ));
        let (under, height) = footer(width, layout.left, bottom + 14.0 + LINE_PX, &[], &axis);
        marks.extend(under);
        chart_svg(width, height, aria.clone(), marks)
    })
}
