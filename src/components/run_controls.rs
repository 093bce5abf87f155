//! The controls every experiment shares: Run/Cancel, the progress bar and
//! the notice line.

use crate::runner::Progress;
use leptos::prelude::*;

/// Run (a submit button, so Enter in a field starts a run) while idle,
/// Cancel while running.
#[component]
pub fn RunButtons(
    /// The run under way, if any.
    #[prop(into)]
    progress: Signal<Option<Progress>>,
    /// Whether the form's configuration is valid.
    #[prop(into)]
    can_run: Signal<bool>,
    /// Cancels the run.
    cancel: Callback<()>,
) -> impl IntoView {
    view! {
        <Show
            when=move || progress.with(Option::is_some)
            fallback=move || view! {
                <button type="submit" class="primary" data-testid="run"
                    disabled=move || !can_run.get()>"Run"</button>
            }
        >
            <button type="button" data-testid="cancel" on:click=move |_| cancel.run(())>"Cancel"</button>
        </Show>
    }
}

/// The progress bar while running, and the last notice.
#[component]
pub fn RunStatus(
    /// The run under way, if any.
    #[prop(into)]
    progress: Signal<Option<Progress>>,
    /// The last notice.
    #[prop(into)]
    notice: Signal<Option<String>>,
    /// What the progress counts.
    unit: &'static str,
) -> impl IntoView {
    view! {
        {move || progress.get().map(|p| view! { <ProgressBar progress=p unit=unit /> })}
        {move || notice.get().map(|n| view! { <p class="notice" role="status" data-testid="notice">{n}</p> })}
    }
}

/// The progress bar and what is being measured.
#[component]
fn ProgressBar(
    /// Where the run stands.
    progress: Progress,
    /// What `done` and `total` count.
    unit: &'static str,
) -> impl IntoView {
    let pct = progress.fraction() * 100.0;
    let doing = [("main thread", progress.main), ("worker", progress.worker)]
        .into_iter()
        .filter_map(|(thread, key)| key.map(|k| format!("{thread}: {k}")))
        .collect::<Vec<_>>()
        .join(" · ");
    view! {
        <div class="progress" data-testid="progress" role="progressbar"
            aria-valuemin="0" aria-valuemax="100" aria-valuenow=format!("{pct:.0}")>
            <div class="fill" style:width=format!("{pct:.1}%")></div>
        </div>
        <p class="progress-text">{format!("{} of {} {unit}", progress.done, progress.total)}
            {(!doing.is_empty()).then(|| format!(" — measuring {doing}"))}</p>
    }
}
