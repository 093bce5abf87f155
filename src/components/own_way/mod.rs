//! "Your own way of waiting" under an experiment's results (experiment
//! 1's timed wait, experiment 4's pair): the closed block whose view is a
//! wasm chunk of each experiment's own, fetched when first opened; a
//! shared run's way, shown and never run; and the reader's editor, timed
//! in a sandbox (`waitlab_browser::own_wait`) under the sampling rule of
//! the built-in ways and judged against the one the reader picks.

mod editor;
mod told;

use crate::components::chunked::chunked;
use crate::hooks::{Beside, Embedded, LinkedRuns};
use crate::i18n::{part_ready, t, tr};
use editor::OwnEditor;
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use told::shared_way;
use waitlab_core::clock::ClockInfo;
use waitlab_core::text::{Key, Part};

/// What an opened block shows, made in its experiment's chunk: a
/// `shared` run's way (its code as text, never run), or this browser's
/// run's editor with the experiment's `lead` and `code_label`.
pub fn block_view<R: Beside>(
    results: R,
    clock: Option<ClockInfo>,
    shared: bool,
    lead: Key,
    code_label: Key,
) -> AnyView {
    untrack(|| {
        if shared {
            shared_way(results, clock)
        } else {
            view! { <OwnEditor results=results clock=clock lead=lead code_label=code_label /> }
                .into_any()
        }
    })
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
                let made = made(results.clone(), clock, shared);
                // A shared way is told in the comparisons' words: they
                // come first (the editor waits for them before it tells).
                let with_texts = async move {
                    let texts = if shared { part_ready(Part::Compare).await } else { Ok(()) };
                    Ok(match texts {
                        Ok(()) => Ok(made.await?),
                        Err(why) => Err(why),
                    })
                };
                chunked(with_texts, waitlab_core::key!("own_way.not_loaded"), |made| match made {
                    Ok(view) => view,
                    Err(why) => view! {
                        <p class="error" role="alert" data-testid="texts-not-loaded">{tr(&why)}</p>
                    }.into_any(),
                })
            })}
        </details>
    }
    .into_any()
}
