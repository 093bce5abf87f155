//! Views whose code is a wasm chunk of their own (a `wasm_split` point):
//! shown once the chunk is in, and said so when it cannot be fetched; and
//! the places that make them once the reader reaches them.

use crate::hooks::Experiments;
use crate::i18n::t;
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use send_wrapper::SendWrapper;
use std::future::Future;
use waitlab_browser::page::ViewListener;
use waitlab_core::text::Key;

/// What `made` makes, `show`n once its chunk is in; `failed`'s words if
/// the chunk cannot be fetched. The first time, the chunk is fetched:
/// page work in flight, so no run starts to measure while it may still
/// land.
pub fn chunked<T: 'static>(
    made: impl Future<Output = Result<T, SplitLoaderError>> + 'static,
    failed: Key,
    show: impl FnOnce(T) -> AnyView + Send + 'static,
) -> impl IntoView {
    let experiments = expect_context::<Experiments>();
    // The chunk's loader is the browser's: its future is not Send, and
    // stays on this thread (the page has one).
    let made = SendWrapper::new(Box::pin(made));
    view! {
        <Suspense>
            {Suspend::new(async move {
                match experiments.outside_runs(made).await {
                    Ok(made) => show(made),
                    Err(_) => view! {
                        <p class="error" role="alert" data-testid="chunk-not-loaded">{t(failed)}</p>
                    }
                    .into_any(),
                }
            })}
        </Suspense>
    }
}

/// A place whose content (`children`, a chunk's view) is made once the
/// reader first reaches it, never while a run measures (reached during a
/// run, it says `after_run` and is made after it), or at once if `now`.
/// Empty, the place is 1 px high: WebKit never reports a zero-sized
/// element entering the view.
#[component]
pub fn ReachedPlace(
    /// The place's class and `data-testid`.
    name: &'static str,
    /// What it says when reached while a run measures.
    after_run: Key,
    /// Made at once, without waiting for the reader (an embed's one
    /// section).
    #[prop(optional)]
    now: bool,
    /// What the place shows.
    children: ChildrenFn,
) -> impl IntoView {
    let experiments = expect_context::<Experiments>();
    let place = NodeRef::<leptos::html::Div>::new();
    let reached = RwSignal::new(now);
    let wanted = RwSignal::new(now);
    let listener = StoredValue::new_local(None::<ViewListener>);
    Effect::new(move |_| {
        let Some(element) = place.get() else {
            return;
        };
        if !reached.get_untracked() {
            listener.set_value(Some(ViewListener::of(
                Some(element.into()),
                move |out_of_view| {
                    if !out_of_view && !reached.get_untracked() {
                        reached.set(true);
                    }
                },
            )));
        }
    });
    // Reached, the place is watched no more; once its content is wanted,
    // nothing here runs again (not even as runs progress).
    Effect::new(move |_| {
        if wanted.get_untracked() || !reached.get() {
            return;
        }
        listener.set_value(None);
        if !experiments.running() {
            wanted.set(true);
        }
    });
    let waiting = Memo::new(move |_| !wanted.get() && reached.get() && experiments.running());
    let shown = move || {
        if wanted.get() {
            Some(children())
        } else if waiting.get() {
            Some(view! { <p class="hint" data-testid="after-run">{t(after_run)}</p> }.into_any())
        } else {
            None
        }
    };
    view! { <div class=name data-testid=name node_ref=place>{shown}</div> }
}
