//! The playground page: the environment block, then one section per
//! experiment (each in its own file beside this one).

mod main_starvation;
mod pool_starvation;
mod spin_ladder;
mod timed_waits;
mod wake_latency;

use crate::components::comparison::ReferencePanel;
use crate::components::env_block::EnvBlock;
use crate::hooks::use_reference_sets;
use crate::runner::environment;
use leptos::prelude::*;
use main_starvation::MainStarvationSection;
use pool_starvation::PoolStarvationSection;
use spin_ladder::SpinLadderSection;
use timed_waits::TimedWaitsSection;
use wake_latency::WakeLatencySection;

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let env = environment();
    let isolated = env.cross_origin_isolated;
    provide_context(use_reference_sets());
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
                <EnvBlock env=env />
            </section>
            {(!isolated).then(|| view! {
                <aside class="banner" data-testid="no-coi" role="status">
                    <strong>"Shared memory is off on this page."</strong>
                    " The page is not cross-origin isolated, so browsers withhold SharedArrayBuffer \
                    and coarsen the clock. The worker probes that block in Atomics.wait are shown as \
                    unavailable; everything else still runs. To get them, serve waitlab with the headers \
                    Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: \
                    require-corp (cargo xtask serve does)."
                </aside>
            })}
            <ReferencePanel />
            <TimedWaitsSection />
            <MainStarvationSection />
            <PoolStarvationSection />
            <SpinLadderSection />
            <WakeLatencySection />
        </main>
        <footer class="site">
            "waitlab measures in your browser; nothing leaves this page. Statistics: type-7 quantiles \
            over every sample."
        </footer>
    }
}
