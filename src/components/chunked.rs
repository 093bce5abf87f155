//! Views whose code is a wasm chunk of their own (a `wasm_split` point):
//! shown once the chunk is in, and said so when it cannot be fetched.

use crate::hooks::Experiments;
use crate::i18n::t;
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use send_wrapper::SendWrapper;
use std::future::Future;
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
