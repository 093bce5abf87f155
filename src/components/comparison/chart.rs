//! A comparison's chart: one row per way of waiting, a mark per source
//! and charted column, on one time or ratio axis.

use super::source::Tag;
use crate::components::charts::{
    LegendEntry, chart_frame, chart_svg, footer, hit, reading, row_label, row_labels, x_axis,
};
use crate::i18n::{num, t, tr};
use leptos::prelude::*;
use waitlab_core::chart::{LINE_PX, RowLayout, Scale};
use waitlab_core::compare::{self, Group, Value};
use waitlab_core::experiments::Experiment;
use waitlab_core::key;
use waitlab_core::svg::{Node, coord};
use waitlab_core::text::Phrase;

/// The shape of a charted column's mark, `size` times the usual.
fn mark(column: usize, x: f64, y: f64, size: f64, class: String) -> Node {
    let (r, half, tip) = (4.0 * size, 3.5 * size, 5.0 * size);
    match column {
        0 => Node::new("circle")
            .class(class)
            .at("cx", x)
            .at("cy", y)
            .at("r", r),
        1 => Node::rect(class, x - half, y - half, 2.0 * half, 2.0 * half),
        _ => Node::new("polygon").class(class).attr(
            "points",
            format!(
                "{},{} {},{} {},{} {},{}",
                coord(x),
                coord(y - tip),
                coord(x + tip),
                coord(y),
                coord(x),
                coord(y + tip),
                coord(x - tip),
                coord(y)
            ),
        ),
    }
}

/// One charted value of a row: which mark (slot in the charted columns),
/// its span on the axis, whether it is stated rather than measured, and
/// for a figure under its clock's resolution the span a step of the clock
/// makes of it.
struct ChartMark {
    slot: usize,
    lo: f64,
    hi: f64,
    stated: bool,
    band: Option<(f64, f64)>,
    /// A figure of 0 that its clock cannot tell from one step (0‡), which
    /// a log axis has no place for: only its band is drawn, from the
    /// axis' floor up to that step.
    under_clock: bool,
}

/// One row of the comparison chart.
struct ChartRow {
    tag: Tag,
    /// Its source's letter and what ran.
    label: String,
    /// What the row says in words: its name and charted figures.
    reading: String,
    marks: Vec<ChartMark>,
}

/// Every row's charted values on one log axis, coloured by source; a
/// stated range is a bar from its low to its high end, a figure under its
/// clock's resolution sits on a band of a step of that clock. This
/// browser's marks are drawn largest and outlined. The legend under it
/// names the sources, the marks and what hollow and a band mean.
#[component]
pub(super) fn ComparisonChart(
    /// Which experiment.
    experiment: Experiment,
    /// The sources with their tags.
    groups: Vec<(Tag, Group)>,
) -> impl IntoView {
    const TOP: f64 = 8.0;
    let columns = experiment.columns();
    let compare::Charted {
        columns: charted,
        axis: chart_axis,
        instead,
    } = compare::chart_columns(experiment, groups.iter().map(|(_, g)| g));
    let all_rows = || groups.iter().flat_map(|(_, g)| &g.rows);
    let wait = compare::headline_wait(all_rows());
    // The note points to the table, which an embed leaves to the page it
    // opens.
    let embedded = use_context::<crate::hooks::Embedded>().is_some_and(|e| e.0);
    // Rows a little closer in an embed, which a blog's frame bounds.
    let pitch = if embedded { 14.0 } else { 16.0 };
    let left_out = !embedded
        && groups
            .iter()
            .any(|(_, g)| g.headline_rows(wait).count() < g.rows.len());
    let note = if groups.iter().any(|(_, g)| g.own_wait(wait) != wait) {
        key!("compare.headline_own")
    } else {
        key!("compare.headline")
    };
    let rows: Vec<ChartRow> = groups
        .iter()
        .flat_map(|(tag, g)| {
            let (charted, columns) = (&charted, &columns);
            g.headline_rows(wait).filter_map(move |r| {
                let marks: Vec<_> = charted
                    .iter()
                    .enumerate()
                    .filter_map(|(slot, &c)| {
                        let v = &r.values[c];
                        let placed = v.on_axis(columns[c].unit)?;
                        Some(ChartMark {
                            slot,
                            lo: placed.lo,
                            hi: placed.hi,
                            stated: matches!(v, Value::Stated { .. }),
                            band: placed.band,
                            under_clock: placed.under_clock,
                        })
                    })
                    .collect();
                let what = tr(&r.what);
                let figures: Vec<String> = charted
                    .iter()
                    .filter(|&&c| !matches!(r.values[c], Value::Absent))
                    .map(|&c| {
                        let header = tr(&experiment.header(&columns[c]));
                        format!("{header}: {}", num(&r.values[c].format(columns[c].unit)))
                    })
                    .collect();
                let source = tr(&g.source);
                (!marks.is_empty()).then(|| ChartRow {
                    tag: *tag,
                    reading: format!("{source}: {what} — {}", figures.join("; ")),
                    label: format!("{} · {what}", tag.letter),
                    marks,
                })
            })
        })
        .collect();
    if rows.is_empty() {
        return None;
    }
    let spans = || {
        rows.iter()
            .flat_map(|r| r.marks.iter())
            .flat_map(|m| [(m.lo, m.hi), m.band.unwrap_or((m.lo, m.hi))])
    };
    let lo = spans()
        .map(|(lo, _)| lo)
        .filter(|&v| v > 0.0)
        .fold(f64::INFINITY, f64::min);
    let hi = spans().map(|(_, hi)| hi).fold(0.0, f64::max);
    // The legend: the sources by colour, the columns by shape, then what
    // hollow and a band mean where the chart has them.
    // Its letter before its name, as in the rows' labels: "A · You: …".
    let source = |tag: Tag, text: String| LegendEntry {
        symbol: Some(Box::new(move |x, y| {
            Node::rect(
                format!("swatch-mark {}", tag.class()),
                x - 5.0,
                y - 5.0,
                10.0,
                10.0,
            )
        })),
        class: "legend-source".to_owned(),
        text: format!("{} · {text}", tag.letter),
    };
    let mut legend: Vec<LegendEntry> = groups
        .iter()
        .filter(|(tag, _)| rows.iter().any(|r| r.tag == *tag))
        .map(|(tag, g)| source(*tag, tr(&g.source)))
        .collect();
    let shape = |slot: usize, stated: bool, text: String| LegendEntry {
        symbol: Some(Box::new(move |x, y| {
            let class = format!("mark legend-mark{}", if stated { " stated" } else { "" });
            mark(slot, x, y, 1.0, class)
        })),
        class: "axis-label".to_owned(),
        text,
    };
    legend.extend(
        charted
            .iter()
            .enumerate()
            .map(|(slot, &c)| shape(slot, false, tr(&experiment.header(&columns[c])))),
    );
    if rows.iter().any(|r| r.marks.iter().any(|m| m.stated)) {
        legend.push(shape(0, true, t(key!("compare.key_stated"))));
    }
    if rows
        .iter()
        .any(|r| r.marks.iter().any(|m| m.band.is_some()))
    {
        legend.push(LegendEntry {
            symbol: Some(Box::new(|x, y| {
                Node::rect("clock-band legend-mark", x - 6.0, y - 4.0, 12.0, 8.0)
            })),
            class: "axis-label".to_owned(),
            text: t(key!("compare.key_band")),
        });
    }
    let axis = tr(&chart_axis);
    let aria = tr(&Phrase::new(key!("compare.chart_aria")).phrase("axis", chart_axis));
    let draw = move |width: f64| {
        let layout = RowLayout::new(rows.iter().map(|r| r.label.as_str()), width, pitch);
        let labels = row_labels(&layout, rows.iter().map(|r| r.label.as_str()));
        let bottom = TOP + layout.pitch * rows.len() as f64 + 4.0;
        let x = Scale::log_decades(lo, hi, 0.0001, layout.left, width - 24.0);
        let mut marks = x_axis(&x, TOP, bottom, width);
        marks.extend(
            rows.iter()
                .zip(&labels)
                .enumerate()
                .map(|(i, (row, label))| {
                    let y = layout.centre(TOP, i);
                    let src = row.tag.class();
                    let own = row.tag.colour == 0;
                    let mut shapes = vec![
                        hit(0.0, y + pitch / 2.0 - layout.pitch, width, layout.pitch),
                        row_label(layout.label(y), label),
                    ];
                    for m in &row.marks {
                        if let Some((lo, hi)) = m.band {
                            let (x0, x1) = (x.map(lo), x.map(hi));
                            shapes.push(Node::rect(
                                format!("clock-band {src}"),
                                x0,
                                y - 6.0,
                                (x1 - x0).max(2.0),
                                12.0,
                            ));
                        }
                        if m.hi > m.lo {
                            shapes.push(Node::line(
                                format!("stated-range {src}"),
                                x.map(m.lo),
                                y,
                                x.map(m.hi),
                                y,
                            ));
                        }
                        if m.under_clock {
                            continue;
                        }
                        let class = format!(
                            "mark {src}{}{}",
                            if m.stated { " stated" } else { "" },
                            if own { " own" } else { "" }
                        );
                        shapes.push(mark(
                            m.slot,
                            x.map(m.lo),
                            y,
                            if own { 1.25 } else { 1.0 },
                            class,
                        ));
                    }
                    reading(
                        i == 0,
                        Some(format!("cmp-mark-{}", row.tag.colour)),
                        row.reading.clone(),
                        shapes,
                    )
                }),
        );
        let (under, height) = footer(width, 12.0, bottom + 14.0 + LINE_PX, &legend, &axis);
        marks.extend(under);
        chart_svg(width, height, aria.clone(), marks)
    };
    Some(view! {
        {chart_frame("headline", t(key!("compare.summary")), draw)}
        {left_out.then(|| wait.map(|d| view! {
            <p class="note" data-testid="headline-note">{tr(&Phrase::new(note).count("d", d))}</p>
        }))}
        {instead.then(|| view! {
            <p class="note" data-testid="chart-times-note">{t(key!("compare.chart_times"))}</p>
        })}
    })
}
