//! Results beside native numbers: the selector of bundled sets, and per
//! experiment one table and one chart where this browser's run, the native
//! probe's runs and the article's stated figures share columns. The rows
//! come from `waitlab_core::compare`; this file only draws them. The table
//! and the chart are in the comparisons' wasm chunk (with the reader of
//! links and packs, `hooks::reader`), fetched when the reader first
//! reaches a comparison or a link opens.

mod chart;
mod source;
mod table;

use crate::components::blocks::Details;
use crate::components::chunked::{ReachedPlace, chunked};
use crate::hooks::{Embedded, Experiments, LinkedRuns, LoadedSet, Loading, ReferenceSets};
use chart::ComparisonChart;
use leptos::task::spawn_local;
use leptos::wasm_split::{SplitLoaderError, wasm_split};
use source::Tag;
use table::{ComparisonTable, Verdicts};
use waitlab_core::key;

use crate::i18n::{part_ready, t, tr};
use leptos::prelude::*;
use waitlab_core::compare::{self, Group, Origin};
use waitlab_core::experiments::Experiment;
use waitlab_core::schema::Report;
use waitlab_core::text::{Arg, Part, Phrase};

/// The reference sets from context (provided by the page).
fn sets() -> ReferenceSets {
    expect_context::<ReferenceSets>()
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
    // A set's runtime and system are its author's data, names and
    // versions shown as written; the words around its name, CPU and
    // source are the page's.
    let provenance = tr(&set.native.provenance(set.cores));
    let native = set.native;
    match set.report {
        Some(Err(message)) => {
            // Why, in a link's words: the runs' texts, fetched
            // only for this.
            let said = Phrase::new(key!("reference.not_shown"))
                .phrase("name", native.short_name())
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
                    <strong>{tr(&native.short_name())}</strong>
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
    sets.load_parts_when_idle(experiments);
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
                if let Some(g) = compare::group(experiment, &run.report) {
                    groups.push((shared_colours + j, g));
                }
            }
        });
        // A native set has nothing of an experiment no program can run
        // (a hidden tab), which the comparison says once, with why.
        let browser_only = !experiment.meta().runs_natively();
        let (mut silent, mut no_native) = (Vec::new(), false);
        for (i, r) in &references {
            match compare::group(experiment, r) {
                Some(g) => groups.push((i + 1, g)),
                None if browser_only && r.env.is_native() => no_native = true,
                None => silent.push(r.env.short_name()),
            }
        }
        if groups.is_empty() && silent.is_empty() && !no_native {
            return None;
        }
        // Browsers first, then native runs and the article; each named
        // apart from the others and lettered in that order.
        groups.sort_by_key(|(_, g)| g.origin);
        compare::distinct_names(groups.iter_mut().map(|(_, g)| g));
        let groups: Vec<(Tag, Group)> = groups
            .into_iter()
            .enumerate()
            .map(|(i, (colour, g))| {
                (
                    Tag {
                        colour,
                        letter: compare::marker(i),
                    },
                    g,
                )
            })
            .collect();
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
        let verdicts = Verdicts::of(experiment, &groups);
        // An embed keeps to its chart: the verdicts are in the table, on
        // the page it opens. Beside the reader's own run, a run it was
        // given in a link (the blogger's) is one sentence of verdicts
        // rather than a second set of rows, where its rows were tested,
        // so that the embed still fits the frame a blog gives it
        // (WordPress's 1,000 px).
        let compact = embedded && !waiting;
        let summaries: Vec<(Tag, Phrase)> = match &verdicts {
            Some(v) if !embedded => v.summaries(&groups),
            Some(v) if compact => v
                .summaries(&groups)
                .into_iter()
                .filter(|(tag, _)| tag.colour >= shared_colours)
                .collect(),
            _ => Vec::new(),
        };
        let said = |tag: &Tag| compact && summaries.iter().any(|(t, _)| t == tag);
        let charted: Vec<(Tag, Group)> = groups
            .iter()
            .filter(|(tag, _)| !said(tag))
            .cloned()
            .collect();
        Some(view! {
            <div class="comparison" data-testid="comparison">
                <h3>{t(key!("compare.heading"))}
                    {waiting.then(|| view! { <small>{t(key!("compare.press_run"))}</small> })}
                </h3>
                {no_native.then(|| view! {
                    <p class="lead" data-testid="no-native">{t(key!("compare.no_native"))}</p>
                })}
                {(!silent.is_empty()).then(|| view! {
                    <p class="lead">{tr(&Phrase::new(key!("compare.silent")).arg("sources", Arg::List(silent)))}</p>
                })}
                {(!groups.is_empty()).then(|| view! {
                    <ComparisonChart experiment=experiment groups=charted />
                    {summaries.iter().map(|(tag, s)| view! {
                        <p class="lead" data-testid="verdict-summary">{tag.swatch()}{tr(s)}</p>
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
