//! Results beside native numbers: the selector of bundled sets, and per
//! experiment one table and one chart where this browser's run, the native
//! probe's runs and the article's stated figures share columns. The rows
//! come from `waitlab_core::compare`; this file only draws them. The table
//! and the chart are in the comparisons' wasm chunk (with the reader of
//! links and packs, `hooks::reader`), fetched when the reader first
//! reaches a comparison or a link opens.

use crate::components::blocks::{Details, marked_cell};
use crate::components::charts::{
    WIDTH, axis_label, chart_frame, chart_svg, hit, label_width, reading, row_label, x_axis,
};
use crate::components::chunked::{ReachedPlace, chunked};
use crate::hooks::{Experiments, LinkedRuns, Loading, ReferenceSets};
use leptos::task::spawn_local;
use leptos::wasm_split::{SplitLoaderError, wasm_split};
use waitlab_core::key;

/// The first colour of runs opened from links (after this browser's and
/// the bundled sets').
const SHARED_COLOURS: usize = 4;
/// Colours in the stylesheet (`src-0` …).
const COLOURS: usize = 8;
use crate::i18n::{num, part_ready, t, tr};
use leptos::prelude::*;
use waitlab_core::chart::{Scale, legend_row};
use waitlab_core::compare::{self, Group, Origin, Value};
use waitlab_core::experiment::Experiment;
use waitlab_core::schema::Report;
use waitlab_core::svg::{Node, coord};
use waitlab_core::text::{Arg, Part, Phrase};

/// The reference sets from context (provided by the page).
fn sets() -> ReferenceSets {
    expect_context::<ReferenceSets>()
}

fn origin_id(origin: Origin) -> &'static str {
    match origin {
        Origin::Browser => "browser",
        Origin::Native => "native",
        Origin::Stated => "stated",
        Origin::Linked => "shared",
    }
}

/// The `data-testid` of a set's entry: `set-` and its name.
fn set_testid(set: &str) -> String {
    format!("set-{}", set.replace('.', "-"))
}

/// The card that lists the bundled sets, lets the reader choose which are
/// shown, and says where each comes from.
#[component]
pub fn ReferencePanel() -> impl IntoView {
    let sets = sets();
    let list = move || {
        match sets.loading.get() {
        Loading::Pending => view! { <p class="lead" data-testid="reference-loading">{t(key!("reference.loading"))}</p> }.into_any(),
        Loading::Slow(file) => view! {
            <p class="error" role="alert" data-testid="reference-slow">
                {tr(&Phrase::new(key!("reference.slow")).data("file", file))}
            </p>
        }
        .into_any(),
        Loading::Failed(message) => view! {
            <p class="error" role="alert" data-testid="reference-error">
                {tr(&Phrase::new(key!("reference.failed")).phrase("why", message))}
            </p>
        }
        .into_any(),
        Loading::Done(loaded) => loaded
            .into_iter()
            .map(|set| {
                let name = set.set.clone();
                let checked = {
                    let name = name.clone();
                    move || sets.shown.with(|s| s.contains(&name))
                };
                let toggle = move |_| {
                    sets.shown.update(|s| {
                        if let Some(i) = s.iter().position(|f| *f == name) {
                            s.remove(i);
                        } else {
                            s.push(name.clone());
                        }
                    })
                };
                // A set's name, runtime and system are its author's data,
                // shown as written (English, as waitlab-native writes
                // them); the words around its CPU and source are the page's.
                let provenance = tr(&set.native.provenance(set.cores));
                let native = set.native;
                match set.report {
                    Some(Err(message)) => view! {
                        <li class="reference-set error" role="alert" data-testid=set_testid(&set.set)>
                            {tr(&Phrase::new(key!("reference.not_shown")).data("name", native.name).phrase("why", message))}
                        </li>
                    }
                    .into_any(),
                    None | Some(Ok(_)) => view! {
                        <li class="reference-set" data-testid=set_testid(&set.set)>
                            <label>
                                <input type="checkbox" prop:checked=checked on:change=toggle />
                                <strong lang="en">{native.name}</strong>
                            </label>
                            <span class="provenance" lang="en">{format!("{} · {}", native.runtime, native.os)}</span>
                            <span class="provenance">{provenance}
                                " · "<a href=format!("data/native/{}.json", set.set) download="">{t(key!("reference.download"))}</a></span>
                        </li>
                    }
                    .into_any(),
                }
            })
            .collect_view()
            .into_any(),
    }
    };
    view! {
        <section class="card" data-testid="reference">
            <h2>{t(key!("reference.heading"))}</h2>
            <p class="lead">{t(key!("reference.lead"))}</p>
            <ul class="reference-sets">{list}</ul>
        </section>
    }
}

/// A comparison's view, in the comparisons' wasm chunk (their tables,
/// charts and what only they use).
#[wasm_split(comparisons, wasm_split_path = ::leptos::wasm_split, fallible)]
fn comparison_view(
    experiment: Experiment,
    report: RwSignal<Option<Report>>,
) -> Result<AnyView, SplitLoaderError> {
    // Made untracked, as a component is: what it reads while being made
    // must not make the suspense that awaits it start over.
    Ok(untrack(|| {
        view! { <Comparison experiment=experiment report=report /> }.into_any()
    }))
}

/// Where an experiment's comparison goes: it is made once the reader
/// reaches this place (its code is fetched then, the first time, and
/// never while a run measures; a part of the page below the first screen
/// costs its first load nothing).
#[component]
pub fn ComparisonBlock(
    /// Which experiment.
    experiment: Experiment,
    /// This browser's last run.
    report: RwSignal<Option<Report>>,
) -> impl IntoView {
    // Its texts first (the view is made with them), then its code.
    let made = move || async move {
        match part_ready(Part::Compare).await {
            Ok(()) => comparison_view(experiment, report).await.map(Ok),
            Err(why) => Ok(Err(why)),
        }
    };
    view! {
        <ReachedPlace name="comparison-place" after_run=key!("compare.after_run")>
            {move || chunked(made(), key!("compare.not_loaded"), |made| match made {
                Ok(view) => view,
                Err(why) => view! { <p class="error" role="alert" data-testid="texts-not-loaded">{tr(&why)}</p> }.into_any(),
            })}
        </ReachedPlace>
    }
}

/// One experiment's comparison: this browser's last run (if any) and the
/// shown reference sets, in one chart and one table.
#[component]
fn Comparison(
    /// Which experiment.
    experiment: Experiment,
    /// This browser's last run.
    report: RwSignal<Option<Report>>,
) -> impl IntoView {
    let sets = sets();
    let shared = expect_context::<LinkedRuns>();
    let experiments = expect_context::<Experiments>();
    // The sets' parts, fetched the first time a comparison is made and the
    // sets' index is in (after the run, if one is under way by then).
    Effect::new(move |_| {
        let index_in = sets.loading.with(|l| matches!(l, Loading::Done(_)));
        if index_in && !experiments.running() {
            spawn_local(async move { experiments.outside_runs(sets.load_parts()).await });
        }
    });
    move || {
        let references = sets.shown_reports();
        // This browser's run is colour 0, a bundled set keeps colour 1 + its
        // index, runs opened from links take the colours after those.
        let mut groups: Vec<(usize, Group)> = report
            .get()
            .filter(|r| !r.from_link)
            .and_then(|r| compare::group(experiment, &r))
            .map(|g| (0, g))
            .into_iter()
            .collect();
        shared.opened.with(|opened| {
            for (j, run) in opened.iter().enumerate() {
                if let Some(mut g) = compare::group(experiment, &run.report) {
                    g.source = Phrase::new(key!("compare.shared"))
                        .phrase("run", run.report.env.run_name());
                    groups.push((SHARED_COLOURS + j, g));
                }
            }
        });
        let mut silent = Vec::new();
        for (i, r) in &references {
            match compare::group(experiment, r) {
                Some(g) => groups.push((i + 1, g)),
                None => silent.push(r.env.short_name()),
            }
        }
        if groups.is_empty() && silent.is_empty() {
            return None;
        }
        let waiting = groups.iter().all(|(_, g)| g.origin != Origin::Browser);
        Some(view! {
            <div class="comparison" data-testid="comparison">
                <h3>{t(key!("compare.heading"))}
                    {waiting.then(|| view! { <small>{t(key!("compare.press_run"))}</small> })}
                </h3>
                {(!silent.is_empty()).then(|| view! {
                    <p class="lead">{tr(&Phrase::new(key!("compare.silent")).arg("sources", Arg::List(silent)))}</p>
                })}
                {(!groups.is_empty()).then(|| view! {
                    <ComparisonChart experiment=experiment groups=groups.clone() />
                    <Details summary=key!("compare.table")>
                        <ComparisonTable experiment=experiment groups=groups />
                    </Details>
                })}
            </div>
        })
    }
}

/// The comparison table: one body per source.
#[component]
fn ComparisonTable(
    /// Which experiment.
    experiment: Experiment,
    /// The sources with their colours.
    groups: Vec<(usize, Group)>,
) -> impl IntoView {
    let columns = experiment.columns();
    let marked = groups.iter().any(|(_, g)| {
        g.rows.iter().any(|r| {
            r.values
                .iter()
                .any(|v| matches!(v, Value::Unresolved { .. }))
        })
    });
    let bodies = groups
        .into_iter()
        .map(|(colour, g)| {
            let rows = g
                .rows
                .into_iter()
                .map(|row| {
                    let cells = row
                        .values
                        .iter()
                        .zip(columns)
                        .map(|(v, c)| match *v {
                            Value::Unresolved { value, figure_ms, clock } => {
                                marked_cell(num(&c.unit.format(value)), figure_ms, Some(clock)).into_any()
                            }
                            Value::Stated { .. } => view! {
                                <td class="num stated" title=t(key!("compare.stated_title"))>{num(&v.format(c.unit))}</td>
                            }
                            .into_any(),
                            Value::Absent | Value::Measured(_) => view! { <td class="num">{num(&v.format(c.unit))}</td> }.into_any(),
                        })
                        .collect_view();
                    view! {
                        <tr data-testid="cmp-row">
                            <td class="mech">{tr(&row.what)}
                                {row.notes.iter().map(|n| view! { <div class="note">{tr(n)}</div> }).collect_view()}
                            </td>
                            <td class="analogue">{tr(&row.analogue)}</td>
                            {cells}
                        </tr>
                    }
                })
                .collect_view();
            view! {
                <tbody data-testid=format!("group-{}", origin_id(g.origin))>
                    <tr class="group"><th colspan=2 + columns.len()>
                        <span class=format!("swatch src-{}", colour % COLOURS)></span>{tr(&g.source)}
                    </th></tr>
                    {rows}
                </tbody>
            }
        })
        .collect_view();
    view! {
        <div class="table-wrap">
            <table class="results compare" data-testid="comparison-table">
                <thead><tr>
                    <th>{t(key!("compare.what"))}</th>
                    <th>{t(key!("table.analogue"))}</th>
                    {columns.iter().map(|c| view! { <th class="num">{tr(&experiment.header(c))}</th> }).collect_view()}
                </tr></thead>
                {bodies}
            </table>
        </div>
        {marked.then(|| view! {
            <p class="note" data-testid="clock-note">{t(key!("compare.clock_note"))}</p>
        })}
    }
}

/// The shape of a charted column's mark.
fn mark(column: usize, x: f64, y: f64, class: String) -> Node {
    match column {
        0 => Node::new("circle")
            .class(class)
            .at("cx", x)
            .at("cy", y)
            .attr("r", "4"),
        1 => Node::rect(class, x - 3.5, y - 3.5, 7.0, 7.0),
        _ => Node::new("polygon").class(class).attr(
            "points",
            format!(
                "{},{} {},{} {},{} {},{}",
                coord(x),
                coord(y - 5.0),
                coord(x + 5.0),
                coord(y),
                coord(x),
                coord(y + 5.0),
                coord(x - 5.0),
                coord(y)
            ),
        ),
    }
}

/// A row label that fits left of the plot: at most 46 characters.
fn short_label(what: &str) -> String {
    if what.chars().count() <= 46 {
        what.to_owned()
    } else {
        what.chars().take(45).chain(['…']).collect()
    }
}

/// One charted value of a row: which mark (slot in the charted columns),
/// its span on the axis, and whether it is stated rather than measured.
struct ChartMark {
    slot: usize,
    lo: f64,
    hi: f64,
    stated: bool,
    unresolved: bool,
}

/// One row of the comparison chart.
struct ChartRow {
    colour: usize,
    label: String,
    /// What the row says in words: its name and charted figures.
    reading: String,
    marks: Vec<ChartMark>,
}

/// Every row's charted values on one log axis, coloured by source (as in
/// the table); a stated range is a bar from its low to its high end.
#[component]
fn ComparisonChart(
    /// Which experiment.
    experiment: Experiment,
    /// The sources with their colours.
    groups: Vec<(usize, Group)>,
) -> impl IntoView {
    const ROW: f64 = 18.0;
    const TOP: f64 = 8.0;
    let columns = experiment.columns();
    let charted: Vec<usize> = experiment
        .charted()
        .iter()
        .copied()
        .filter(|&c| columns[c].unit.to_axis(1.0).is_some())
        .collect();
    let all_rows = || groups.iter().flat_map(|(_, g)| &g.rows);
    let wait = compare::headline_wait(all_rows());
    let left_out = groups
        .iter()
        .any(|(_, g)| g.headline_rows(wait).count() < g.rows.len());
    let note = if groups.iter().any(|(_, g)| g.own_wait(wait) != wait) {
        key!("compare.headline_own")
    } else {
        key!("compare.headline")
    };
    let rows: Vec<ChartRow> = groups
        .iter()
        .flat_map(|(colour, g)| {
            let charted = &charted;
            g.headline_rows(wait).filter_map(move |r| {
                let marks: Vec<_> = charted
                    .iter()
                    .enumerate()
                    .filter_map(|(slot, &c)| {
                        let v = &r.values[c];
                        let (lo, hi) = v.span()?;
                        let to_axis = |x| columns[c].unit.to_axis(x).filter(|m| *m > 0.0);
                        Some(ChartMark {
                            slot,
                            lo: to_axis(lo)?,
                            hi: to_axis(hi)?,
                            stated: matches!(v, Value::Stated { .. }),
                            unresolved: matches!(v, Value::Unresolved { .. }),
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
                (!marks.is_empty()).then(|| ChartRow {
                    colour: *colour,
                    label: short_label(&what),
                    reading: format!("{what} — {}", figures.join("; ")),
                    marks,
                })
            })
        })
        .collect();
    if rows.is_empty() {
        return None;
    }
    let lo = rows
        .iter()
        .flat_map(|r| r.marks.iter().map(|m| m.lo))
        .fold(f64::INFINITY, f64::min);
    let hi = rows
        .iter()
        .flat_map(|r| r.marks.iter().map(|m| m.hi))
        .fold(0.0, f64::max);
    let left = label_width(rows.iter().map(|r| r.label.as_str()));
    let x = Scale::log_decades(lo, hi, 0.0001, left, WIDTH - 24.0);
    let any_unresolved = rows.iter().any(|r| r.marks.iter().any(|m| m.unresolved));
    let bottom = TOP + ROW * rows.len() as f64 + 4.0;
    let height = bottom + 60.0;
    // The axis on one line, what colours and shapes mean on the next:
    // in most languages the two do not fit on one.
    let caption = tr(&Phrase::new(if any_unresolved {
        key!("compare.chart_axis_faint")
    } else {
        key!("compare.chart_axis")
    })
    .phrase("axis", experiment.chart_axis()));
    let (axis, key_to_marks) = match caption.split_once(" · ") {
        Some((axis, rest)) => (axis.to_owned(), rest.to_owned()),
        None => (caption, String::new()),
    };
    let mut marks = x_axis(&x, TOP, bottom);
    marks.extend(rows.into_iter().enumerate().map(|(i, row)| {
        let y = TOP + ROW * (i as f64 + 0.5);
        let src = format!("src-{}", row.colour % COLOURS);
        let mut shapes = vec![
            hit(0.0, y - ROW / 2.0, WIDTH, ROW),
            row_label(left - 8.0, y + 4.0, left - 12.0, row.label),
        ];
        for ChartMark {
            slot,
            lo,
            hi,
            stated,
            unresolved,
        } in row.marks
        {
            if hi > lo {
                shapes.push(Node::line(
                    format!("stated-range {src}"),
                    x.map(lo),
                    y,
                    x.map(hi),
                    y,
                ));
            }
            let class = format!(
                "mark {src}{}{}",
                if stated { " stated" } else { "" },
                if unresolved { " unresolved" } else { "" }
            );
            shapes.push(mark(slot, x.map(lo), y, class));
        }
        reading(
            i == 0,
            Some(format!("cmp-mark-{}", row.colour)),
            row.reading,
            shapes,
        )
    }));
    marks.push(axis_label(bottom + 26.0, axis));
    marks.push(axis_label(bottom + 38.0, key_to_marks));
    let legend_y = height - 8.0;
    let headers: Vec<String> = charted
        .iter()
        .map(|&c| tr(&experiment.header(&columns[c])))
        .collect();
    let at = legend_row(
        16.0,
        &headers.iter().map(String::as_str).collect::<Vec<_>>(),
        9.0,
        24.0,
    );
    for (slot, (header, lx)) in headers.into_iter().zip(at).enumerate() {
        marks.push(mark(
            slot,
            lx,
            legend_y - 4.0,
            "mark legend-mark".to_owned(),
        ));
        marks.push(Node::label("axis-label", lx + 9.0, legend_y, None, header));
    }
    let aria = tr(&Phrase::new(key!("compare.chart_aria")).phrase("axis", experiment.chart_axis()));
    Some(view! {
        {chart_frame("headline", t(key!("compare.summary")), chart_svg(height, aria, marks))}
        {left_out.then(|| wait.map(|d| view! {
            <p class="note" data-testid="headline-note">{tr(&Phrase::new(note).count("d", d))}</p>
        }))}
    })
}
