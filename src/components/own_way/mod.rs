//! "Your own way of waiting" under an experiment's results (experiment
//! 1's timed wait, experiment 4's pair): the closed block whose view is a
//! wasm chunk of each experiment's own, fetched when first opened; a
//! shared run's way, shown and never run; and the reader's editor, timed
//! in a sandbox (`waitlab_browser::own_wait`) under the sampling rule of
//! the built-in ways and judged against the one the reader picks.

mod editor;

use crate::components::blocks::VerdictFigures;
use crate::components::chunked::chunked;
use crate::hooks::{Beside, Embedded, LinkedRuns};
use crate::i18n::{t, tr};
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use waitlab_core::clock::ClockInfo;
use waitlab_core::own_wait::Told;
use waitlab_core::text::Key;

pub use editor::OwnEditor;

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
            <VerdictFigures figures=told.figures summary=waitlab_core::key!("own_way.stats") />
        </div>
    }
}

/// A shared run's own way: its code shown as text, what it measured
/// where it was run, and how to time it here. Nothing of it runs.
pub fn shared_way<R: Beside>(results: R, clock: Option<ClockInfo>) -> AnyView {
    let Some(way) = results.own().cloned() else {
        return ().into_any();
    };
    let told = results.tell(clock, &way, true);
    view! {
        <p class="lead">{t(waitlab_core::key!("own_way.shared_lead"))}</p>
        <pre class="own-wait-code" data-testid="own-wait-code"><code>{way.code.clone()}</code></pre>
        {told.map(|told| view! { <ToldView told=told testid="own-wait-shared" /> })}
        <p class="note">{t(waitlab_core::key!("own_way.shared_try"))}</p>
    }
    .into_any()
}

/// The block under `results` (read with `clock`), closed until opened:
/// `made` makes its view (a chunk's). A `shared` run shows the way it
/// carries (open, its code as text, never run) and offers that code to
/// the reader's own editor; a shared run without one shows nothing. An
/// embed has no editor: the sandbox may be framed by waitlab's pages only
/// (its `frame-ancestors`), and a blog is another.
pub fn own_way_block<R: Beside, F>(
    results: R,
    clock: Option<ClockInfo>,
    shared: bool,
    heading: Key,
    made: fn(R, Option<ClockInfo>, bool) -> F,
) -> AnyView
where
    F: Future<Output = Result<AnyView, SplitLoaderError>> + 'static,
{
    if shared {
        match results.own() {
            Some(way) => R::ways_of(&expect_context::<LinkedRuns>()).offer(way),
            None => return ().into_any(),
        }
    }
    if !shared && use_context::<Embedded>().is_some_and(|e| e.0) {
        return view! {
            <details class="details own-wait" data-testid="own-wait">
                <summary>{t(heading)}</summary>
                <p class="note" data-testid="own-wait-embedded">{t(waitlab_core::key!("own_way.in_embed"))}</p>
            </details>
        }
        .into_any();
    }
    let opened = RwSignal::new(shared);
    let heading = if shared {
        waitlab_core::key!("own_way.shared_heading")
    } else {
        heading
    };
    view! {
        <details class="details own-wait" data-testid="own-wait" open=shared on:toggle=move |_| {
            // Made once: toggled again, it keeps what it made.
            if !opened.get_untracked() {
                opened.set(true);
            }
        }>
            <summary>{t(heading)}</summary>
            {move || opened.get().then(|| {
                chunked(made(results.clone(), clock, shared), waitlab_core::key!("own_way.not_loaded"), |view| view)
            })}
        </details>
    }
    .into_any()
}
