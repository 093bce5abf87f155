//! The reader's editor of their own way of waiting: the code (the recipe,
//! a link's, or theirs), the built-in way to compare with, Run and Stop,
//! and what the sandbox's times say.

use super::told::ToldView;
use crate::hooks::{Beside, LinkedRuns};
use crate::i18n::{part_ready, t, tr};
use futures::future::{Either, select};
use leptos::html;
use leptos::prelude::*;
use leptos::task::spawn_local;
use waitlab_browser::own_wait::Sandbox;
use waitlab_core::clock::ClockInfo;
use waitlab_core::experiments::own_way::{MOST_CODE_CHARS, OtherTasks};
use waitlab_core::key;
use waitlab_core::own_wait::{self, Kind, Told};
use waitlab_core::sampling::{Sampling, Stop};
use waitlab_core::text::{Key, Part, Phrase};

/// Where a run of the reader's code stands.
#[derive(Clone)]
enum Stand {
    Idle,
    /// Timing: this many calls so far.
    Running(u32),
    /// What its times say.
    Done(Told),
    /// Why it ended without times.
    Failed(Phrase),
}

/// The editor under `results` (read with `clock`), whose built-in ways
/// with times are compared with.
#[component]
pub fn OwnEditor<R: Beside>(
    /// The run's results.
    results: R,
    /// The clock that read them.
    clock: Option<ClockInfo>,
    /// What the block says first.
    lead: Key,
    /// The editor's accessible name.
    code_label: Key,
) -> impl IntoView {
    let own = R::ways_of(&expect_context::<LinkedRuns>());
    let code = Signal::derive(move || own.code().unwrap_or_else(|| R::KIND.recipe().to_owned()));
    let ways = results.timed_ways();
    // The way a link's code was judged against, if this run has it.
    let offered = untrack(|| own.from_link()).filter(|k| ways.iter().any(|(w, _)| w == k));
    let against = RwSignal::new(offered.or(results.default_way()));
    // A way timed beside these very results (the page drawn again, in
    // another language) says again what it measured.
    let earlier = own.timed_now().and_then(|(against, way)| {
        let same = ways.iter().any(|(k, s)| *k == way.against && *s == against);
        same.then(|| results.tell(clock, &way, false)).flatten()
    });
    let stand = RwSignal::new(earlier.map_or(Stand::Idle, Stand::Done));
    // Each run's number: a run whose number is no longer the latest
    // stops, and its sandbox goes with it.
    let generation = RwSignal::new(0u32);
    let host = NodeRef::<html::Div>::new();
    let lines = move || {
        code.with(|c| {
            (1..=c.lines().count().max(1))
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        })
    };
    let picked = ways.clone();
    let run = move |_| {
        if matches!(stand.get_untracked(), Stand::Running(_)) {
            generation.update(|g| *g += 1);
            stand.set(Stand::Idle);
            return;
        }
        let Some(key) = against.get_untracked() else {
            return;
        };
        let Some(&(_, summary)) = picked.iter().find(|(w, _)| *w == key) else {
            return;
        };
        let Some(host) = host.get_untracked() else {
            return;
        };
        let results = results.clone();
        // The link carries what this run times, or nothing if it fails.
        own.forget();
        generation.update(|g| *g += 1);
        let mine = generation.get_untracked();
        let code = code.get_untracked();
        let ms = results.ms(key);
        let sampling = results.sampling();
        stand.set(Stand::Running(0));
        spawn_local(async move {
            let ended = time(
                &host,
                (&code, R::KIND),
                ms,
                sampling,
                mine,
                generation,
                stand,
            )
            .await;
            // A verdict is said in the comparisons' words.
            let _ = part_ready(Part::Compare).await;
            // A run stopped, or a block no longer on the page, says nothing.
            if generation.try_get_untracked() != Some(mine) {
                return;
            }
            let no_sandbox = || Phrase::new(key!("own_way.no_sandbox"));
            let told = ended.and_then(|(times, other_tasks)| {
                let way = own_wait::timed(code, key, times, other_tasks).ok_or_else(no_sandbox)?;
                let told = results.tell(clock, &way, false).ok_or_else(no_sandbox)?;
                own.keep(summary, way);
                Ok(told)
            });
            stand.try_set(match told {
                Ok(told) => Stand::Done(told),
                Err(why) => Stand::Failed(why),
            });
        });
    };
    let too_long = move || code.with(|c| c.chars().count() > MOST_CODE_CHARS);
    let options = ways
        .iter()
        .map(|(w, _)| {
            let (id, name) = R::name(*w);
            view! { <option value=id>{tr(&name)}</option> }
        })
        .collect_view();
    view! {
        <p class="lead">{t(lead)}</p>
        <div class="chart-controls">
            <label class="toggle">{t(key!("own_way.against"))}" "
                <select data-testid="own-wait-against" prop:value=move || against.get().map(|k| R::name(k).0)
                    on:change=move |e| {
                        let id = event_target_value(&e);
                        against.set(ways.iter().map(|(w, _)| *w).find(|w| R::name(*w).0 == id));
                    }>
                    {options}
                </select>
            </label>
        </div>
        {move || own.from_link().is_some().then(|| view! {
            <p class="banner shared" data-testid="own-wait-from-link">{t(key!("own_way.from_link"))}</p>
        })}
        <div class="editor">
            <pre class="gutter" aria-hidden="true">{lines}</pre>
            <textarea data-testid="own-wait-editor" spellcheck="false"
                prop:rows=move || code.with(|c| c.lines().count().max(3) + 1)
                aria-label=t(code_label)
                prop:value=move || code.get()
                on:input=move |e| own.edit(Some(event_target_value(&e)))></textarea>
        </div>
        {move || too_long().then(|| view! {
            <p class="error" role="alert" data-testid="own-wait-error">
                {tr(&Phrase::new(key!("own_way.too_long")).count("most", MOST_CODE_CHARS as u64))}
            </p>
        })}
        <p class="note">{t(key!("own_way.in_link"))}</p>
        <div class="own-wait-actions">
            <button type="button" data-testid="own-wait-run" prop:disabled=too_long on:click=run>
                {move || t(if matches!(stand.get(), Stand::Running(_)) { key!("own_way.stop") } else { key!("own_way.run") })}
            </button>
            {move || own.code().is_some().then(|| view! {
                <button type="button" class="link" data-testid="own-wait-recipe"
                    on:click=move |_| own.edit(None)>{t(key!("own_way.recipe"))}</button>
            })}
            <span class="note" role="status">{move || match stand.get() {
                Stand::Running(n) => Some(tr(&Phrase::new(key!("own_way.running")).count("n", u64::from(n)))),
                _ => None,
            }}</span>
        </div>
        <div node_ref=host class="own-wait-host"></div>
        {move || match stand.get() {
            Stand::Done(told) => Some(view! { <ToldView told=told testid="own-wait-result" /> }.into_any()),
            Stand::Failed(why) => Some(view! {
                <p class="error" role="alert" data-testid="own-wait-error">{tr(&why)}</p>
            }.into_any()),
            Stand::Idle | Stand::Running(_) => None,
        }}
    }
}

/// Times `code` of its kind in a sandbox framed in `host`, asking for
/// `ms`, read part by part until `sampling` has its median or its most
/// calls are timed: the times and the sandbox clock's step, and whether
/// other tasks ran while it waited (a timed wait's); or why not.
/// It stops, and the sandbox goes, once `generation` is no longer
/// `mine`.
async fn time(
    host: &web_sys::HtmlDivElement,
    (code, kind): (&str, Kind),
    ms: f64,
    (max, sampling): (u32, Sampling),
    mine: u32,
    generation: RwSignal<u32>,
    stand: RwSignal<Stand>,
) -> Result<((Vec<f64>, f64), Option<OtherTasks>), Phrase> {
    let (mut sandbox, step_ms) = Sandbox::start(host, code, kind).await?;
    let mut stop = Stop::new(sampling, max, step_ms);
    let checks = own_wait::checks(max);
    sandbox.run(max, ms, &checks);
    let mut samples = Vec::new();
    for check in checks {
        let n = check - samples.len() as u32;
        // Stop pressed: the part is left, and the sandbox goes.
        let stopped = async {
            while generation.try_get_untracked() == Some(mine) {
                gloo_timers::future::TimeoutFuture::new(50).await;
            }
        };
        match select(Box::pin(sandbox.part(n, ms)), Box::pin(stopped)).await {
            Either::Left((part, _)) => samples.extend(part?),
            Either::Right(_) => return Err(Phrase::new(key!("own_way.stopped"))),
        }
        stand.try_set(Stand::Running(samples.len() as u32));
        if stop.enough(&samples) {
            break;
        }
    }
    Ok(((samples, step_ms), sandbox.other_tasks()))
}
