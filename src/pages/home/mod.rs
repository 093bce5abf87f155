//! The playground page: Run all and the summary of its answers first, then
//! the environment block, the runs opened from links, the native sets,
//! then one section per experiment (its form and its
//! results in its folder, `crate::experiments::<slug>`; each form is a wasm
//! chunk made when the reader reaches it). With `?embed=<experiment>` the page is
//! one compact section for an iframe instead.

use crate::components::chunked::{ReachedPlace, chunked};
use crate::components::comparison::ReferencePanel;
use crate::components::env_block::EnvBlock;
use crate::components::links::{ExperimentOutput, SharePanel};
use crate::components::raw_report::RawReport;
use crate::components::recipe::Recipe;
use crate::components::run_all::RunAll;
use crate::components::run_controls::{RenderedResults, ResultsView, RunStatus};
use crate::components::scheme_picker::SchemePicker;
use crate::components::summary::{EngineLessons, Summary};
use crate::components::ticker::Ticker;
use crate::components::timeline::Timeline;
use crate::experiments::{FormChunk, OnPage, Visit, visit};
use crate::hooks::{
    Embedded, Experiments, LinkedRuns, UseEnvironment, embed_slug, use_embed, use_environment,
    use_experiments, use_linked_runs, use_reference_sets,
};
use crate::i18n::{Words, t, tr};
use leptos::prelude::*;
use leptos::wasm_split::{SplitLoaderError, wasm_split};
use waitlab_core::experiments::Experiment;
use waitlab_core::key;
use waitlab_core::lang::Lang;
use waitlab_core::schema::Report;
use waitlab_core::shared_memory::Off;
use waitlab_core::summary::Lesson;
use waitlab_core::summary::recipe::Platform;
use waitlab_core::text::Phrase;

/// `experiment`'s form, once its chunk is in.
fn form(experiment: Experiment) -> FormChunk {
    struct FormOf;
    impl Visit for FormOf {
        type Out = FormChunk;
        fn visit<E: OnPage>(self) -> FormChunk {
            E::form()
        }
    }
    visit(experiment, FormOf)
}

/// One experiment's section: its heading and explanation, its form (made
/// when the reader reaches it, at once in an embed), the progress and
/// notice of its run (so a run of "Run all" shows them before the reader
/// has reached the form) and its output.
#[component]
fn Section(
    /// Which experiment.
    experiment: Experiment,
    /// Its form is made at once (an embed).
    #[prop(optional)]
    now: bool,
) -> impl IntoView {
    let state = expect_context::<Experiments>().state(experiment);
    let paragraphs = experiment
        .explanation()
        .iter()
        .map(|&p| view! { <p>{t(p)}</p> })
        .collect_view();
    // Experiment 2a's animation shows the main thread blocked while its
    // run goes on, whoever started it.
    let ticker = (experiment == Experiment::MainStarvation).then(|| {
        view! { <Ticker running=Signal::derive(move || state.progress.with(Option::is_some)) /> }
    });
    view! {
        <section class="card experiment" id=experiment.slug() data-testid=experiment.slug()>
            <h2><span class="num-badge">{experiment.badge()}</span>" "{t(experiment.heading())}</h2>
            <div class="explain">{paragraphs}</div>
            {ticker}
            <ReachedPlace name="form-place" after_run=key!("form.after_run") now=now>
                {move || chunked(form(experiment), key!("form.not_loaded"), |form| form)}
            </ReachedPlace>
            <RunStatus progress=state.progress notice=state.notice unit=experiment.progress_unit() />
            <ExperimentOutput experiment=experiment report=state.report />
        </section>
    }
}

/// The results view of `experiment`'s part of `report`, if it has that
/// part: each section's findings, charts and tables.
fn results_of(experiment: Experiment, report: &Report) -> Option<AnyView> {
    struct ResultsOf<'a>(&'a Report);
    impl Visit for ResultsOf<'_> {
        type Out = Option<AnyView>;
        fn visit<E: OnPage>(self) -> Option<AnyView> {
            E::of(self.0).map(|e| e.results(self.0))
        }
    }
    visit(experiment, ResultsOf(report))
}

/// The results views, in the results' wasm chunk (every section's
/// findings, result charts and tables, the raw result, and what only they
/// use, with the share bars), fetched when the first run ends or the first result link
/// opens: a reader who only reads never fetches them.
#[wasm_split(results, wasm_split_path = ::leptos::wasm_split, fallible)]
fn results_view(
    experiment: Experiment,
    report: Report,
) -> Result<Option<AnyView>, SplitLoaderError> {
    // Made as a component is, untracked: what the views read while they
    // are made must not make the suspense that awaits them start over
    // (its results would leave the page and come back).
    Ok(untrack(|| {
        if report.from_link {
            land_on_shared(experiment);
        }
        let part = results_of(experiment, &report)?;
        // A run with no row of this browser is no result: it says so, and
        // its table (in the raw result) says why each row is missing.
        let part = if report.measured_anything(experiment) {
            part
        } else {
            view! {
                <p class="notice failed" role="alert" data-testid="nothing-measured">
                    {t(key!("results.nothing_measured"))}
                </p>
            }
            .into_any()
        };
        // The code to write for its lessons, on the full page (an embed
        // keeps to its chart); in an embed, its own engine's answer to
        // the lessons this reader's run could not measure.
        let lessons = if expect_context::<Embedded>().0 {
            (!report.from_link)
                .then(|| view! { <EngineLessons experiment=experiment report=report.clone() /> })
                .into_any()
        } else {
            let platform = RwSignal::new(Platform::Js);
            Lesson::of(experiment)
                .map(|lesson| view! { <Recipe lesson=lesson platform=platform named=true /> })
                .collect_view()
                .into_any()
        };
        Some(
            view! {
                {part}
                {lessons}
                <Timeline experiment=experiment report=report.clone() />
                <RawReport experiment=experiment report=report />
            }
            .into_any(),
        )
    }))
}

/// A result link opened on the full page lands on what it shared: this
/// section, or the summary when it shared several experiments (once its
/// lines are in).
fn land_on_shared(experiment: Experiment) {
    let linked = expect_context::<LinkedRuns>();
    if !linked.take_landing() {
        return;
    }
    let several = linked.opened.with_untracked(|o| {
        Experiment::ALL
            .iter()
            .filter(|&&e| o.iter().any(|r| r.report.has(e)))
            .count()
            > 1
    });
    let target = if several {
        "[data-testid=summary]".to_owned()
    } else {
        format!("[data-testid={}]", experiment.slug())
    };
    // The summary above fills in for a lesson's run: once it is in, the
    // section stays where it lands (WebKit keeps no scroll anchor).
    let lesson = Lesson::of(experiment).next().is_some();
    leptos::task::spawn_local(async move {
        use waitlab_browser::page::{exists, land_on};
        land_on(&target, || {
            several || !lesson || exists("[data-testid=summary]")
        })
        .await;
    });
}

/// [`results_view`] as the results block calls it.
fn render(experiment: Experiment, report: Report) -> RenderedResults {
    Box::pin(results_view(experiment, report))
}

/// The page: the whole playground, or one embedded experiment. Its state
/// (the runs, the sets, the links) lives here; what it renders is rendered
/// anew when the reader picks another language.
#[component]
pub fn App() -> impl IntoView {
    let embed = embed_slug();
    // An embed loads the native parts of its experiment only.
    let shown = match embed.as_deref().map(Experiment::from_slug) {
        Some(Some(experiment)) => vec![experiment],
        Some(None) => Vec::new(),
        None => Experiment::ALL.to_vec(),
    };
    provide_context(use_reference_sets(shown));
    provide_context(use_linked_runs());
    provide_context(use_environment());
    provide_context(use_experiments());
    let words = Words::new();
    provide_context(words);
    provide_context(Embedded(embed.is_some()));
    provide_context(ResultsView(render));
    move || {
        words.lang.track();
        match embed.clone() {
            Some(slug) => view! { <Embed slug=slug /> }.into_any(),
            None => view! { <Playground /> }.into_any(),
        }
    }
}

/// What `head.js` said when it could not isolate the page, in words: a
/// code (and the browser's message), or text as it came.
fn coi_problem(said: &str) -> Phrase {
    let (code, detail) = said.split_once(':').unwrap_or((said, ""));
    let key = match code {
        "needs_https" => key!("coi.needs_https"),
        "sandboxed" => key!("coi.sandboxed"),
        "no_service_worker" => key!("coi.no_service_worker"),
        "not_registered" => key!("coi.not_registered"),
        "still_not_isolated" => key!("coi.still_not_isolated"),
        "register_failed" => key!("coi.register_failed"),
        _ => return Phrase::written(said),
    };
    Phrase::new(key).data("detail", detail)
}

/// Shared memory is off: why (detected, never guessed) and what that
/// costs, said once at the top.
#[component]
fn NoSharedMemoryBanner(
    /// Why.
    off: Off,
) -> impl IntoView {
    let why = t(match off {
        Off::NoSharedArrayBuffer => key!("banner.no_sab"),
        Off::HostNotIsolated => key!("banner.not_isolated"),
        Off::FrameNotIsolatable => key!("embed.off_frame"),
    });
    let problem = expect_context::<UseEnvironment>().isolation_problem;
    let host = off == Off::HostNotIsolated;
    view! {
        <aside class="banner" data-testid="no-coi" data-off=format!("{off:?}") role="status">
            <strong>{t(key!("banner.heading"))}</strong>
            " "{why}
            {move || problem.get().filter(|_| host).map(|p| view! {
                <span data-testid="coi-problem">{tr(&Phrase::new(key!("banner.coi_problem")).phrase("why", coi_problem(&p)))}</span>
            })}
        </aside>
    }
}

/// The reader's language, and the others to pick from.
#[component]
fn LanguagePicker() -> impl IntoView {
    let words = expect_context::<Words>();
    let change = move |e: leptos::ev::Event| {
        if let Some(lang) = Lang::from_tag(&event_target_value(&e)) {
            words.switch(lang);
        }
    };
    view! {
        <label class="language">
            <span class="visually-hidden">{t(key!("page.language"))}</span>
            <select data-testid="language" on:change=change>
                {Lang::ALL.map(|l| view! {
                    <option value=l.code() selected=l == words.lang.get_untracked() lang=l.code()>{l.endonym()}</option>
                }).collect_view()}
            </select>
        </label>
        {move || words.switching.get().map(|s| match s {
            Ok(_) => view! { <span class="hint">"…"</span> }.into_any(),
            Err(e) => view! { <span class="error" role="alert">{e}</span> }.into_any(),
        })}
    }
}

/// The whole playground: the answer first (Run all and the summary it
/// fills in), then what the numbers depend on, then the sections.
#[component]
fn Playground() -> impl IntoView {
    let environment = expect_context::<UseEnvironment>();
    environment.measure_after_first_paint();
    let env = environment.env;
    view! {
        <header class="site">
            <div class="site-bar">
                <h1>"waitlab"</h1>
                <div class="pickers"><SchemePicker /><LanguagePicker /></div>
            </div>
            <p class="tagline">{t(key!("page.tagline"))}</p>
        </header>
        <main>
            <RunAll />
            <Summary />
            {move || environment.shared_memory_off().map(|off| view! { <NoSharedMemoryBanner off=off /> })}
            <section class="card">
                <h2>{t(key!("env.heading"))}</h2>
                <p class="lead">{t(key!("env.lead"))}</p>
                {move || match env.get() {
                    Some(env) => view! { <EnvBlock env=env /> }.into_any(),
                    None => view! { <p class="lead" data-testid="env-measuring">{t(key!("env.measuring"))}</p> }.into_any(),
                }}
            </section>
            <SharePanel />
            <ReferencePanel />
            {Experiment::ALL.map(|experiment| view! { <Section experiment=experiment /> }).collect_view()}
        </main>
        <footer class="site">{t(key!("page.footer"))}</footer>
    }
}

/// One experiment for an iframe: no site chrome, an "Open in waitlab"
/// link, and the page's height posted to the parent on every resize.
#[component]
fn Embed(
    /// The `?embed=` value.
    slug: String,
) -> impl IntoView {
    let open = use_embed().open_url;
    let environment = expect_context::<UseEnvironment>();
    let body = match Experiment::from_slug(&slug) {
        Some(experiment) => view! { <Section experiment=experiment now=true /> }.into_any(),
        None => view! {
            <p class="error" role="alert" data-testid="embed-unknown">
                {tr(&Phrase::new(key!("embed.unknown"))
                    .data("slug", slug.chars().take(40).collect::<String>())
                    .data("slugs", Experiment::ALL.map(|e| e.slug()).join(", ")))}
            </p>
        }
        .into_any(),
    };
    view! {
        <div class="embed" data-testid="embed">
            <div class="embed-bar">
                <strong>"waitlab"</strong>
                <a href=open target="_blank" rel="noopener" data-testid="open-in-waitlab">{t(key!("embed.open"))}</a>
            </div>
            // Why shared memory is off; the first screen said which rows
            // that costs, and each missing row says it again.
            {move || environment.shared_memory_off().map(|off| view! {
                <p class="embed-note" data-testid="no-coi" data-off=format!("{off:?}")>{t(off.embed_reason())}</p>
            })}
            {body}
        </div>
    }
}
