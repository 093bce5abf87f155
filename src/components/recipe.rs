//! The code to write for a lesson (core's `summary::recipe`): a note in
//! the reader's language, then one tab per platform with the recipe's
//! file shown as text and a copy button (the browser's tab says first
//! where its code runs). The files are fetched when the
//! block is first opened, never while a run measures, and each is shown
//! as a text node, never as markup. In the results' wasm chunk (the
//! summary and the sections' results call it).

use crate::hooks::Experiments;
use crate::i18n::{t, tr};
use leptos::prelude::*;
use leptos::task::spawn_local;
use waitlab_browser::fetch::fetch_bytes_within;
use waitlab_browser::{location, page};
use waitlab_core::key;
use waitlab_core::summary::Lesson;
use waitlab_core::summary::recipe::{self, Platform};
use waitlab_core::text::Phrase;

/// How long a recipe's file may take before the block says so (ms).
const FETCH_LIMIT_MS: u32 = 10_000;

/// A recipe's text: not asked for yet, on its way, there, or why not.
#[derive(Clone, PartialEq)]
enum Code {
    NotAsked,
    Loading,
    Loaded(String),
    Failed(String),
}

/// `lesson`'s recipes, behind a disclosure. `platform` is the tab shown,
/// shared by the blocks of one list so that a reader picks a platform
/// once; `extra` is said after the note (the spin-vs-wake crossover
/// measured on this machine).
#[component]
pub fn Recipe(
    /// The lesson whose code it shows.
    lesson: Lesson,
    /// The platform whose tab is open.
    platform: RwSignal<Platform>,
    /// A sentence to add to the note, if any.
    #[prop(optional_no_strip)]
    extra: Option<Phrase>,
    /// Whether its heading names the lesson (where nothing beside it
    /// does: an experiment's section, with one recipe per lesson).
    #[prop(optional)]
    named: bool,
) -> impl IntoView {
    let experiments = expect_context::<Experiments>();
    page::add_stylesheet("recipe-styles", recipe::STYLES);
    let open = RwSignal::new(false);
    let codes = Platform::ALL.map(|_| RwSignal::new(Code::NotAsked));
    // Fetch on the first opening, once no run measures.
    Effect::new(move |_| {
        if !open.get() || experiments.running() || codes[0].get() != Code::NotAsked {
            return;
        }
        for (p, code) in Platform::ALL.into_iter().zip(codes) {
            code.set(Code::Loading);
            spawn_local(async move {
                let url = recipe::path(lesson, p);
                let got = experiments
                    .outside_runs(fetch_bytes_within(
                        &url,
                        FETCH_LIMIT_MS,
                        FETCH_LIMIT_MS,
                        || {},
                    ))
                    .await;
                code.set(match got.map(String::from_utf8) {
                    Ok(Ok(text)) => Code::Loaded(text),
                    Ok(Err(e)) => Code::Failed(e.to_string()),
                    Err(phrase) => Code::Failed(tr(&phrase)),
                });
            });
        }
    });
    let id = lesson.id();
    let tab_id = move |p: Platform| format!("recipe-{id}-{}-tab", p.id());
    let panel_id = move |p: Platform| format!("recipe-{id}-{}", p.id());
    // Arrow keys, Home and End move among the tabs and open the one they
    // reach (the ARIA tabs pattern, with automatic activation).
    let keys = move |e: leptos::ev::KeyboardEvent| {
        let at = Platform::ALL
            .iter()
            .position(|&p| p == platform.get_untracked())
            .unwrap_or(0);
        let last = Platform::ALL.len() - 1;
        let next = match e.key().as_str() {
            "ArrowRight" => (at + 1).min(last),
            "ArrowLeft" => at.saturating_sub(1),
            "Home" => 0,
            "End" => last,
            _ => return,
        };
        e.prevent_default();
        platform.set(Platform::ALL[next]);
        if let Some(tab) = document().get_element_by_id(&tab_id(Platform::ALL[next])) {
            // A tab is a <button>, an HTML element.
            use wasm_bindgen::JsCast;
            let _ = tab.unchecked_into::<web_sys::HtmlElement>().focus();
        }
    };
    let tabs = Platform::ALL.map(|p| {
        let selected = move || platform.get() == p;
        view! {
            <button type="button" role="tab" id=tab_id(p) aria-controls=panel_id(p)
                aria-selected=move || selected().to_string()
                tabindex=move || if selected() { "0" } else { "-1" }
                on:click=move |_| platform.set(p)>{tr(&p.phrase())}</button>
        }
    });
    let panels = Platform::ALL.into_iter().zip(codes).map(|(p, code)| {
        let status = RwSignal::new(None::<String>);
        let copy = move |_| {
            let Code::Loaded(text) = code.get_untracked() else {
                return;
            };
            spawn_local(async move {
                status.set(Some(match location::copy_text(&text).await {
                    Ok(()) => t(key!("share.copied")),
                    Err(e) => tr(&Phrase::new(key!("share.copy_by_hand")).data("why", e)),
                }));
            });
        };
        // Where the browser's code runs, said before it: an ordinary page
        // lacks the shared memory three recipes need.
        let runs = (p == Platform::Js).then(|| {
            view! {
                <p class="recipe-runs" data-testid="recipe-runs"
                    data-runs=recipe::runs_on(lesson).id()>{tr(&recipe::runs_on(lesson).phrase())}</p>
            }
        });
        view! {
            <div class="snippet" role="tabpanel" id=panel_id(p) aria-labelledby=tab_id(p)
                data-platform=p.id() hidden=move || platform.get() != p>
                {runs}
                {move || match code.get() {
                    Code::NotAsked | Code::Loading => view! {
                        <p class="hint">{t(key!("recipe.loading"))}</p>
                    }.into_any(),
                    Code::Failed(why) => view! {
                        <p class="error" role="alert">{tr(&Phrase::new(key!("recipe.error")).data("error", why))}</p>
                    }.into_any(),
                    Code::Loaded(text) => view! {
                        <div class="snippet-bar">
                            <button type="button" class="copy" data-testid="recipe-copy" on:click=copy>
                                {t(key!("recipe.copy"))}
                            </button>
                            <span class="hint" aria-live="polite">{move || status.get()}</span>
                        </div>
                        <pre tabindex="0"><code data-testid="recipe-code">{text}</code></pre>
                    }.into_any(),
                }}
            </div>
        }
    }).collect_view();
    let heading = if named {
        tr(&Phrase::new(key!("recipe.heading_for")).phrase("lesson", lesson.phrase()))
    } else {
        t(key!("recipe.heading"))
    };
    view! {
        <details class="recipe" data-testid="recipe" data-lesson=id
            on:toggle=move |e| open.set(page::is_open(&e))>
            <summary>{heading}</summary>
            <p class="recipe-note">
                {tr(&recipe::note(lesson))}
                {extra.map(|extra| format!(" {}", tr(&extra)))}
            </p>
            <div role="tablist" class="recipe-tabs" aria-label=t(key!("recipe.tabs"))
                on:keydown=keys>{tabs}</div>
            {panels}
        </details>
    }
}
