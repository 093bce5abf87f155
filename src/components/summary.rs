//! The answer first: one line per lesson of the article (core's
//! `summary`), at the top of the page, filled in as experiments finish,
//! each with this browser's figures beside the native sets' and the
//! article's, a link to its section, and the code to write (`recipe`).
//! Its view is in the results' wasm chunk (fetched when the first run ends
//! or a result link opens); the page keeps only what decides whether to
//! show it.

use crate::components::chunked::chunked;
use crate::components::recipe::Recipe;
use crate::hooks::{Experiments, Notice, ReferenceSets};
use crate::i18n::{t, tr};
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos::wasm_split::{SplitLoaderError, wasm_split};
use std::sync::Arc;
use waitlab_browser::page;
use waitlab_core::experiments::Experiment;
use waitlab_core::experiments::spin_ladder::lessons::SPIN_BRIEFLY;
use waitlab_core::key;
use waitlab_core::schema::Report;
use waitlab_core::summary::recipe::Platform;
use waitlab_core::summary::{Lesson, Ran, line, own_engine_answer};
use waitlab_core::text::{Arg, Phrase};

/// The summary, once any lesson's experiment has a result (this
/// browser's, or one opened from a link).
#[component]
pub fn Summary() -> impl IntoView {
    let experiments = expect_context::<Experiments>();
    let sets = expect_context::<ReferenceSets>();
    move || {
        let runs: Vec<Option<Report>> = Lesson::all()
            .iter()
            .map(|l| {
                let state = experiments.state(l.experiment());
                // What its section says, which the view reads.
                state.notice.track();
                state.report.get()
            })
            .collect();
        if runs.iter().all(Option::is_none) {
            return None;
        }
        let native = sets.shown_reports().into_iter().map(|(_, r)| r).collect();
        Some(chunked(
            summary_view(runs, native),
            key!("results.not_loaded_view"),
            |view| view,
        ))
    }
}

/// The summary's card: a line per lesson from `runs` (each lesson's
/// experiment's result, if any, beside what its section says) and the
/// bundled `sets`.
#[wasm_split(results, wasm_split_path = ::leptos::wasm_split, fallible)]
fn summary_view(
    runs: Vec<Option<Report>>,
    sets: Vec<Arc<Report>>,
) -> Result<AnyView, SplitLoaderError> {
    // The native sets' parts, as a comparison fetches them (the code that
    // reads them is in the chunks, never the first load). The summary is
    // made again when they are in.
    let experiments = expect_context::<Experiments>();
    expect_context::<ReferenceSets>().load_parts_when_idle(experiments);
    // Made untracked, as a component is (see `chunked`).
    Ok(untrack(|| {
        let sets: Vec<&Report> = sets.iter().map(Arc::as_ref).collect();
        // What each lesson's section says where it has no report: a
        // cancelled run is no answer (the lesson is not run yet).
        let lessons = Lesson::all();
        let notices: Vec<Option<Notice>> = lessons
            .iter()
            .map(|l| {
                experiments
                    .state(l.experiment())
                    .notice
                    .get_untracked()
                    .filter(|n| n.text.key != key!("run.cancelled"))
            })
            .collect();
        let reports = || runs.iter().flatten();
        let shared = reports().all(|r| r.from_link);
        // The spin-vs-wake crossover, from this browser's wake-ups, which
        // the spin ladder's lesson quotes.
        let wake = reports().find_map(|r| r.wake_latency.as_ref()?.crossover(r.env.clock));
        let platform = RwSignal::new(Platform::Js);
        let mut marked = false;
        let lines = lessons
            .into_iter()
            .zip(runs.iter().zip(&notices))
            .map(|(lesson, (report, notice))| {
                let ran = match (report, notice) {
                    (Some(report), _) => Ran::Report(report),
                    (None, Some(notice)) => Ran::Refused(&notice.text),
                    (None, None) => Ran::NotYet,
                };
                let line = line(lesson, ran, &sets);
                marked |= line.marked;
                let slug = lesson.experiment().slug();
                let go = move |e: leptos::ev::MouseEvent| {
                    e.prevent_default();
                    spawn_local(async move {
                        page::scroll_and_keep(&format!("[data-testid={slug}]")).await;
                    });
                };
                let part = |key, arg: Arg| tr(&Phrase::new(key).arg("figures", arg));
                let here = line
                    .run
                    .map(|p| part(key!("summary.here"), Arg::Phrase(Box::new(p))));
                let why = line.why.map(|p| {
                    tr(&Phrase::new(key!("summary.why")).arg("why", Arg::Phrase(Box::new(p))))
                });
                let native = (!line.native.is_empty()).then(|| {
                    tr(&Phrase::new(key!("summary.native")).arg("sources", Arg::List(line.native)))
                });
                let article = line
                    .article
                    .map(|p| part(key!("summary.article"), Arg::Phrase(Box::new(p))));
                let figures = [here, why, native, article]
                    .into_iter()
                    .flatten()
                    .map(|text| {
                        view! { <span class="figures">{text}</span> }
                    });
                view! {
                    <li data-lesson=lesson.id() data-verdict=line.verdict.id()>
                        <a href=format!("#{slug}") on:click=go>{tr(&lesson.phrase())}</a>
                        " "<strong class="verdict">{tr(&line.verdict.phrase())}</strong>
                        {figures.collect_view()}
                        <Recipe lesson=lesson platform=platform
                            extra=(lesson.id() == SPIN_BRIEFLY).then(|| wake.clone()).flatten() />
                    </li>
                }
            })
            .collect_view();
        // What ‡ means, by the clock of the runs it marks (as findings say).
        let clock_note = marked
            .then(|| reports().find_map(|r| r.env.clock))
            .flatten()
            .map(|c| {
                tr(&Phrase::new(key!("finding.clock_note"))
                    .ms("resolution", c.resolution_ms())
                    .count("steps", waitlab_core::clock::RESOLVED_STEPS as u64)
                    .ms("step", c.tolerance_ms()))
            });
        view! {
            <section class="card summary" data-testid="summary">
                <h2>{t(key!("summary.heading"))}</h2>
                <p class="lead">{t(key!("summary.lead"))}</p>
                {shared.then(|| view! { <p class="hint">{t(key!("summary.shared"))}</p> })}
                <ul class="lessons">{lines}</ul>
                {clock_note.map(|note| view! { <p class="hint">{note}</p> })}
                <p class="hint" data-testid="recipe-checked">{t(key!("recipe.checked"))}</p>
            </section>
        }
        .into_any()
    }))
}

/// In an embed, each of `experiment`'s lessons that the reader's run
/// `report` could not measure for want of shared memory, as the bundled
/// set of the reader's own engine answers it (core's `own_engine_answer`),
/// once the sets' parts are in; nothing where the run measured them all.
#[component]
pub fn EngineLessons(
    /// The embedded experiment.
    experiment: Experiment,
    /// The reader's run of it.
    report: Report,
) -> impl IntoView {
    let sets = expect_context::<ReferenceSets>();
    sets.load_parts_when_idle(expect_context::<Experiments>());
    move || {
        let engines = sets.engine_reports();
        let engines: Vec<&Report> = engines.iter().map(Arc::as_ref).collect();
        let answers: Vec<_> = Lesson::of(experiment)
            .filter_map(|lesson| own_engine_answer(lesson, &report, &engines))
            .collect();
        (!answers.is_empty()).then(|| {
            let lines = answers.into_iter().map(|a| {
                view! {
                    <li data-testid="engine-lesson" data-lesson=a.lesson.id() data-verdict=a.verdict.id()>
                        {tr(&a.lesson.phrase())}" "<strong class="verdict">{tr(&a.verdict.phrase())}</strong>
                        <span class="figures">{tr(&a.said)}</span>
                    </li>
                }
            });
            view! {
                <div class="summary engine-lessons" data-testid="engine-lessons">
                    <p class="lead">{t(key!("summary.engine_lead"))}</p>
                    <ul class="lessons">{lines.collect_view()}</ul>
                </div>
            }
        })
    }
}
