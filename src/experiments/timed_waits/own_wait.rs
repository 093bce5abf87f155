//! "Your own way of waiting": an editor for an async function of the wait
//! in ms, timed in a sandbox (`waitlab_browser::own_wait`) in one chain of
//! calls under the sampling rule of the built-in cells, and judged against the
//! built-in way the reader picks, as every comparison's rows are.

use super::picker::CellPicker;
use crate::components::blocks::VerdictFigures;
use crate::hooks::OwnWays;
use crate::i18n::{part_ready, t, tr};
use futures::future::{Either, select};
use leptos::html;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos::wasm_split::{SplitLoaderError, wasm_split};
use waitlab_browser::own_wait::Sandbox;
use waitlab_core::clock::ClockInfo;
use waitlab_core::experiments::timed_waits::{CellKey, OwnWay, TimedWaits};
use waitlab_core::key;
use waitlab_core::own_wait::{self, RECIPE, Told};
use waitlab_core::sampling::{Sampling, Stop};
use waitlab_core::text::{Part, Phrase};

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

/// A timed way's times and verdict in words, the test's figures one click
/// away.
#[component]
fn ToldView(
    /// What the times say.
    told: Told,
    /// The block's `data-testid`.
    testid: &'static str,
) -> impl IntoView {
    view! {
        <div class="own-wait-result" data-testid=testid data-verdict=told.verdict_id
            data-p50-ms=told.p50_ms>
            <p>{tr(&told.said)}</p>
            <p><strong>{tr(&told.verdict)}</strong></p>
            <VerdictFigures figures=told.figures summary=key!("timed_waits.own.stats") />
        </div>
    }
}

/// A shared run's own way: its code shown as text, what it measured
/// where it was run, and how to time it here. Nothing of it runs.
#[component]
fn SharedWay(
    /// The shared run, with its way.
    tw: TimedWaits,
    /// The clock that read it.
    clock: Option<ClockInfo>,
) -> impl IntoView {
    let told = tw
        .own
        .as_ref()
        .and_then(|way| own_wait::tell(&tw, clock, way, true));
    let code = tw.own.map(|way| way.code);
    view! {
        <p class="lead">{t(key!("timed_waits.own.shared_lead"))}</p>
        <pre class="own-wait-code" data-testid="own-wait-code"><code>{code}</code></pre>
        {told.map(|told| view! { <ToldView told=told testid="own-wait-shared" /> })}
        <p class="note">{t(key!("timed_waits.own.shared_try"))}</p>
    }
}

/// The block, under experiment 1's results: the built-in ways of `tw`
/// with samples to compare with (`cells`), read with `clock`.
#[component]
fn OwnWait(
    /// The run's results.
    tw: TimedWaits,
    /// Its cells with samples, the first the one compared by default.
    cells: Vec<CellKey>,
    /// The clock that read them.
    clock: Option<ClockInfo>,
) -> impl IntoView {
    let own = expect_context::<OwnWays>();
    let code = Signal::derive(move || own.code.get().unwrap_or_else(|| RECIPE.to_owned()));
    let against = RwSignal::new(cells.first().copied());
    let stand = RwSignal::new(Stand::Idle);
    // Each run's number: a run whose number is no longer the latest
    // stops, and its sandbox goes with it.
    let generation = RwSignal::new(0u32);
    // A way timed beside these results leaves the link with them.
    on_cleanup(move || own.forget());
    let host = NodeRef::<html::Div>::new();
    // Sampled as the run's cells were: to the same count, stopping where
    // their rule stops when it is adaptive.
    let (max, sampling) = (tw.config.samples, tw.config.sampling);
    let lines = move || {
        code.with(|c| {
            (1..=c.lines().count().max(1))
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        })
    };
    let run = move |_| {
        if matches!(stand.get_untracked(), Stand::Running(_)) {
            generation.update(|g| *g += 1);
            stand.set(Stand::Idle);
            return;
        }
        let Some(key) = against.get_untracked() else {
            return;
        };
        let Some(cell) = tw.cells.iter().find(|c| c.key == key) else {
            return;
        };
        let Some(&summary) = cell.outcome.summary() else {
            return;
        };
        let Some(host) = host.get_untracked() else {
            return;
        };
        let tw = tw.clone();
        // The link carries what this run times, or nothing if it fails.
        own.forget();
        generation.update(|g| *g += 1);
        let mine = generation.get_untracked();
        let code = code.get_untracked();
        let ms = f64::from(key.requested_ms.unwrap_or(0));
        stand.set(Stand::Running(0));
        spawn_local(async move {
            let ended = time(&host, &code, ms, (max, sampling), mine, generation, stand).await;
            // A verdict is said in the comparisons' words.
            let _ = part_ready(Part::Compare).await;
            // A run stopped, or a block no longer on the page, says nothing.
            if generation.try_get_untracked() != Some(mine) {
                return;
            }
            let way = ended.and_then(|(samples, step_ms)| {
                own_wait::timed(code, key, samples, step_ms)
                    .ok_or_else(|| Phrase::new(key!("timed_waits.own.no_sandbox")))
            });
            let told = way.and_then(|way| {
                let told = own_wait::tell(&tw, clock, &way, false)
                    .ok_or_else(|| Phrase::new(key!("timed_waits.own.no_sandbox")))?;
                own.keep(summary, way);
                Ok(told)
            });
            stand.try_set(match told {
                Ok(told) => Stand::Done(told),
                Err(why) => Stand::Failed(why),
            });
        });
    };
    let too_long = move || code.with(|c| c.chars().count() > OwnWay::MOST_CODE_CHARS);
    view! {
            <p class="lead">{t(key!("timed_waits.own.lead"))}</p>
            <div class="chart-controls">
                <CellPicker label=key!("timed_waits.own.against") testid="own-wait-against" cells=cells selected=against />
            </div>
            {move || own.from_link.get().then(|| view! {
                <p class="banner shared" data-testid="own-wait-from-link">{t(key!("timed_waits.own.from_link"))}</p>
            })}
            <div class="editor">
                <pre class="gutter" aria-hidden="true">{lines}</pre>
                <textarea data-testid="own-wait-editor" spellcheck="false"
                    prop:rows=move || code.with(|c| c.lines().count().max(3) + 1)
                    aria-label=t(key!("timed_waits.own.code_label"))
                    prop:value=move || code.get()
                    on:input=move |e| {
                        own.code.set(Some(event_target_value(&e)));
                        own.from_link.set(false);
                    }></textarea>
            </div>
            {move || too_long().then(|| view! {
                <p class="error" role="alert" data-testid="own-wait-error">
                    {tr(&Phrase::new(key!("timed_waits.own.too_long")).count("most", OwnWay::MOST_CODE_CHARS as u64))}
                </p>
            })}
            <p class="note">{t(key!("timed_waits.own.in_link"))}</p>
            <div class="own-wait-actions">
                <button type="button" data-testid="own-wait-run" prop:disabled=too_long on:click=run>
                    {move || t(if matches!(stand.get(), Stand::Running(_)) { key!("timed_waits.own.stop") } else { key!("timed_waits.own.run") })}
                </button>
                {move || own.code.with(|c| c.is_some()).then(|| view! {
                    <button type="button" class="link" data-testid="own-wait-recipe"
                        on:click=move |_| {
                            own.code.set(None);
                            own.from_link.set(false);
                        }>{t(key!("timed_waits.own.recipe"))}</button>
                })}
                <span class="note" role="status">{move || match stand.get() {
                    Stand::Running(n) => Some(tr(&Phrase::new(key!("timed_waits.own.running")).count("n", u64::from(n)))),
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

/// The block's view, in a wasm chunk of its own: fetched when the reader
/// first opens it (or a shared run carrying a way shows), so that neither
/// the page nor a run's results carry it. A shared run's way is shown,
/// never run; this browser's run gets the editor.
#[wasm_split(own_wait, wasm_split_path = ::leptos::wasm_split, fallible)]
pub(super) fn own_wait_view(
    tw: TimedWaits,
    cells: Vec<CellKey>,
    clock: Option<ClockInfo>,
    shared: bool,
) -> Result<AnyView, SplitLoaderError> {
    Ok(untrack(|| {
        if shared {
            view! { <SharedWay tw=tw clock=clock /> }.into_any()
        } else {
            view! { <OwnWait tw=tw cells=cells clock=clock /> }.into_any()
        }
    }))
}

/// Times `code` asking for `ms` in a sandbox framed in `host`, one chain
/// of calls read part by part until `sampling` has its median or `max`
/// calls are timed:
/// the times and the sandbox clock's step; or why not. It stops, and the
/// sandbox goes, once `generation` is no longer `mine`.
async fn time(
    host: &web_sys::HtmlDivElement,
    code: &str,
    ms: f64,
    (max, sampling): (u32, Sampling),
    mine: u32,
    generation: RwSignal<u32>,
    stand: RwSignal<Stand>,
) -> Result<(Vec<f64>, f64), Phrase> {
    let (mut sandbox, step_ms) = Sandbox::start(host, code).await?;
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
            Either::Right(_) => return Err(Phrase::new(key!("timed_waits.own.stopped"))),
        }
        stand.try_set(Stand::Running(samples.len() as u32));
        if stop.enough(&samples) {
            break;
        }
    }
    Ok((samples, step_ms))
}
