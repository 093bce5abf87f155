//! Result links: the per-experiment output (results, share bar,
//! comparison), the panel of runs opened from links, and the embed's frame. Every piece
//! of a link that reaches the page is decoded by `waitlab_core::link` (the
//! browser inflating it, `waitlab_browser::links`) and rendered as text.

use crate::components::charts::ChartSource;
use crate::components::chunked::chunked;
use crate::components::comparison::ComparisonBlock;
use crate::components::run_controls::Results;
use crate::hooks::{Embedded, Experiments, LinkedRuns, Timed, attach};
use crate::i18n::{lang, t, tr};
use leptos::context::Provider;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos::wasm_split::{SplitLoaderError, wasm_split};
use waitlab_browser::{links, location};
use waitlab_core::experiments::Experiment;
use waitlab_core::experiments::timed_waits::{CellKey, TimedWaits};
use waitlab_core::experiments::wake_latency::{Strategy, WakeLatency};
use waitlab_core::key;
use waitlab_core::link::MAX_LINK_CHARS;
use waitlab_core::schema::Report;
use waitlab_core::text::Key;
use waitlab_core::text::{Arg, Phrase};

fn shared() -> LinkedRuns {
    expect_context::<LinkedRuns>()
}

/// A text to copy: the button that copies it, then the text itself (so it
/// can be copied by hand where the clipboard is refused) and its length.
/// The button waits until the text is made (links are compressed by the
/// browser, a moment after the run), so copying stays inside the click.
#[component]
fn CopyField(
    /// The button's label, as a catalog key.
    label: Key,
    /// `data-testid` of the field.
    testid: &'static str,
    /// The text to copy, once made, or why it could not be.
    text: Signal<Option<Result<String, String>>>,
) -> impl IntoView {
    let shown = RwSignal::new(false);
    let status = RwSignal::new(None::<String>);
    // A text made anew (a reader's own way timed beside the run) shows
    // anew, and has not been copied yet.
    Effect::new(move |_| {
        text.track();
        status.set(None);
    });
    let copy = move |_| {
        let Some(Ok(value)) = text.get_untracked() else {
            return;
        };
        shown.set(true);
        spawn_local(async move {
            status.set(Some(match location::copy_text(&value).await {
                Ok(()) => t(key!("share.copied")),
                Err(e) => tr(&Phrase::new(key!("share.copy_by_hand")).data("why", e)),
            }));
        });
    };
    view! {
        <button type="button" data-testid=format!("{testid}-button") on:click=copy
            disabled=move || !matches!(text.get(), Some(Ok(_)))>{t(label)}</button>
        {move || match text.get() {
            Some(Err(e)) => Some(view! { <p class="error" role="alert">{tr(&Phrase::new(key!("share.no_link")).data("why", e))}</p> }.into_any()),
            Some(Ok(t)) if shown.get() => Some(view! {
                <div class="copy-field">
                    <input readonly data-testid=testid prop:value=t.clone()
                        on:focus=|e| { event_target::<web_sys::HtmlInputElement>(&e).select(); } />
                    <span class="hint">{tr(&Phrase::new(key!("share.characters")).count("count", t.chars().count() as u64))}
                        {move || status.get().map(|s| format!(" · {s}"))}</span>
                </div>
            }.into_any()),
            _ => None,
        }}
    }
}

/// What a share bar shares.
enum Shared {
    /// One experiment's run.
    Run(Experiment, Box<Report>),
    /// Every run made here (this browser's latest of each experiment).
    All(RwSignal<Vec<Report>>),
}

/// A share bar: its copy fields, the payloads they copy and the link's
/// writer (the body's encoder of every section, and the browser's
/// compression around it) are in the results' wasm chunk, with the
/// results views, fetched when the first run ends or a result link opens:
/// a reader who only reads never fetches the writer.
#[wasm_split(results, wasm_split_path = ::leptos::wasm_split, fallible)]
fn share_view(shared: Shared) -> Result<AnyView, SplitLoaderError> {
    // Made untracked, as a component is (see `chunked`).
    Ok(untrack(|| match shared {
        Shared::Run(experiment, report) => {
            view! { <ShareBar experiment=experiment report=*report /> }.into_any()
        }
        Shared::All(mine) => view! { <ShareAll mine=mine /> }.into_any(),
    }))
}

/// [`share_view`] on the page, once its chunk is in.
fn share(shared: Shared) -> impl IntoView {
    chunked(share_view(shared), key!("share.not_loaded"), |view| view)
}

/// The payload of `report` once the browser has compressed it: `None`
/// until then. Compression waits while an experiment runs (its promise
/// would land on the main thread inside a measured wait), and starts once
/// the page has drawn the report, so a long series shows first and its
/// link a moment later.
fn payload_of(report: Signal<Option<Report>>) -> RwSignal<Option<Result<String, String>>> {
    let payload = RwSignal::new(None);
    let waiting = RwSignal::new(None::<Report>);
    Effect::new(move |_| {
        payload.set(None);
        waiting.set(report.get());
    });
    let experiments = expect_context::<Experiments>();
    // Only the newest report's payload lands, whichever finishes first.
    let newest = StoredValue::new(0u64);
    Effect::new(move |_| {
        if experiments.running() || waiting.with(Option::is_none) {
            return;
        }
        newest.update_value(|n| *n += 1);
        let this = newest.get_value();
        if let Some(r) = waiting.try_update_untracked(Option::take).flatten() {
            spawn_local(async move {
                let encoded = experiments
                    .outside_runs(async {
                        waitlab_browser::wait::let_page_render().await;
                        links::encode(&r).await
                    })
                    .await;
                // A link no page would read (a reader's long code in it)
                // says so rather than being copied.
                let encoded = encoded.and_then(|p| match p.len() {
                    n if n > MAX_LINK_CHARS => Err(tr(&Phrase::new(key!("share.too_long"))
                        .count("count", n as u64)
                        .count("most", MAX_LINK_CHARS as u64))),
                    _ => Ok(p),
                });
                // The bar may be gone by now (another run replaced it).
                if newest.try_get_value() == Some(this) {
                    payload.try_set(Some(encoded));
                }
            });
        }
    });
    payload
}

/// `report` with the reader's own ways of waiting timed beside its runs.
fn with_own(report: Report, own: Timed<CellKey>, pair: Timed<Strategy>) -> Report {
    attach::<WakeLatency>(attach::<TimedWaits>(report, own), pair)
}

/// Share and embed buttons for the run shown (this browser's, or a shared
/// one passed on).
#[component]
fn ShareBar(
    /// The experiment.
    experiment: Experiment,
    /// The run.
    report: Report,
) -> impl IntoView {
    // A reader's own ways of waiting, timed beside this run, go with it.
    let (own, pair) = (shared().own.timed(), shared().pair.timed());
    let payload = payload_of(Signal::derive(move || {
        Some(with_own(report.clone(), own.get(), pair.get()))
    }));
    let link = Signal::derive(move || {
        payload
            .get()
            .map(|p| p.map(|p| format!("{}#{p}", page_link())))
    });
    let embed = Signal::derive(move || {
        payload.get().map(|p| {
            p.map(|p| {
                embed_snippet(&format!(
                    "{}?embed={}&lang={}#{p}",
                    location::beside_page("embed.html"),
                    experiment.slug(),
                    lang().code(),
                ))
            })
        })
    });
    // The experiment's own address, which WordPress and other oEmbed
    // consumers turn into its embed (without this run: a fragment never
    // reaches them), from the build's `experiments/<slug>.html`.
    let address = Signal::stored(Some(Ok(location::beside_page(&format!(
        "experiments/{}.html",
        experiment.slug()
    )))));
    view! {
        <div class="share-bar" data-testid="share-bar">
            <CopyField label=key!("share.this") testid="share-link" text=link />
            <CopyField label=key!("share.embed") testid="embed-code" text=embed />
            <CopyField label=key!("share.blog_address") testid="blog-address" text=address />
        </div>
    }
}

/// The full page's address, as links made here carry it (from the
/// embed's page too): without a language, so that whoever opens it reads
/// it in theirs.
fn page_link() -> String {
    location::beside_page("")
}

/// The HTML a blog pastes: the iframe and the listener that sizes it.
fn embed_snippet(src: &str) -> String {
    let origin = src.split('/').take(3).collect::<Vec<_>>().join("/");
    format!(
        "<iframe class=\"waitlab\" src=\"{src}\" title=\"waitlab experiment\" width=\"100%\" height=\"640\" \
         style=\"border:0\" loading=\"lazy\" allow=\"cross-origin-isolated; clipboard-write\"></iframe>\
         <script>addEventListener(\"message\",e=>{{if(e.origin!==\"{origin}\"||!e.data||e.data.type!==\"{}\")return;\
         for(const f of document.querySelectorAll(\"iframe.waitlab\"))if(f.contentWindow===e.source)f.style.height=e.data.height+\"px\"}})</script>",
        location::HEIGHT_MESSAGE
    )
}

/// Everything below an experiment's form: its last report (this browser's,
/// or a shared one, labelled), the share bar, and the comparison with
/// shared and native runs. Records this browser's runs for "share all".
#[component]
pub fn ExperimentOutput(
    /// The experiment.
    experiment: Experiment,
    /// Its last report.
    report: RwSignal<Option<Report>>,
) -> impl IntoView {
    let runs = shared();
    let embedded = use_context::<Embedded>().is_some_and(|e| e.0);
    // A run opened from a link shows until this browser has one.
    Effect::new(move |_| {
        if let Some(r) = runs.first_with(experiment)
            && report.with_untracked(|mine| mine.as_ref().is_none_or(|m| m.from_link))
        {
            report.set(Some(r));
        }
    });
    Effect::new(move |_| {
        if let Some(r) = report.get().filter(|r| !r.from_link && r.has(experiment)) {
            runs.record(&r);
        }
    });
    let label = move || {
        report.get().map(|r| {
            let shared = r.from_link.then(|| {
                view! {
                    <p class="banner shared" data-testid="shared-label">
                        <strong>{t(key!("share.someone_else"))}</strong>{tr(&r.env.run_name())}
                        {t(key!("share.opened_from_link"))}
                    </p>
                }
            });
            let throttled = r.env.hidden_during_run.then(|| {
                view! {
                    <p class="banner warn" data-testid="throttled">{t(key!("share.throttled"))}</p>
                }
            });
            view! { {shared} {throttled} }
        })
    };
    let share_bar = move || {
        report
            .get()
            .filter(|r| !embedded && r.has(experiment))
            .map(|r| share(Shared::Run(experiment, Box::new(r))))
    };
    // Each experiment's charts name their files after it: a context of
    // its own, not one the page's other experiments share.
    let charts = (!embedded).then_some(ChartSource { experiment, report });
    view! {
        <Provider value=charts>
            {label}
            <Results experiment=experiment report=report />
            {share_bar}
            <ComparisonBlock experiment=experiment report=report />
        </Provider>
    }
}

/// The button that copies the link of every run made here.
#[component]
fn ShareAll(
    /// Every run made here.
    mine: RwSignal<Vec<Report>>,
) -> impl IntoView {
    let (own, pair) = (shared().own.timed(), shared().pair.timed());
    let payload = payload_of(Signal::derive(move || {
        mine.with(|m| Report::combine(m))
            .map(|all| with_own(all, own.get(), pair.get()))
    }));
    let all = Signal::derive(move || {
        payload
            .get()
            .map(|p| p.map(|p| format!("{}#{p}", page_link())))
    });
    view! {
        <div class="share-bar">
            <CopyField label=key!("share.all") testid="share-all" text=all />
        </div>
    }
}

/// The panel of runs opened from links: who made them, a field to add
/// another link, and a button to share every run made here in one link.
#[component]
pub fn SharePanel() -> impl IntoView {
    let runs = shared();
    let input = RwSignal::new(String::new());
    let add_error = RwSignal::new(None::<Phrase>);
    let add = move |e: leptos::ev::SubmitEvent| {
        e.prevent_default();
        let text = input.get();
        spawn_local(async move {
            match runs.add(&text).await {
                Ok(_) => {
                    input.set(String::new());
                    add_error.set(None);
                }
                Err(message) => add_error.set(Some(message)),
            }
        });
    };
    // Made once, at the first run here, not anew with every run.
    let made_here = Memo::new(move |_| runs.mine.with(|m| !m.is_empty()));
    let opened = move || {
        runs.opened
            .get()
            .into_iter()
            .enumerate()
            .map(|(i, run)| {
                let experiments = Experiment::ALL
                    .iter()
                    .filter(|e| run.report.has(**e))
                    .map(|e| e.name())
                    .collect::<Vec<_>>();
                view! {
                    <li data-testid="shared-run">
                        <strong>{tr(&run.report.env.run_name())}</strong>
                        <span class="provenance">{tr(&Phrase::new(key!("data")).arg("text", Arg::List(experiments)))}</span>
                        <button type="button" class="link" on:click=move |_| runs.remove(i)>{t(key!("share.remove"))}</button>
                    </li>
                }
            })
            .collect_view()
    };
    view! {
        <section class="card" id="share" data-testid="share-panel">
            <h2>{t(key!("share.heading"))}</h2>
            {move || runs.problems.get().into_iter().map(|p| view! {
                <p class="error" role="alert" data-testid="link-problem">{tr(&p)}</p>
            }).collect_view()}
            {move || runs.opened.with(Vec::is_empty).then(|| view! {
                <p class="lead">{t(key!("share.lead"))}</p>
            })}
            <ul class="shared-runs">{opened}</ul>
            <form class="controls" on:submit=add>
                <label>{t(key!("share.compare_label"))}
                    <input type="text" data-testid="compare-link" placeholder="https://…#v1:…"
                        prop:value=move || input.get() on:input=move |e| input.set(event_target_value(&e)) />
                </label>
                <button type="submit" data-testid="compare-add">{t(key!("share.add"))}</button>
            </form>
            {move || add_error.get().map(|e| view! { <p class="error" role="alert" data-testid="compare-error">{tr(&e)}</p> })}
            {move || made_here.get().then(|| share(Shared::All(runs.mine)))}
        </section>
    }
}
