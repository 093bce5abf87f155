//! "Your own way of waiting": an editor for an async function of the wait
//! in ms, timed in a sandbox (`waitlab_browser::own_wait`) in one chain of
//! calls under the sampling rule of the built-in cells, and judged against the
//! built-in way the reader picks, as every comparison's rows are.

use super::picker::CellPicker;
use crate::components::blocks::VerdictFigures;
use crate::i18n::{part_ready, t, tr};
use futures::future::{Either, select};
use leptos::html;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos::wasm_split::{SplitLoaderError, wasm_split};
use waitlab_browser::own_wait::Sandbox;
use waitlab_core::clock::ClockInfo;
use waitlab_core::experiments::timed_waits::{CellKey, TimedWaits};
use waitlab_core::key;
use waitlab_core::own_wait::{self, MOST_CODE_CHARS, RECIPE};
use waitlab_core::sampling::{Sampling, Stop};
use waitlab_core::stats::Samples;
use waitlab_core::text::{Arg, Part, Phrase};

/// Where a run of the reader's code stands.
#[derive(Clone)]
enum Stand {
    Idle,
    /// Timing: this many calls so far.
    Running(u32),
    /// Its times' median and p90 and its verdict's sentence and figures.
    Done {
        said: Phrase,
        verdict: Phrase,
        figures: Vec<Phrase>,
        verdict_id: Option<&'static str>,
    },
    /// Why it ended without times.
    Failed(Phrase),
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
    let code = RwSignal::new(RECIPE.to_owned());
    let against = RwSignal::new(cells.first().copied());
    let stand = RwSignal::new(Stand::Idle);
    // Each run's number: a run whose number is no longer the latest
    // stops, and its sandbox goes with it.
    let generation = RwSignal::new(0u32);
    let host = NodeRef::<html::Div>::new();
    let max = tw.config.samples;
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
        let Some(builtin) = tw
            .cells
            .iter()
            .find(|c| c.key == key)
            .and_then(|c| c.outcome.samples())
        else {
            return;
        };
        let builtin = builtin.to_vec();
        let Some(host) = host.get_untracked() else {
            return;
        };
        generation.update(|g| *g += 1);
        let mine = generation.get_untracked();
        let code = code.get_untracked();
        let ms = f64::from(key.requested_ms.unwrap_or(0));
        stand.set(Stand::Running(0));
        spawn_local(async move {
            let ended = time(&host, &code, ms, max, mine, generation, stand).await;
            // A verdict is said in the comparisons' words.
            let _ = part_ready(Part::Compare).await;
            // A run stopped, or a block no longer on the page, says nothing.
            if generation.try_get_untracked() != Some(mine) {
                return;
            }
            stand.try_set(match ended {
                Ok((samples, step_ms)) => done(&builtin, clock, samples, step_ms, ms, key),
                Err(why) => Stand::Failed(why),
            });
        });
    };
    let too_long = move || code.with(|c| c.chars().count() > MOST_CODE_CHARS);
    view! {
            <p class="lead">{t(key!("timed_waits.own.lead"))}</p>
            <div class="chart-controls">
                <CellPicker label=key!("timed_waits.own.against") testid="own-wait-against" cells=cells selected=against />
            </div>
            <div class="editor">
                <pre class="gutter" aria-hidden="true">{lines}</pre>
                <textarea data-testid="own-wait-editor" spellcheck="false"
                    prop:rows=move || code.with(|c| c.lines().count().max(3) + 1)
                    aria-label=t(key!("timed_waits.own.code_label"))
                    prop:value=move || code.get()
                    on:input=move |e| code.set(event_target_value(&e))></textarea>
            </div>
            {move || too_long().then(|| view! {
                <p class="error" role="alert" data-testid="own-wait-error">
                    {tr(&Phrase::new(key!("timed_waits.own.too_long")).count("most", MOST_CODE_CHARS as u64))}
                </p>
            })}
            <p class="note">{t(key!("timed_waits.own.not_shared"))}</p>
            <div class="own-wait-actions">
                <button type="button" data-testid="own-wait-run" prop:disabled=too_long on:click=run>
                    {move || t(if matches!(stand.get(), Stand::Running(_)) { key!("timed_waits.own.stop") } else { key!("timed_waits.own.run") })}
                </button>
                <span class="note" role="status">{move || match stand.get() {
                    Stand::Running(n) => Some(tr(&Phrase::new(key!("timed_waits.own.running")).count("n", u64::from(n)))),
                    _ => None,
                }}</span>
            </div>
            <div node_ref=host class="own-wait-host"></div>
            {move || match stand.get() {
                Stand::Done { said, verdict, figures, verdict_id } => Some(view! {
                    <div class="own-wait-result" data-testid="own-wait-result" data-verdict=verdict_id>
                        <p>{tr(&said)}</p>
                        <p><strong>{tr(&verdict)}</strong></p>
                        <VerdictFigures figures=figures summary=key!("timed_waits.own.stats") />
                    </div>
                }.into_any()),
                Stand::Failed(why) => Some(view! {
                    <p class="error" role="alert" data-testid="own-wait-error">{tr(&why)}</p>
                }.into_any()),
                Stand::Idle | Stand::Running(_) => None,
            }}
    }
}

/// The block's view, in a wasm chunk of its own: fetched when the reader
/// first opens it, so that neither the page nor a run's results carry it.
#[wasm_split(own_wait, wasm_split_path = ::leptos::wasm_split, fallible)]
pub(super) fn own_wait_view(
    tw: TimedWaits,
    cells: Vec<CellKey>,
    clock: Option<ClockInfo>,
) -> Result<AnyView, SplitLoaderError> {
    Ok(untrack(|| {
        view! { <OwnWait tw=tw cells=cells clock=clock /> }.into_any()
    }))
}

/// Times `code` asking for `ms` in a sandbox framed in `host`, one chain
/// of calls read part by part until the sampling rule has its median or
/// `max` calls are timed:
/// the times and the sandbox clock's step; or why not. It stops, and the
/// sandbox goes, once `generation` is no longer `mine`.
async fn time(
    host: &web_sys::HtmlDivElement,
    code: &str,
    ms: f64,
    max: u32,
    mine: u32,
    generation: RwSignal<u32>,
    stand: RwSignal<Stand>,
) -> Result<(Vec<f64>, f64), Phrase> {
    let (mut sandbox, step_ms) = Sandbox::start(host, code).await?;
    let mut stop = Stop::new(Sampling::Adaptive, max, step_ms);
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

/// What a finished run says: its times in words and its verdict against
/// the built-in cell `key`'s `builtin` samples.
fn done(
    builtin: &[f64],
    clock: Option<ClockInfo>,
    samples: Vec<f64>,
    step_ms: f64,
    ms: f64,
    key: CellKey,
) -> Stand {
    let judged = own_wait::judge(builtin, clock, &samples, step_ms);
    let (verdict, figures) = judged.phrases(&key.label());
    let verdict_id = judged.verdict().map(|v| v.id());
    let said = match Samples::new(samples) {
        Ok(s) => {
            let summary = s.summary();
            let own_clock = ClockInfo {
                min_step_ms: step_ms,
                typical_step_ms: step_ms,
                readings: summary.n,
            };
            let marked = |v: f64| Arg::Ms {
                value: v,
                marked: !own_clock.resolves(v),
            };
            Phrase::new(key!("timed_waits.own.result"))
                .count("n", u64::from(summary.n))
                .arg("ms", Arg::Fixed(ms, 0))
                .arg("p50", marked(summary.p50))
                .arg("p90", marked(summary.p90))
        }
        Err(_) => Phrase::new(key!("timed_waits.own.no_sandbox")),
    };
    Stand::Done {
        said,
        verdict,
        figures,
        verdict_id,
    }
}
