//! Results beside native numbers: the selector of bundled sets, and per
//! experiment one table and one chart where this browser's run, the native
//! probe's runs and the article's stated figures share columns. The rows
//! come from `waitlab_core::compare`; this file only draws them. The table
//! and the chart are in the comparisons' wasm chunk (with the reader of
//! links and packs, `hooks::reader`), fetched when the reader first
//! reaches a comparison or a link opens.

use crate::components::blocks::{Details, marked_cell};
use crate::components::charts::{
    LegendEntry, chart_frame, chart_svg, footer, hit, reading, row_label, x_axis,
};
use crate::components::chunked::{ReachedPlace, chunked};
use crate::hooks::{Embedded, Experiments, LinkedRuns, LoadedSet, Loading, ReferenceSets};
use leptos::task::spawn_local;
use leptos::wasm_split::{SplitLoaderError, wasm_split};
use waitlab_core::key;

/// Colours in the stylesheet (`src-0` …).
const COLOURS: usize = 8;
use crate::i18n::{num, part_ready, t, tr};
use leptos::prelude::*;
use waitlab_core::chart::{LINE_PX, RowLayout, Scale};
use waitlab_core::compare::verdict::{self, Judged, Verdict};
use waitlab_core::compare::{self, Group, Origin, Value};
use waitlab_core::experiments::Experiment;
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
        Origin::Engine => "engine",
    }
}

/// The `data-testid` of a set's entry: `set-` and its name.
fn set_testid(set: &str) -> String {
    format!("set-{}", set.replace('.', "-"))
}

/// One bundled set in the panel: its box, its name and where it comes
/// from, or why it is not shown.
fn reference_item(set: LoadedSet) -> AnyView {
    let sets = sets();
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
        Some(Err(message)) => {
            // Why, in a link's words: the runs' texts, fetched
            // only for this.
            let said = Phrase::new(key!("reference.not_shown"))
                .data("name", native.name)
                .phrase("why", message);
            let ready = RwSignal::new(false);
            spawn_local(async move {
                let _ = part_ready(Part::Runs).await;
                ready.set(true);
            });
            view! {
                <li class="reference-set error" data-testid=set_testid(&set.set)>
                    <span role="alert">{move || ready.get().then(|| tr(&said))}</span>
                </li>
            }
            .into_any()
        }
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
}

/// The card of the bundled sets: its heading and lead on the first
/// screen, its list (which sets, where each comes from, a box to show
/// it) made from the comparisons' chunk once the reader reaches it.
#[component]
pub fn ReferencePanel() -> impl IntoView {
    // Its texts first (the list is made with them), then its code.
    let made = move || async move {
        match part_ready(Part::Compare).await {
            Ok(()) => reference_list_view().await.map(Ok),
            Err(why) => Ok(Err(why)),
        }
    };
    view! {
        <section class="card" data-testid="reference">
            <h2>{t(key!("reference.heading"))}</h2>
            <p class="lead">{t(key!("reference.lead"))}</p>
            <ReachedPlace name="reference-place" after_run=key!("compare.after_run")>
                {move || chunked(made(), key!("compare.not_loaded"), |made| match made {
                    Ok(view) => view,
                    Err(why) => view! { <p class="error" role="alert" data-testid="texts-not-loaded">{tr(&why)}</p> }.into_any(),
                })}
            </ReachedPlace>
        </section>
    }
}

/// The bundled sets' list, in the comparisons' wasm chunk.
#[wasm_split(comparisons, wasm_split_path = ::leptos::wasm_split, fallible)]
fn reference_list_view() -> Result<AnyView, SplitLoaderError> {
    Ok(untrack(|| view! { <ReferenceList /> }.into_any()))
}

/// The bundled sets, in two groups where both are there: browser engines,
/// then native runs and the article (each set keeps its place, and its
/// colour, in the index); or where loading stands.
#[component]
fn ReferenceList() -> impl IntoView {
    let sets = sets();
    move || {
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
        Loading::Done(loaded) => {
            // Two groups, browsers and native, each under its heading where
            // both are there; a set keeps its place (and colour) in each.
            let (engines, native): (Vec<_>, Vec<_>) = loaded
                .into_iter()
                .partition(|set| set.native.is_engine());
            let both = !engines.is_empty() && !native.is_empty();
            [(key!("reference.group_engines"), engines), (key!("reference.group_native"), native)]
                .into_iter()
                .filter(|(_, sets)| !sets.is_empty())
                .map(|(heading, group)| view! {
                    {both.then(|| view! { <h3 class="reference-group">{t(heading)}</h3> })}
                    <ul class="reference-sets">{group.into_iter().map(reference_item).collect_view()}</ul>
                })
                .collect_view()
                .into_any()
        }
    }
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
    let embedded = use_context::<Embedded>().is_some_and(|e| e.0);
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
        let shared_colours = 1 + sets.listed();
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
                    groups.push((shared_colours + j, g));
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
        // Browsers first, then native runs and the article.
        groups.sort_by_key(|(_, g)| g.origin);
        // The engines' differences in kind, from every bundled engine set
        // (shown or not); an embed keeps to its chart.
        let engines = sets.engine_reports();
        let differences = if embedded {
            Vec::new()
        } else {
            compare::engines::differences(
                experiment,
                &engines.iter().map(AsRef::as_ref).collect::<Vec<_>>(),
            )
        };
        let waiting = groups.iter().all(|(_, g)| g.origin != Origin::Browser);
        let verdicts = Verdicts::of(&groups);
        // An embed keeps to its chart: the verdicts are in the table, on
        // the page it opens.
        let summaries: Vec<(usize, Phrase)> = match &verdicts {
            Some(v) if !embedded => v.summaries(&groups),
            _ => Vec::new(),
        };
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
                    {summaries.iter().map(|(colour, s)| view! {
                        <p class="lead" data-testid="verdict-summary">
                            <span class=format!("swatch src-{}", colour % COLOURS)></span>{tr(s)}
                        </p>
                    }).collect_view()}
                    <Details summary=key!("compare.table")>
                        <ComparisonTable experiment=experiment groups=groups verdicts=verdicts />
                    </Details>
                })}
                {(!differences.is_empty()).then(|| view! { <EngineDifferences differences=differences /> })}
            </div>
        })
    }
}

/// What differs between engines, closed at first: its sentences (whose
/// reasons are a run's words) are said once the reader opens it and the
/// runs' texts are in, which a page never fetches before.
#[component]
fn EngineDifferences(
    /// One sentence per difference.
    differences: Vec<Phrase>,
) -> impl IntoView {
    let ready = RwSignal::new(false);
    let opened = move |_| {
        if !ready.get_untracked() {
            spawn_local(async move {
                let _ = part_ready(Part::Runs).await;
                ready.set(true);
            });
        }
    };
    view! {
        <details class="details" data-testid="details" on:toggle=opened>
            <summary>{t(key!("compare.engines.heading"))}</summary>
            <div data-testid="engine-differences">
                <p class="lead">{t(key!("compare.engines.lead"))}</p>
                {move || ready.get().then(|| view! {
                    <ul>{differences.iter().map(|d| view! { <li>{tr(d)}</li> }).collect_view()}</ul>
                })}
            </div>
        </details>
    }
}

/// The comparison table: one body per source.
#[component]
fn ComparisonTable(
    /// Which experiment.
    experiment: Experiment,
    /// The sources with their colours.
    groups: Vec<(usize, Group)>,
    /// Each source's verdicts against one of them, if two are shown.
    verdicts: Option<Verdicts>,
) -> impl IntoView {
    let columns = experiment.columns();
    let marked = groups.iter().any(|(_, g)| {
        g.rows.iter().any(|r| {
            r.values
                .iter()
                .any(|v| matches!(v, Value::Unresolved { .. }))
        })
    });
    let notes = verdicts.as_ref().map(|v| v.notes(&groups));
    let heading = verdicts.as_ref().and_then(|v| v.heading(&groups));
    let span = 2 + columns.len() + usize::from(heading.is_some());
    let bodies = groups
        .into_iter()
        .enumerate()
        .map(|(i, (colour, g))| {
            let judged = verdicts.as_ref().map(|v| v.judged[i].clone());
            let rows = g
                .rows
                .into_iter()
                .enumerate()
                .map(|(j, row)| {
                    let cells = row
                        .values
                        .iter()
                        .zip(&columns)
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
                            {judged.as_ref().and_then(|judged| judged.get(j)).map(verdict_cell)}
                        </tr>
                    }
                })
                .collect_view();
            view! {
                <tbody data-testid=format!("group-{}", origin_id(g.origin))>
                    <tr class="group"><th colspan=span>
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
                    {heading.map(|h| view! { <th>{tr(&h)}</th> })}
                </tr></thead>
                {bodies}
            </table>
        </div>
        {marked.then(|| view! {
            <p class="note" data-testid="clock-note">{t(key!("compare.clock_note"))}</p>
        })}
        {notes.into_iter().flatten().map(|n| view! { <p class="note" data-testid="verdict-note">{tr(&n)}</p> }).collect_view()}
    }
}

/// Each source's verdicts against the first with samples (this browser's
/// run when there is one), when more than one source is shown.
#[derive(Clone)]
struct Verdicts {
    /// The index of the source the others are compared with, if one has
    /// samples.
    base: Option<usize>,
    /// Per source, per row (empty without a base).
    judged: Vec<Vec<Judged>>,
}

impl Verdicts {
    fn of(groups: &[(usize, Group)]) -> Option<Verdicts> {
        if groups.len() < 2 {
            return None;
        }
        let base = verdict::base(groups.iter().map(|(_, g)| g));
        let judged = groups
            .iter()
            .map(|(_, g)| match base {
                Some(b) => verdict::judge(&groups[b].1, g),
                None => Vec::new(),
            })
            .collect();
        Some(Verdicts { base, judged })
    }

    /// The column's heading, if there is a column.
    fn heading(&self, groups: &[(usize, Group)]) -> Option<Phrase> {
        self.base.map(|b| verdict::heading(&groups[b].1))
    }

    /// One sentence per source beside the base, with the source's colour.
    fn summaries(&self, groups: &[(usize, Group)]) -> Vec<(usize, Phrase)> {
        let Some(b) = self.base else {
            return Vec::new();
        };
        let each = groups.iter().zip(&self.judged);
        each.filter_map(|((colour, g), judged)| {
            Some((*colour, verdict::summary(&groups[b].1, g, judged)?))
        })
        .collect()
    }

    /// What the table's verdicts are, or why it has none.
    fn notes(&self, groups: &[(usize, Group)]) -> Vec<Phrase> {
        let Some(b) = self.base else {
            return vec![Phrase::new(key!("compare.verdict.no_samples"))];
        };
        let approximate = self
            .judged
            .iter()
            .flatten()
            .any(|j| matches!(j, Judged::Tested(t) if t.approximate));
        let mut notes = vec![verdict::note(&groups[b].1)];
        if approximate {
            notes.push(Phrase::new(key!("compare.verdict.approximate_note")));
        }
        notes
    }
}

/// A row's verdict, or why it has none, with the test's figures under it.
fn verdict_cell(judged: &Judged) -> impl IntoView + use<> {
    let (said, notes) = judged.phrases();
    let verdict = judged.verdict();
    // A difference found is said in bold; "same" and the reasons for no
    // verdict are not (all in the muted small type of the analogues).
    let said = match verdict {
        Some(Verdict::Faster | Verdict::Slower) => {
            view! { <strong>{tr(&said)}</strong> }.into_any()
        }
        _ => tr(&said).into_any(),
    };
    view! {
        <td class="analogue" data-testid="verdict" data-verdict=verdict.map(|v| v.id())>
            {said}
            {notes.iter().map(|n| view! { <div class="note">{tr(n)}</div> }).collect_view()}
        </td>
    }
}

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
}

/// One row of the comparison chart.
struct ChartRow {
    colour: usize,
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
fn ComparisonChart(
    /// Which experiment.
    experiment: Experiment,
    /// The sources with their colours.
    groups: Vec<(usize, Group)>,
) -> impl IntoView {
    const ROW: f64 = 16.0;
    const TOP: f64 = 8.0;
    let columns = experiment.columns();
    let charted: Vec<usize> = (0..columns.len())
        .filter(|&c| columns[c].charted && columns[c].unit.to_axis(1.0).is_some())
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
            let (charted, columns) = (&charted, &columns);
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
                            band: v.clock_band().and_then(|(lo, hi)| {
                                Some((columns[c].unit.to_axis(lo)?, to_axis(hi)?))
                            }),
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
                    reading: format!("{what} — {}", figures.join("; ")),
                    label: what,
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
    let source = |colour: usize, text: String| LegendEntry {
        symbol: Some(Box::new(move |x, y| {
            Node::rect(
                format!("swatch-mark src-{}", colour % COLOURS),
                x - 5.0,
                y - 5.0,
                10.0,
                10.0,
            )
        })),
        class: "legend-source".to_owned(),
        text,
    };
    let mut legend: Vec<LegendEntry> = groups
        .iter()
        .filter(|(colour, _)| rows.iter().any(|r| r.colour == *colour))
        .map(|(colour, g)| source(*colour, tr(&g.source)))
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
    let axis = tr(&experiment.chart_axis());
    let aria = tr(&Phrase::new(key!("compare.chart_aria")).phrase("axis", experiment.chart_axis()));
    let draw = move |width: f64| {
        let layout = RowLayout::new(rows.iter().map(|r| r.label.as_str()), width, ROW);
        let bottom = TOP + layout.pitch * rows.len() as f64 + 4.0;
        let x = Scale::log_decades(lo, hi, 0.0001, layout.left, width - 24.0);
        let mut marks = x_axis(&x, TOP, bottom, width);
        marks.extend(rows.iter().enumerate().map(|(i, row)| {
            let y = layout.centre(TOP, i);
            let src = format!("src-{}", row.colour % COLOURS);
            let own = row.colour == 0;
            let mut shapes = vec![
                hit(0.0, y + ROW / 2.0 - layout.pitch, width, layout.pitch),
                row_label(layout.label(y), &row.label),
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
                Some(format!("cmp-mark-{}", row.colour)),
                row.reading.clone(),
                shapes,
            )
        }));
        let (under, height) = footer(width, 12.0, bottom + 14.0 + LINE_PX, &legend, &axis);
        marks.extend(under);
        chart_svg(width, height, aria.clone(), marks)
    };
    Some(view! {
        {chart_frame("headline", t(key!("compare.summary")), draw)}
        {left_out.then(|| wait.map(|d| view! {
            <p class="note" data-testid="headline-note">{tr(&Phrase::new(note).count("d", d))}</p>
        }))}
    })
}
