//! SVG charts drawn client-side from waitlab-core's chart geometry: an
//! overview of every cell, one cell's histogram, and the nested-timer chain.
//! All text goes in as text nodes, never as markup.

use crate::i18n::{ms, num, t, tr};
use leptos::prelude::*;
use waitlab_browser::{chart_file, page};
use waitlab_core::chart::{
    LABEL_PX, Scale, histogram_bars, label_column, legend_row, squeeze, text_width,
};
use waitlab_core::experiment::Experiment;
use waitlab_core::export;
use waitlab_core::key;
use waitlab_core::ladder::StepCost;
use waitlab_core::outcome::Outcome;
use waitlab_core::schema::{NestedChain, Report};
use waitlab_core::starvation::{JobMode, MainRun, PoolConfig, PoolRun};
use waitlab_core::stats::{Samples, Summary};
use waitlab_core::text::Phrase;
use waitlab_core::timed::CellKey;

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

/// `svg`, a chart (`chart` names it in file names, such as `histogram`),
/// with its one-sentence `summary` (the figure's caption, for screen
/// readers: the chart itself shows it to the eye) and its downloads: the
/// SVG as drawn, in the reader's colours, and a PNG of it at twice its
/// size.
pub fn chart_frame(chart: &'static str, summary: String, svg: impl IntoView + 'static) -> AnyView {
    framed(chart, summary, svg.into_any())
}

/// [`chart_frame`], once for every chart.
fn framed(chart: &'static str, summary: String, svg: AnyView) -> AnyView {
    let source = use_context::<Option<ChartSource>>().flatten();
    let frame = NodeRef::<leptos::html::Figure>::new();
    let failed = RwSignal::new(None::<String>);
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
            {svg}
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
pub(crate) fn reading(
    first: bool,
    testid: Option<String>,
    text: String,
    marks: impl IntoView + 'static,
) -> impl IntoView {
    let label = text.clone();
    view! {
        <g class="reading" data-testid=testid tabindex=if first { "0" } else { "-1" } role="img" aria-label=label>
            <title>{text}</title>
            {marks}
        </g>
    }
}

/// A [`reading`]'s area that answers the pointer, drawn on focus.
pub(crate) fn hit(x: f64, y: f64, width: f64, height: f64) -> impl IntoView {
    view! { <rect class="hit" x=coord(x) y=coord(y) width=coord(width) height=coord(height) /> }
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

/// Every chart's width in SVG user units (it scales to its box).
pub(crate) const WIDTH: f64 = 760.0;

/// An SVG coordinate or length, to a tenth of a pixel (written by
/// `waitlab_core::number`, the page's one float formatter).
pub(crate) fn coord(v: f64) -> String {
    waitlab_core::number::fixed(v, 1)
}

/// A row label set right-aligned to end at `x`, squeezed into `room` when
/// it would not fit (labels grow long in some languages).
pub(crate) fn row_label(x: f64, y: f64, room: f64, text: String) -> impl IntoView + use<> {
    let squeezed = squeeze(&text, room).map(coord);
    let adjust = squeezed.as_ref().map(|_| "spacingAndGlyphs");
    view! {
        <text class="row-label" x=coord(x) y=coord(y) text-anchor="end" textLength=squeezed lengthAdjust=adjust>{text}</text>
    }
}

/// The width of a chart's row-label column for `labels`.
pub(crate) fn label_width<'a>(labels: impl IntoIterator<Item = &'a str>) -> f64 {
    label_column(labels, 20.0, 160.0, 440.0)
}

/// A row of legend entries from `x` on the line `y`, each a `(class,
/// text)` set after the one before.
fn legend<const N: usize>(
    x: f64,
    y: f64,
    entries: [(&'static str, String); N],
) -> impl IntoView + use<N> {
    let labels = entries.each_ref().map(|(_, text)| text.as_str());
    let at = legend_row(x, &labels, 0.0, 18.0);
    entries
        .into_iter()
        .zip(at)
        .map(|((class, text), lx)| {
            view! { <text class=format!("legend {class}") x=coord(lx) y=coord(y)>{text}</text> }
        })
        .collect_view()
}

/// Vertical grid lines and labels of an x axis.
pub fn x_axis(scale: &Scale, top: f64, bottom: f64) -> impl IntoView + use<> {
    scale
        .ticks()
        .into_iter()
        .map(|t| {
            // A label centred on the last tick would run off the chart.
            let label = num(&t.label);
            let centre = t.pos.min(WIDTH - 2.0 - text_width(&label, LABEL_PX) / 2.0);
            view! {
                <line class="grid" x1=coord(t.pos) x2=coord(t.pos) y1=coord(top) y2=coord(bottom) />
                <text class="tick" x=coord(centre) y=coord(bottom + 14.0) text-anchor="middle">{label}</text>
            }
        })
        .collect_view()
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
}

/// Horizontal grid lines and labels of a y axis spanning `left..right`.
fn y_axis(scale: &Scale, left: f64, right: f64) -> impl IntoView + use<> {
    scale
        .ticks()
        .into_iter()
        .map(|t| {
            view! {
                <line class="grid" x1=coord(left) x2=coord(right) y1=coord(t.pos) y2=coord(t.pos) />
                <text class="tick" x=coord(left - 6.0) y=coord(t.pos + 4.0) text-anchor="end">{num(&t.label)}</text>
            }
        })
        .collect_view()
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
    let left = label_width(rows.iter().map(|r| r.label.as_str()));
    let height = TOP + ROW * rows.len() as f64 + 40.0;
    let lo = rows
        .iter()
        .map(|r| r.summary.min)
        .fold(f64::INFINITY, f64::min);
    let hi = rows.iter().map(|r| r.summary.max).fold(0.0, f64::max);
    let x = Scale::log_decades(lo, hi, 0.001, left, WIDTH - 12.0);
    let bottom = height - 36.0;
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
    let marks = rows
        .into_iter()
        .enumerate()
        .map(|(i, row)| {
            let s = row.summary;
            let y = TOP + ROW * (i as f64 + 0.5);
            let notch = row.requested_ms.filter(|&d| d > 0.0).map(|d| {
                let px = x.map(d);
                view! { <line class="requested" x1=coord(px) x2=coord(px) y1=coord(y - 7.0) y2=coord(y + 7.0) /> }
            });
            let text = tr(&Phrase::new(key!("chart.overview.row"))
                .data("what", row.label.clone())
                .ms("p50", s.p50)
                .ms("p99", s.p99)
                .ms("max", s.max));
            reading(i == 0, Some(format!("overview-{}", row.id)), text, view! {
                {hit(0.0, y - ROW / 2.0, WIDTH, ROW)}
                {row_label(left - 8.0, y + 4.0, left - 12.0, row.label.clone())}
                <line class="range" x1=coord(x.map(s.min)) x2=coord(x.map(s.max)) y1=coord(y) y2=coord(y) />
                <line class="spread" x1=coord(x.map(s.p50)) x2=coord(x.map(s.p99)) y1=coord(y) y2=coord(y) />
                {notch}
                <circle class="median" cx=coord(x.map(s.p50)) cy=coord(y) r="4" />
            })
        })
        .collect_view();
    view! {
        {chart_frame("overview", summary, view! {
        <svg class="chart" viewBox=format!("0 0 {} {}", coord(WIDTH), coord(height)) role="group"
            aria-label=t(key!("chart.overview.aria"))>
            {x_axis(&x, TOP, bottom)}
            {marks}
            <text class="axis-label" x=coord(WIDTH - 12.0) y=coord(height - 2.0) text-anchor="end">{t(key!("chart.overview.axis"))}</text>
        </svg>
        })}
    }
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
    const HEIGHT: f64 = 220.0;
    let bottom = HEIGHT - 30.0;
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
    let x = if log {
        Scale::log_decades(lo, samples.max(), floor_ms, LEFT, WIDTH - 12.0)
    } else {
        Scale::linear_nice(lo, samples.max(), LEFT, WIDTH - 12.0)
    };
    let tallest = bins.iter().map(|b| b.count).max().unwrap_or(1);
    let y = Scale::linear_nice(0.0, f64::from(tallest), bottom, TOP);
    let bars = histogram_bars(&bins, &x, &y)
        .into_iter()
        .zip(&bins)
        .enumerate()
        .map(|(i, (r, b))| {
            let text = tr(&Phrase::new(key!("chart.histogram.bar"))
                .ms("lo", b.lo)
                .ms("hi", b.hi)
                .count("count", b.count as u64));
            reading(i == 0, None, text, view! {
                {hit(r.x, TOP, r.width, bottom - TOP)}
                <rect class="bar" x=coord(r.x) y=coord(r.y) width=coord(r.width) height=coord(r.height) />
            })
        })
        .collect_view();
    // A label goes right of its line, or left of it where `before` asks
    // and there is room: the requested wait's, as samples lie after it.
    let marker = |class: &'static str, value: f64, label_y: f64, text: String, before: bool| {
        let px = x.map(value);
        let (lx, anchor) = if before && px - LEFT > text_width(&text, LABEL_PX) + 3.0 {
            (px - 3.0, "end")
        } else {
            (px + 3.0, "start")
        };
        view! {
            <line class=class x1=coord(px) x2=coord(px) y1=coord(TOP) y2=coord(bottom) />
            <text class=format!("{class}-label") x=coord(lx) y=coord(label_y) text-anchor=anchor>{text}</text>
        }
    };
    let p50 = samples.quantile(0.5);
    let p99 = samples.quantile(0.99);
    let summary = tr(&Phrase::new(key!("chart.histogram.summary"))
        .ms("min", samples.min())
        .ms("q1", samples.quantile(0.25))
        .ms("q3", samples.quantile(0.75))
        .ms("p50", p50)
        .ms("p99", p99)
        .ms("max", samples.max()));
    view! {
        {chart_frame("histogram", summary, view! {
        <svg class="chart" viewBox=format!("0 0 {} {}", coord(WIDTH), coord(HEIGHT)) role="group"
            aria-label=tr(&Phrase::new(key!("chart.histogram.aria")).phrase("what", key.label()))>
            {x_axis(&x, TOP, bottom)}
            {bars}
            {requested.map(|d| marker("requested", d, bottom - 6.0, tr(&Phrase::new(key!("chart.histogram.asked")).ms("ms", d)), true))}
            {marker("p50", p50, TOP + 10.0, format!("p50 {}", ms(p50)), false)}
            {marker("p99", p99, TOP + 23.0, format!("p99 {}", ms(p99)), false)}
            <text class="axis-label" x=coord(WIDTH - 12.0) y=coord(HEIGHT - 2.0) text-anchor="end">
                {tr(&match key.requested_ms {
                    Some(d) if requested.is_none() => Phrase::new(key!("chart.histogram.axis_off")).phrase("what", key.label()).count("count", samples.len() as u64).count("d", d),
                    _ => Phrase::new(key!("chart.histogram.axis")).phrase("what", key.label()).count("count", samples.len() as u64),
                })}
                {log.then(|| format!(" · {}", t(key!("chart.log_axis"))))}
            </text>
        </svg>
        })}
    }
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
    const HEIGHT: f64 = 200.0;
    let bottom = HEIGHT - 30.0;
    let n = chain.levels.len().max(1) as f64;
    let hi = chain
        .levels
        .iter()
        .map(|s| s.p90)
        .fold(NestedChain::CLAMP_MS + 1.0, f64::max);
    let y = Scale::linear_nice(0.0, hi, bottom, TOP);
    let slot = (WIDTH - 12.0 - LEFT) / n;
    let onset = chain.clamp_onset(tolerance_ms);
    let bars = chain
        .levels
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let level = i as u32 + 1;
            let x0 = LEFT + slot * i as f64 + slot * 0.15;
            let clamped = onset.is_some_and(|o| level >= o);
            let (top, whisker) = (y.map(s.p50), y.map(s.p90));
            let text = tr(&Phrase::new(key!("chart.chain.bar"))
                .count("level", level)
                .ms("p50", s.p50)
                .ms("p90", s.p90));
            reading(i == 0, None, text, view! {
                {hit(LEFT + slot * i as f64, TOP, slot, bottom - TOP)}
                <rect class=if clamped { "bar clamped" } else { "bar" } x=coord(x0) y=coord(top) width=coord(slot * 0.7) height=coord(bottom - top) />
                <line class="whisker" x1=coord(x0 + slot * 0.35) x2=coord(x0 + slot * 0.35) y1=coord(top) y2=coord(whisker) />
                <text class="tick" x=coord(x0 + slot * 0.35) y=coord(bottom + 14.0) text-anchor="middle">{level}</text>
            })
        })
        .collect_view();
    let ticks = y_axis(&y, LEFT, WIDTH - 12.0);
    let clamp_y = y.map(NestedChain::CLAMP_MS);
    let summary = match (chain.levels.first(), chain.levels.last()) {
        (Some(first), Some(last)) => tr(&Phrase::new(key!("chart.chain.summary"))
            .ms("first", first.p50)
            .count("levels", chain.levels.len() as u64)
            .ms("last", last.p50)),
        _ => String::new(),
    };
    view! {
        {chart_frame("chain", summary, view! {
        <svg class="chart" viewBox=format!("0 0 {} {}", coord(WIDTH), coord(HEIGHT)) role="group"
            aria-label=t(key!("chart.chain.aria"))>
            {ticks}
            {bars}
            <line class="clamp" x1=coord(LEFT) x2=coord(WIDTH - 12.0) y1=coord(clamp_y) y2=coord(clamp_y) />
            <text class="clamp-label" x=coord(WIDTH - 14.0) y=coord(clamp_y - 4.0) text-anchor="end">{t(key!("chart.chain.clamp"))}</text>
            <text class="axis-label" x=coord(WIDTH - 12.0) y=coord(HEIGHT - 2.0) text-anchor="end">
                {tr(&match onset {
                    Some(level) => Phrase::new(key!("chart.chain.axis_clamped")).count("level", level),
                    None => Phrase::new(key!("chart.chain.axis")),
                })}
            </text>
        </svg>
        })}
    }
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
    const HEIGHT: f64 = 220.0;
    let bottom = HEIGHT - 34.0;
    let end = runs
        .iter()
        .flat_map(|r| r.frames_ms.last().copied())
        .fold(1.0, f64::max);
    let worst = runs
        .iter()
        .map(MainRun::longest_frame_gap)
        .fold(20.0, f64::max);
    let x = Scale::linear_nice(0.0, end, LEFT, WIDTH - 12.0);
    let y = Scale::log_decades(1.0, worst, 1.0, bottom, TOP);
    let lines = runs
        .iter()
        .enumerate()
        .map(|(i, run)| {
            let points = run
                .frame_gaps()
                .into_iter()
                .map(|(t, gap)| format!("{},{}", coord(x.map(t)), coord(y.map(gap))))
                .collect::<Vec<_>>()
                .join(" ");
            let text = tr(&Phrase::new(key!("chart.frames.line"))
                .phrase("mode", run.mode.label())
                .count("frames", run.frames_ms.len() as u64)
                .ms("p50", run.median_frame_gap())
                .ms("longest", run.longest_frame_gap())
                .count("long", run.long_frame_gaps() as u64));
            reading(
                i == 0,
                Some(format!("frames-{}", run.mode.name())),
                text,
                view! {
                    <polyline class="hit" points=points.clone() />
                    <polyline class=format!("gaps {}", run.mode.name()) points=points />
                },
            )
        })
        .collect_view();
    let y_ticks = y_axis(&y, LEFT, WIDTH - 12.0);
    let frame_y = y.map(1000.0 / 60.0);
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
    view! {
        {chart_frame("frame-gaps", summary, view! {
        <svg class="chart" viewBox=format!("0 0 {} {}", coord(WIDTH), coord(HEIGHT)) role="group"
            aria-label=t(key!("chart.frames.aria"))>
            {y_ticks}
            {x_axis(&x, TOP, bottom)}
            <line class="frame-line" x1=coord(LEFT) x2=coord(WIDTH - 12.0) y1=coord(frame_y) y2=coord(frame_y) />
            {lines}
            {legend(LEFT + 8.0, TOP + 12.0, [
                ("blocking", format!("— {}", t(key!("mode.blocking")))),
                ("async", format!("— {}", t(key!("mode.async")))),
            ])}
            <text class="axis-label" x=coord(WIDTH - 12.0) y=coord(HEIGHT - 2.0) text-anchor="end">
                {t(key!("chart.frames.axis"))}
            </text>
        </svg>
        })}
    }
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
    let height = panel * runs.len() as f64 + 40.0;
    let x = Scale::linear_nice(0.0, end, LEFT, WIDTH - 12.0);
    let bottom = height - 34.0;
    let panels = runs
        .iter()
        .enumerate()
        .map(|(i, run)| {
            let top = 14.0 + panel * i as f64;
            let bars = run
                .spans
                .iter()
                .enumerate()
                .map(|(j, s)| {
                    let (x0, x1) = (x.map(s.start_ms), x.map(s.end_ms));
                    let extra = s.job == config.jobs;
                    let text = tr(&Phrase::new(if extra { key!("chart.pool.extra_job") } else { key!("chart.pool.job") })
                        .count("job", s.job)
                        .ms("start", s.start_ms)
                        .ms("end", s.end_ms));
                    let (y0, width) = (top + ROW * f64::from(s.worker), (x1 - x0).max(1.5));
                    reading(i == 0 && j == 0, None, text, view! {
                {hit(x0, y0, width, ROW)}
                        <rect class=if extra { "job extra" } else { "job" }
                            x=coord(x0) y=coord(y0 + 2.0) width=coord(width) height=coord(ROW - 4.0) />
                    })
                })
                .collect_view();
            let labels = (0..config.workers)
                .map(|w| {
                    view! {
                        <text class="tick" x=coord(LEFT - 6.0) y=coord(top + ROW * f64::from(w) + ROW - 4.0) text-anchor="end">
                            {tr(&Phrase::new(key!("chart.pool.worker")).count("n", w + 1))}
                        </text>
                    }
                })
                .collect_view();
            view! {
                <text class="panel-label" x=coord(LEFT) y=coord(top - 3.0)>{tr(&run.mode.label())}</text>
                {labels}
                {bars}
            }
        })
        .collect_view();
    let batch = |mode: JobMode| runs.iter().find(|r| r.mode == mode).map(|r| r.batch_ms);
    let summary = match (batch(JobMode::Blocking), batch(JobMode::Async)) {
        (Some(blocking), Some(waiting)) => tr(&Phrase::new(key!("chart.pool.summary"))
            .ms("blocking", blocking)
            .ms("async", waiting)),
        _ => String::new(),
    };
    view! {
        {chart_frame("pool", summary, view! {
        <svg class="chart" viewBox=format!("0 0 {} {}", coord(WIDTH), coord(height)) role="group"
            aria-label=t(key!("chart.pool.aria"))>
            {x_axis(&x, 6.0, bottom)}
            {panels}
            <text class="axis-label" x=coord(WIDTH - 12.0) y=coord(height - 2.0) text-anchor="end">
                {t(key!("chart.pool.axis"))}
            </text>
        </svg>
        })}
    }
}

/// The cost of each `SpinOnce` step, log scale, coloured by phase.
#[component]
pub fn LadderChart(
    /// The measured steps.
    steps: Vec<StepCost>,
) -> impl IntoView {
    const LEFT: f64 = 52.0;
    const TOP: f64 = 10.0;
    const HEIGHT: f64 = 220.0;
    let bottom = HEIGHT - 34.0;
    let lo = steps.iter().map(|s| s.p50_ms).fold(f64::INFINITY, f64::min);
    let hi = steps.iter().map(|s| s.p50_ms).fold(0.0, f64::max);
    let y = Scale::log_decades(lo, hi, 0.0001, bottom, TOP);
    let slot = (WIDTH - 12.0 - LEFT) / steps.len().max(1) as f64;
    let bars = steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let x0 = LEFT + slot * i as f64 + slot * 0.15;
            let top = y.map(s.p50_ms);
            let text = tr(&Phrase::new(key!("chart.ladder.bar"))
                .count("step", s.count)
                .phrase("phase", s.step.phase_label())
                .ms("p50", s.p50_ms)
                .ms("max", s.max_ms));
            reading(i == 0, None, text, view! {
                {hit(LEFT + slot * i as f64, TOP, slot, bottom - TOP)}
                <rect class=format!("bar phase-{}", s.step.phase()) x=coord(x0) y=coord(top) width=coord(slot * 0.7) height=coord((bottom - top).max(1.0)) />
                {(s.count % 5 == 0).then(|| view! {
                    <text class="tick" x=coord(x0 + slot * 0.35) y=coord(bottom + 14.0) text-anchor="middle">{s.count}</text>
                })}
            })
        })
        .collect_view();
    let ticks = y_axis(&y, LEFT, WIDTH - 12.0);
    let summary = tr(&Phrase::new(key!("chart.ladder.summary"))
        .count("steps", steps.len() as u64)
        .ms("lo", lo)
        .ms("hi", hi));
    view! {
        {chart_frame("ladder", summary, view! {
        <svg class="chart" viewBox=format!("0 0 {} {}", coord(WIDTH), coord(HEIGHT)) role="group"
            aria-label=t(key!("chart.ladder.aria"))>
            {ticks}
            {bars}
            {legend(LEFT + 8.0, TOP + 12.0, [
                ("phase-spin", format!("■ {}", t(key!("phase.spin")))),
                ("phase-yield", format!("■ {}", t(key!("phase.yield")))),
                ("phase-sleep", format!("■ {}", t(key!("phase.sleep")))),
            ])}
            <text class="axis-label" x=coord(WIDTH - 12.0) y=coord(HEIGHT - 2.0) text-anchor="end">
                {t(key!("chart.ladder.axis"))}
            </text>
        </svg>
        })}
    }
}
