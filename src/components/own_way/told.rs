//! A timed way's times and verdict as the block tells them, and a shared
//! run's way: its code shown as text, never run.

use crate::components::blocks::VerdictFigures;
use crate::hooks::Beside;
use crate::i18n::{t, tr};
use leptos::prelude::*;
use waitlab_core::clock::ClockInfo;
use waitlab_core::own_wait::Told;

/// A timed way's times and verdict in words, whether it held its thread
/// meanwhile, and the test's figures one click away.
#[component]
pub(super) fn ToldView(
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
            {told.reason.map(|reason| view! {
                <p class="note" data-testid="own-wait-reason">{tr(&reason)}</p>
            })}
            {told.held.map(|(held, id)| view! {
                <p class="own-wait-held" data-testid="own-wait-held" data-held=id>{tr(&held)}</p>
            })}
            <VerdictFigures figures=told.figures summary=waitlab_core::key!("own_way.stats") />
        </div>
    }
}

/// A shared run's own way: its code shown as text, what it measured
/// where it was run, and how to time it here. Nothing of it runs.
pub(super) fn shared_way<R: Beside>(results: R, clock: Option<ClockInfo>) -> AnyView {
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
