//! The playground page: the environment, and experiment 1 (timed waits)
//! with its controls, progress, findings, charts and table.

use crate::components::charts::{ChainChart, HistogramChart, OverviewChart, samples_of};
use crate::components::env_block::EnvBlock;
use crate::components::results_table::ResultsTable;
use crate::hooks::{UseTimedWaits, use_timed_waits};
use crate::runner::{Progress, environment};
use leptos::prelude::*;
use waitlab_core::findings;
use waitlab_core::probe::{CellKey, Mechanism, TimedWaitsConfig};
use waitlab_core::schema::{Report, TimedWaits};

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let env = environment();
    let isolated = env.cross_origin_isolated;
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
            <TimedWaitsSection />
        </main>
        <footer class="site">
            "waitlab measures in your browser; nothing leaves this page. Statistics: type-7 quantiles \
            over every sample."
        </footer>
    }
}

/// Experiment 1: controls, progress and results.
#[component]
fn TimedWaitsSection() -> impl IntoView {
    let defaults = TimedWaitsConfig::default();
    let durations = RwSignal::new(
        defaults
            .durations_ms
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", "),
    );
    let samples = RwSignal::new(defaults.samples.to_string());
    let config = Memo::new(move |_| {
        TimedWaitsConfig::parse(&durations.get(), &samples.get()).map_err(|e| e.to_string())
    });
    let UseTimedWaits {
        progress,
        report,
        notice,
        run,
        cancel,
    } = use_timed_waits();
    let running = move || progress.with(Option::is_some);
    let start = move |_| {
        if let Ok(c) = config.get() {
            run.run(c);
        }
    };
    view! {
        <section class="card experiment" data-testid="timed-waits">
            <h2><span class="num-badge">"1"</span>" Timed waits: how long does “wait 1 ms” take?"</h2>
            <div class="explain">
                <p>"In the article, Thread.Sleep and await Task.Delay on macOS overshoot a requested \
                    wait by 0.3–2 ms, Task.Delay(0) completes synchronously without yielding, and on \
                    Windows Task.Delay(1) takes about 15.6 ms because the system clock ticks every \
                    15.6 ms."</p>
                <p>"In the browser, setTimeout plays Task.Delay and a worker blocking in Atomics.wait \
                    plays Thread.Sleep. Awaiting a timer right after another timer hits the HTML \
                    standard's 4 ms clamp on nested timers, the web's own 15.6 ms surprise; starting \
                    it from a fresh task avoids it. Awaiting a resolved promise, like Task.Delay(0), \
                    never yields at all."</p>
            </div>
            <form class="controls" on:submit=move |e| { e.prevent_default(); start(()); }>
                <label>"Durations, ms"
                    <input type="text" data-testid="durations" prop:value=durations
                        on:input=move |e| durations.set(event_target_value(&e)) />
                </label>
                <label>"Samples per cell"
                    <input type="text" inputmode="numeric" data-testid="samples" prop:value=samples
                        on:input=move |e| samples.set(event_target_value(&e)) />
                </label>
                <Show
                    when=running
                    fallback=move || view! {
                        <button type="submit" class="primary" data-testid="run"
                            disabled=move || config.with(Result::is_err)>"Run"</button>
                    }
                >
                    <button type="button" data-testid="cancel" on:click=move |_| cancel.run(())>"Cancel"</button>
                </Show>
                <span class="hint">{move || match config.get() {
                    Ok(c) => format!("at most about {} s", (c.estimated_ms() / 1000.0).ceil()),
                    Err(_) => String::new(),
                }}</span>
            </form>
            {move || config.get().err().map(|e| view! { <p class="error" role="alert" data-testid="config-error">{e}</p> })}
            {move || progress.get().map(|p| view! { <ProgressBar progress=p /> })}
            {move || notice.get().map(|n| view! { <p class="notice" role="status" data-testid="notice">{n}</p> })}
            {move || report.get().map(|r| view! { <TimedWaitsResults report=r /> })}
        </section>
    }
}

/// The progress bar and what is being measured.
#[component]
fn ProgressBar(
    /// Where the run stands.
    progress: Progress,
) -> impl IntoView {
    let pct = progress.fraction() * 100.0;
    let doing = [("main thread", progress.main), ("worker", progress.worker)]
        .into_iter()
        .filter_map(|(thread, key)| key.map(|k| format!("{thread}: {}", k.label())))
        .collect::<Vec<_>>()
        .join(" · ");
    view! {
        <div class="progress" data-testid="progress" role="progressbar"
            aria-valuemin="0" aria-valuemax="100" aria-valuenow=format!("{pct:.0}")>
            <div class="fill" style:width=format!("{pct:.1}%")></div>
        </div>
        <p class="progress-text">{format!("{} of {} samples", progress.done, progress.total)}
            {(!doing.is_empty()).then(|| format!(" — measuring {doing}"))}</p>
    }
}

/// The default cell for the histogram: the smallest positive wait of the
/// back-to-back timer, else the first measured cell.
fn default_selection(tw: &TimedWaits) -> Option<CellKey> {
    let measured = |c: &&waitlab_core::schema::Cell| c.outcome.summary().is_some();
    tw.cells
        .iter()
        .filter(measured)
        .find(|c| c.key.mechanism == Mechanism::TimeoutAwaited && c.key.requested_ms != Some(0))
        .or_else(|| tw.cells.iter().find(measured))
        .map(|c| c.key)
}

/// Findings, charts, table and the raw JSON of a finished run.
#[component]
fn TimedWaitsResults(
    /// The finished run.
    report: Report,
) -> impl IntoView {
    let Some(tw) = report.timed_waits.clone() else {
        return view! { <p class="error">"This result has no timed-waits data"</p> }.into_any();
    };
    let tolerance = report.env.clock.map(|c| c.tolerance_ms()).unwrap_or(0.001);
    let selected = RwSignal::new(default_selection(&tw));
    let overview: Vec<_> = tw
        .cells
        .iter()
        .filter_map(|c| c.outcome.summary().map(|s| (c.key, *s)))
        .collect();
    let cells = tw.cells.clone();
    let histogram = move || {
        let key = selected.get()?;
        let cell = cells.iter().find(|c| c.key == key)?;
        let samples = samples_of(&cell.outcome)?;
        Some(view! { <HistogramChart key=key samples=samples /> })
    };
    let json = report.to_json();
    let download = format!(
        "data:application/json;charset=utf-8,{}",
        js_sys::encode_uri_component(&json)
    );
    view! {
        <div class="results-block" data-testid="results">
            {report.env.hidden_during_run.then(|| view! {
                <p class="banner warn" data-testid="throttled">"Throttled: the page was hidden during this run"</p>
            })}
            <h3>"What this run shows"</h3>
            <ul class="findings" data-testid="findings">
                {findings::timed_waits(&tw, tolerance).into_iter().map(|f| view! { <li>{f}</li> }).collect_view()}
            </ul>
            <h3>"Every wait at a glance"</h3>
            <OverviewChart rows=overview />
            <h3>"Distribution of one cell "<small>"(click a row of the table to choose)"</small></h3>
            {histogram}
            <h3>"All numbers, ms"</h3>
            <ResultsTable cells=tw.cells.clone() selected=selected />
            <h3>"Nested setTimeout(0): where the clamp starts"</h3>
            <ChainChart chain=tw.chain.clone() tolerance_ms=tolerance />
            <details class="raw">
                <summary>"Raw result (JSON, schema waitlab.result v"{report.version}")"</summary>
                <a class="button" download="waitlab-result.json" href=download>"Download JSON"</a>
                <pre data-testid="report-json">{json}</pre>
            </details>
        </div>
    }
    .into_any()
}
