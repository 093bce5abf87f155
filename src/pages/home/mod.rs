//! The playground page: the environment block, the native sets, the runs
//! opened from links, then one section per experiment (each in its own file
//! beside this one). With `?embed=<experiment>` the page is one compact
//! section for an iframe instead.

mod main_starvation;
mod pool_starvation;
mod spin_ladder;
mod timed_waits;
mod wake_latency;

use crate::components::comparison::ReferencePanel;
use crate::components::env_block::EnvBlock;
use crate::components::links::{Embedded, SharePanel};
use crate::hooks::{
    SharedMemoryOff, UseEnvironment, embed_slug, use_embed, use_environment, use_linked_runs,
    use_reference_sets,
};
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
    let embed = embed_slug();
    // An embed loads the native parts of its experiment only.
    let shown = match embed.as_deref().map(Experiment::from_slug) {
        Some(Some(experiment)) => vec![experiment],
        Some(None) => Vec::new(),
        None => Experiment::ALL.to_vec(),
    };
    provide_context(use_reference_sets(shown));
    provide_context(use_linked_runs());
    provide_context(use_environment());
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
    /// Why.
    off: SharedMemoryOff,
) -> impl IntoView {
    let why = match off {
        SharedMemoryOff::NoSharedArrayBuffer => {
            " The page is cross-origin isolated, but this browser provides no SharedArrayBuffer. \
            The worker probes that block in Atomics.wait are shown as unavailable; everything else \
            still runs."
        }
        SharedMemoryOff::NotIsolated => {
            " The page is not cross-origin isolated, so browsers withhold SharedArrayBuffer \
            and coarsen the clock. The worker probes that block in Atomics.wait are shown as \
            unavailable; everything else still runs. To get them, serve waitlab with the headers \
            Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: \
            require-corp (cargo xtask serve does)."
        }
    };
    let problem = expect_context::<UseEnvironment>().isolation_problem;
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
    let environment = expect_context::<UseEnvironment>();
    environment.measure_after_first_paint();
    let (env, shared_memory_off) = (environment.env, environment.shared_memory_off);
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
            {shared_memory_off.map(|off| view! { <NoSharedMemoryBanner off=off /> })}
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
    let open = use_embed().open_url;
    let shared_memory = expect_context::<UseEnvironment>()
        .shared_memory_off
        .is_none();
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
