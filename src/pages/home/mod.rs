//! The playground page: the environment block, the native sets, the runs
//! opened from links, then one section per experiment (each in its own file
//! beside this one). With `?embed=<experiment>` the page is one compact
//! section for an iframe instead.

mod main_starvation;
mod pool_starvation;
mod spin_ladder;
mod timed_waits;
mod wake_latency;

use crate::browser::{location, memory, page, wait};
use crate::components::comparison::ReferencePanel;
use crate::components::env_block::EnvBlock;
use crate::components::links::{Embedded, SharePanel};
use crate::hooks::{use_linked_runs, use_reference_sets};
use crate::runner::environment;
use leptos::prelude::*;
use main_starvation::MainStarvationSection;
use pool_starvation::PoolStarvationSection;
use spin_ladder::SpinLadderSection;
use timed_waits::TimedWaitsSection;
use waitlab_core::experiment::Experiment;
use wake_latency::WakeLatencySection;

/// The section of one experiment.
fn section(experiment: Experiment) -> AnyView {
    match experiment {
        Experiment::TimedWaits => view! { <TimedWaitsSection /> }.into_any(),
        Experiment::MainStarvation => view! { <MainStarvationSection /> }.into_any(),
        Experiment::PoolStarvation => view! { <PoolStarvationSection /> }.into_any(),
        Experiment::SpinLadder => view! { <SpinLadderSection /> }.into_any(),
        Experiment::WakeLatency => view! { <WakeLatencySection /> }.into_any(),
    }
}

/// The page: the whole playground, or one embedded experiment.
#[component]
pub fn App() -> impl IntoView {
    provide_context(use_reference_sets());
    provide_context(use_linked_runs());
    let embed = location::query_param("embed");
    provide_context(Embedded(embed.is_some()));
    match embed {
        Some(slug) => view! { <Embed slug=slug /> }.into_any(),
        None => view! { <Playground /> }.into_any(),
    }
}

/// Shared memory is off: why (detected, never guessed) and what that
/// costs, said once at the top.
#[component]
fn NoSharedMemoryBanner(
    /// Why, as `memory::unavailable_reason` says.
    reason: &'static str,
) -> impl IntoView {
    let why = if reason == memory::NO_SHARED_ARRAY_BUFFER {
        " The page is cross-origin isolated, but this browser provides no SharedArrayBuffer. \
        The worker probes that block in Atomics.wait are shown as unavailable; everything else \
        still runs."
    } else {
        " The page is not cross-origin isolated, so browsers withhold SharedArrayBuffer \
        and coarsen the clock. The worker probes that block in Atomics.wait are shown as \
        unavailable; everything else still runs. To get them, serve waitlab with the headers \
        Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: \
        require-corp (cargo xtask serve does)."
    };
    // coi.js may give up on its service worker after the page mounted.
    let problem = RwSignal::new(page::isolation_problem());
    let listener =
        StoredValue::new_local(Some(page::EventListener::isolation_problem(move || {
            problem.set(page::isolation_problem())
        })));
    on_cleanup(move || listener.set_value(None));
    view! {
        <aside class="banner" data-testid="no-coi" role="status">
            <strong>"Shared memory is off on this page."</strong>
            {why}
            {move || problem.get().map(|p| view! {
                <span data-testid="coi-problem">{format!(" Isolating it without those headers did not work: {p}.")}</span>
            })}
        </aside>
    }
}

/// The whole playground.
#[component]
fn Playground() -> impl IntoView {
    // The clock is read in a busy loop for a few ms: after the first paint
    // (or a moment, where a hidden page paints nothing), so the page shows
    // at once.
    let env = RwSignal::new(None);
    leptos::task::spawn_local(async move {
        let frame = Box::pin(wait::animation_frame());
        let _ = futures::future::select(frame, Box::pin(wait::timeout(200))).await;
        wait::fresh_task().await;
        env.set(Some(environment()));
    });
    let no_shared_memory = memory::unavailable_reason();
    view! {
        <header class="site">
            <h1>"waitlab"</h1>
            <p class="tagline">"How should code wait? The experiments of a well-known .NET article on \
                Thread.Sleep, Task.Delay, SpinWait and event signals, re-run live in your browser."</p>
        </header>
        <main>
            <section class="card">
                <h2>"This browser"</h2>
                <p class="lead">"Every number below depends on the clock: a wait shorter than one \
                    step of performance.now() cannot be told from zero."</p>
                {move || match env.get() {
                    Some(env) => view! { <EnvBlock env=env /> }.into_any(),
                    None => view! { <p class="lead" data-testid="env-measuring">"Reading the clock…"</p> }.into_any(),
                }}
            </section>
            {no_shared_memory.map(|reason| view! { <NoSharedMemoryBanner reason=reason /> })}
            <SharePanel />
            <ReferencePanel />
            {Experiment::ALL.into_iter().map(section).collect_view()}
        </main>
        <footer class="site">
            "waitlab measures in your browser; nothing leaves this page unless you share a link, and \
            a link carries only the numbers. Statistics: type-7 quantiles over every sample."
        </footer>
    }
}

/// One experiment for an iframe: no site chrome, an "Open in waitlab"
/// link, and the page's height posted to the parent on every resize.
#[component]
fn Embed(
    /// The `?embed=` value.
    slug: String,
) -> impl IntoView {
    // After the first render: report the height now and on every resize.
    let resize = StoredValue::new_local(None::<page::ResizeListener>);
    Effect::new(move |_| {
        resize.set_value(Some(page::ResizeListener::new(location::post_height)));
        location::post_height();
    });
    on_cleanup(move || resize.set_value(None));
    let open = {
        let fragment = location::fragment();
        if fragment.is_empty() {
            location::page_url()
        } else {
            format!("{}#{fragment}", location::page_url())
        }
    };
    let shared_memory = memory::unavailable_reason().is_none();
    let body = match Experiment::from_slug(&slug) {
        Some(experiment) => section(experiment),
        None => view! {
            <p class="error" role="alert" data-testid="embed-unknown">
                {format!(
                    "There is no experiment \"{}\" to embed; choose one of: {}.",
                    slug.chars().take(40).collect::<String>(),
                    Experiment::ALL.map(|e| e.slug()).join(", ")
                )}
            </p>
        }
        .into_any(),
    };
    view! {
        <div class="embed" data-testid="embed">
            <div class="embed-bar">
                <strong>"waitlab"</strong>
                <a href=open target="_blank" rel="noopener" data-testid="open-in-waitlab">"Open in waitlab ↗"</a>
            </div>
            {(!shared_memory).then(|| view! {
                <p class="embed-note" data-testid="no-coi">
                    "Shared memory is off in this embed, so the probes that block in Atomics.wait \
                    need the full page (Open in waitlab); everything else runs here."
                </p>
            })}
            {body}
        </div>
    }
}
