//! End-to-end tests: the built dist (`WAITLAB_DIST`, written by `cargo
//! xtask test`) served on loopback, driven in real headless Chromium and
//! Firefox ESR, and in WebKitGTK under a virtual display, through WebDriver.
//!
//! No test assumes what a browser offers: each reads the page's own
//! feature detection ([`Features`](checks::Features)) and expects a
//! measurement where a feature is present and "not available" with the
//! missing feature named where it is absent. `*_without_new_features` runs
//! a page whose newer APIs were removed, as an older browser would have it.
//!
//! This file holds the list of scenarios, the browsers each runs in and
//! how they run (`cases`, `main`); the scenarios live in modules by
//! concern. What goes where:
//! - [`support`] and [`checks`]: what the scenarios share, to drive the
//!   page (selectors, the dist's servers, running a section and reading
//!   its report) and to check it (the browser's features and the outcomes
//!   they call for, page errors, a page that fits a phone).
//! - [`experiments`]: one scenario per experiment. `isolated_*`: a small
//!   timed-waits run on a cross-origin isolated page; the invariants the
//!   article's findings rest on, checked with one clock step of
//!   tolerance, never against absolute times. `cancel_*`: Cancel stops a
//!   long run promptly and leaves nothing running. `quiet_page_*`: nothing
//!   on the page moves while a probe measures. `long_run_embeds_*`: the
//!   embeds of periodic work and the producer/consumer handoff.
//! - [`page`]: the page as a whole. `run_all_*` and `first_screen_*`: Run
//!   all, its summary and the first screen. `fallback_*`: the same dist
//!   without COOP/COEP: a banner, worker probes that need shared memory
//!   marked unavailable, the rest still measured. `service_worker_*`: a
//!   host without headers gets isolated through the service worker after
//!   one reload; where the service worker cannot register, the banner says
//!   so and the page works. `native_*`: the bundled native and article
//!   sets beside the browser's rows in every experiment, and a run's
//!   downloads. `accessibility_*` and `reduced_motion_*`. `slow_phone_*`:
//!   Run all on a phone's screen with the CPU slowed 6 times.
//! - [`links`]: `share_*`: a link made in one browser opens read-only with
//!   the same numbers in it and in the other; "Run on my machine" and a
//!   pasted link join the comparison. `native_link_*`: `waitlab-native
//!   --link` opens as a native run. `hostile_links_*`: damaged, long,
//!   foreign, future and markup fragments give a message and no injected
//!   element.
//! - [`embeds`]: `embed_*`: `?embed=` inside a blog page on another origin,
//!   plain (the fallback runs, height messages arrive) and isolated (the
//!   full run).
//! - [`wordpress`]: `wordpress_embed_*`: every experiment's address pasted
//!   into a real WordPress (Debian's, started by the test): its oEmbed
//!   answer discovered and framed by WordPress, each frame shown and sized
//!   by WordPress's own script before and after a run, and its links
//!   landing on the experiment.
//! - [`languages`]: `language_*`, `languages_after_a_run_*`,
//!   `shell_before_the_wasm_*` and `links_in_every_language_*`: the page
//!   in the reader's language, from its first words to a link's results.
//! - [`faults`]: `fault_*`: a broken host or worker (a damaged worker wasm,
//!   a worker that throws while starting or during a job, one that never
//!   says ready, one that stops answering, a data file that never comes)
//!   ends in a message on the page within seconds, never a hang, and the
//!   other experiments still run. `runner_chunks_*` and `display_chunks_*`:
//!   the wasm chunks come when needed (none with the page), and one that
//!   cannot be fetched is said where it would show. `reference_data_broken`:
//!   the page with a malformed set and without an index.
//! - [`own_wait`]: `own_wait_*`: a reader's own way of waiting, timed in
//!   its sandbox beside the built-in setTimeout with a verdict (alone).
//!   `own_wait_hostile_*` (beside other tests): hostile code (a loop that
//!   never ends, a promise that never settles, a throw, reaching for the
//!   page, the network or the top window) ends in a message within its
//!   limit, the sandbox torn down, the page responsive; a run's link
//!   carries it, shown as text and never run. `own_pair_*` and
//!   `own_pair_hostile_*`: experiment 4's waiter and setter, the same way.
//! - [`recipes`]: `recipes_*`: every JavaScript recipe of the summary,
//!   imported as the site serves it and run, isolated and not; the
//!   summary's recipe blocks (checked after Run all).
//! - [`policy`]: `policy_enforced_*`: the pages' Content-Security-Policy
//!   is on, from the host's headers and from the page alone, and refuses
//!   an injected script and style. Every scenario runs under it, and any
//!   violation a page reports fails the suite (`main`).
//! - [`gallery`]: `gallery_*` (ignored; `cargo xtask gallery` runs them):
//!   every experiment with its defaults in one engine, for its bundled set.
//!   `engine_sets_*`: those sets in the page, apart from the native ones,
//!   picked into a comparison, with what differs between the engines.
//! - [`timeline`]: every section run shows its timeline, whose file
//!   holds what it draws (checked in `run_section`); the traces of
//!   `run_all_chromium`'s default run of every experiment, and the native
//!   probe's, open in speedscope (npm) with the threads and times of the
//!   file.
//! - [`bench`]: `bench_*` (ignored; `cargo xtask bench` runs them): fidelity
//!   ratios against a raw-JS probe in the same browser session; [`twins`]:
//!   the fast cells against their bare JavaScript twins.
//!
//! Screenshots of the states a reviewer looks at
//! ([`REVIEW_SHOTS`](support::REVIEW_SHOTS)), and of any failing test's
//! page, land in `target/screenshots/`.
#![cfg(not(target_arch = "wasm32"))]

// The scenarios' modules are in `e2e/`, beside this file (a crate root's
// own modules would be looked for beside it, among the library's).
#[path = "e2e/bench.rs"]
mod bench;
#[path = "e2e/checks.rs"]
mod checks;
#[path = "e2e/embeds.rs"]
mod embeds;
#[path = "e2e/experiments.rs"]
mod experiments;
#[path = "e2e/faults.rs"]
mod faults;
#[path = "e2e/gallery.rs"]
mod gallery;
#[path = "e2e/hidden_tab.rs"]
mod hidden_tab;
#[path = "e2e/languages.rs"]
mod languages;
#[path = "e2e/links.rs"]
mod links;
#[path = "e2e/own_wait.rs"]
mod own_wait;
#[path = "e2e/page.rs"]
mod page;
#[path = "e2e/policy.rs"]
mod policy;
#[path = "e2e/recipes.rs"]
mod recipes;
#[path = "e2e/support.rs"]
mod support;
#[path = "e2e/timeline.rs"]
mod timeline;
#[path = "e2e/twins.rs"]
mod twins;
#[path = "e2e/wordpress.rs"]
mod wordpress;

use bench::{
    bench_a_a_chromium, bench_adaptive_chromium, bench_embed_heights_chromium,
    bench_event_wake_chromium, bench_first_load_chromium, bench_noise_and_fidelity_chromium,
    bench_render_100k_chromium, bench_run_all_chromium, bench_suite_chromium,
    bench_words_on_a_slow_line_chromium,
};
use embeds::{embed, embed_app_unavailable, embed_first_screen, embed_shared_memory};
use experiments::{
    adaptive_sampling, cancel, isolated_without_new_features, mechanism_picker, quiet_page,
};
use faults::{
    display_chunks, fault_damaged_wasm, fault_data_hangs, fault_never_ready, fault_stops_answering,
    fault_throws_at_start, fault_throws_in_job, reference_data_broken, runner_chunks,
};
use gallery::{engine_sets, gallery};
use languages::{
    language_from_browser, language_from_query, language_in_embed, languages_after_a_run,
    links_in_every_language, shell_before_the_wasm,
};
use libtest_mimic::{Arguments, Completion, Trial};
use links::{hostile_links, native_link, share_round_trip};
use page::{
    accessibility, fallback, first_screen, native_comparison, reduced_motion, run_all,
    service_worker, service_worker_refused, slow_phone,
};
use policy::policy_enforced;
use std::process::ExitCode;
use waitlab_core::experiments::Experiment;
use waitlab_e2e::server::Mode;
use waitlab_e2e::webdriver::{Browser, close_pool, measuring, name_this_test, stopped_answering};
use wordpress::wordpress_embed;

/// Whether a test measures (or holds the page to a tight deadline), and
/// so runs alone, or may share the machine with another test (a fault
/// test's bound, 5 s for a watchdog of 1.3 or 2.1 s, leaves room for a
/// neighbour). Untimed tests run three at a time: a third thread took
/// their phase from about 110 to 100 s, and a fourth gained nothing (105
/// -> 110 s): the browsers they drive keep this machine's 2 cores busy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Timing {
    Untimed,
    Timed,
}

/// One test: its name, the browsers it drives, and how it runs.
struct Case {
    name: String,
    browsers: Vec<Browser>,
    timing: Timing,
    /// Ignored by the test command: a benchmark (`cargo xtask bench`) or
    /// a gallery run (`cargo xtask gallery`), each run with `--ignored`.
    bench: bool,
    run: Box<dyn Fn() + Send>,
}

impl Case {
    fn new(
        name: String,
        browsers: &[Browser],
        timing: Timing,
        run: impl Fn() + Send + 'static,
    ) -> Case {
        Case {
            name,
            browsers: browsers.to_vec(),
            timing,
            bench: false,
            run: Box::new(run),
        }
    }

    /// The same scenario in each browser, named `NAME_BROWSER`.
    fn each(name: &str, browsers: &[Browser], timing: Timing, scenario: fn(Browser)) -> Vec<Case> {
        browsers
            .iter()
            .map(|&b| {
                Case::new(format!("{name}_{}", b.name()), &[b], timing, move || {
                    scenario(b)
                })
            })
            .collect()
    }

    fn bench(name: &str, run: fn()) -> Case {
        Case {
            bench: true,
            ..Case::new(name.to_owned(), &[Browser::Chromium], Timing::Timed, run)
        }
    }

    /// The libtest-mimic trial: not run (and said why) where one of its
    /// browsers cannot be driven.
    fn trial(self) -> Trial {
        let Case {
            name,
            browsers,
            bench,
            run,
            ..
        } = self;
        let label = name.clone();
        Trial::ignorable_test(name, move || {
            if let Some(why) = browsers.iter().find_map(|b| b.available().err()) {
                return Ok(Completion::Ignored { reason: Some(why) });
            }
            name_this_test(&label);
            let started = std::time::Instant::now();
            if let Err(panic) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(&run)) {
                let Some(why) = browser_failed(&*panic) else {
                    std::panic::resume_unwind(panic);
                };
                let line =
                    format!("RAN TWICE: {label}: {why}; it ran once more, in a fresh session");
                eprintln!("{line}");
                said_again().push(line);
                run();
            }
            let secs = started.elapsed().as_secs_f64();
            eprintln!("{label}: {secs:.1} s");
            took(&label, secs);
            Ok(Completion::Completed)
        })
        .with_ignored_flag(bench)
    }
}

/// How long each test that passed took, s, in the order they ended.
fn durations() -> std::sync::MutexGuard<'static, Vec<(String, f64)>> {
    static TOOK: std::sync::Mutex<Vec<(String, f64)>> = std::sync::Mutex::new(Vec::new());
    TOOK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn took(name: &str, secs: f64) {
    durations().push((name.to_owned(), secs));
}

/// What the run must say again at its end, where it cannot be missed:
/// what tests could not check here, and tests that ran twice.
fn said_again() -> std::sync::MutexGuard<'static, Vec<String>> {
    static LINES: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    LINES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Says (now, and in the run's summary) that `test` could not check
/// `what` on this machine.
pub(crate) fn unchecked(test: &str, what: &str) {
    eprintln!("NOT CHECKED: {test}: {what}");
    said_again().push(format!("NOT CHECKED here: {test}: {what}"));
}

/// A phase's wall time and its ten slowest tests (`took`, as
/// [`durations`] held them at its end), so that a slow-down shows at the
/// change that caused it.
fn summarize(phase: &str, wall: f64, threads: usize, mut took: Vec<(String, f64)>) {
    if took.is_empty() {
        return;
    }
    took.sort_by(|a, b| b.1.total_cmp(&a.1));
    let sum: f64 = took.iter().map(|(_, s)| s).sum();
    eprintln!(
        "e2e phase {phase}: {wall:.1} s wall, {} tests passed in {sum:.1} s of test time, {threads} at a time; the slowest:",
        took.len()
    );
    for (name, secs) in took.iter().take(10) {
        eprintln!("  {secs:>7.1} s  {name}");
    }
}

/// Why a test failed, where the browser failed under it rather than
/// waitlab: WebKitGTK's web process died (WebKitWebDriver ended the
/// session: "session deleted because of page crash"), or stopped
/// answering (not even a screenshot of the failed page came within the
/// driver's timeout). Both have happened now and then here, in tests
/// that pass when run again. Such a test runs once more, and the run's
/// summary says so; one that fails for any other reason, or twice, fails.
fn browser_failed(panic: &(dyn std::any::Any + Send)) -> Option<&'static str> {
    let message = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("");
    if message.contains("session deleted because of page crash") {
        Some("the browser's page crashed under it")
    } else if stopped_answering() {
        Some("the browser stopped answering (no screenshot of the failed page)")
    } else {
        None
    }
}

/// A scenario's row: name, browsers, timing, and the scenario.
type Row = (&'static str, &'static [Browser], Timing, fn(Browser));

fn cases() -> Vec<Case> {
    use Browser::{Chromium, Firefox, WebKit};
    use Timing::{Timed, Untimed};
    const ALL: &[Browser] = &[Chromium, Firefox, WebKit];
    const BLINK_GECKO: &[Browser] = &[Chromium, Firefox];
    let mut cases = Vec::new();
    // One scenario a row, in the browsers it runs in.
    #[rustfmt::skip]
    let table: Vec<Row> = vec![
        ("isolated_without_new_features", BLINK_GECKO, Timed, isolated_without_new_features as fn(Browser)),
        ("cancel", ALL, Timed, cancel),
        ("run_all", BLINK_GECKO, Untimed, run_all),
        ("slow_phone", &[Chromium], Untimed, slow_phone),
        ("adaptive_sampling", ALL, Untimed, adaptive_sampling),
        ("fallback", ALL, Untimed, fallback),
        ("recipes", ALL, Timed, recipes::recipes),
        // An invariant (nothing on the page changes while a sample is
        // pending) that load cannot make true.
        ("quiet_page", ALL, Untimed, quiet_page),
        ("runner_chunks", ALL, Timed, runner_chunks),
        ("display_chunks", BLINK_GECKO, Untimed, display_chunks),
        ("fault_damaged_wasm", BLINK_GECKO, Untimed, fault_damaged_wasm),
        ("fault_throws_at_start", BLINK_GECKO, Untimed, fault_throws_at_start),
        ("fault_throws_in_job", BLINK_GECKO, Untimed, fault_throws_in_job),
        ("fault_never_ready", BLINK_GECKO, Untimed, fault_never_ready),
        ("fault_stops_answering", BLINK_GECKO, Untimed, fault_stops_answering),
        ("fault_data_hangs", BLINK_GECKO, Untimed, fault_data_hangs),
        ("native_comparison", ALL, Untimed, native_comparison),
        ("hostile_links", ALL, Untimed, hostile_links),
        ("service_worker", ALL, Untimed, service_worker),
        ("service_worker_refused", BLINK_GECKO, Untimed, service_worker_refused),
        ("embed_in_plain_blog", ALL, Untimed, |b| embed(b, Mode::Plain)),
        ("embed_in_isolated_blog", &[Chromium], Untimed, |b| embed(b, Mode::Isolated)),
        ("language_from_browser", BLINK_GECKO, Untimed, language_from_browser),
        ("language_from_query", BLINK_GECKO, Untimed, language_from_query),
        ("language_in_embed", ALL, Untimed, language_in_embed),
        ("embed_first_screen", ALL, Untimed, embed_first_screen),
        ("embed_shared_memory", ALL, Untimed, embed_shared_memory),
        ("wordpress_embed", ALL, Untimed, wordpress_embed),
        ("first_screen", ALL, Untimed, first_screen),
        ("embed_app_unavailable", ALL, Untimed, embed_app_unavailable),
        ("languages_after_a_run", BLINK_GECKO, Untimed, languages_after_a_run),
        ("shell_before_the_wasm", BLINK_GECKO, Untimed, shell_before_the_wasm),
        ("links_in_every_language", &[Chromium], Untimed, links_in_every_language),
        ("accessibility", BLINK_GECKO, Untimed, accessibility),
        ("reduced_motion", BLINK_GECKO, Untimed, reduced_motion),
        ("mechanism_picker", BLINK_GECKO, Untimed, mechanism_picker),
        ("policy_enforced", ALL, Untimed, policy_enforced),
        ("engine_sets", ALL, Untimed, engine_sets),
        ("native_link", &[Chromium], Untimed, native_link),
        // Judged by a verdict on times: alone.
        ("own_wait", ALL, Timed, own_wait::own_wait),
        ("own_pair", ALL, Timed, own_wait::own_pair),
        // Their links, languages and hostile code: no verdict on times.
        ("own_wait_hostile", ALL, Untimed, own_wait::own_wait_hostile),
        ("own_pair_hostile", ALL, Untimed, own_wait::own_pair_hostile),
        // The embeds of experiments 7 and 9, held to bounds load keeps.
        ("long_run_embeds", ALL, Untimed, experiments::long_run_embeds),
    ];
    // Each experiment's own scenario, named by its id ("isolated" is the
    // timed waits' on an isolated page).
    // Each judges times but the concurrency limit's, whose bounds (peaks,
    // a job never shorter than asked, a batch never faster than its jobs
    // spread over the slots) hold however loaded the machine is.
    let own = Experiment::ALL.into_iter().map(|e| {
        let name = if e == Experiment::TimedWaits {
            "isolated"
        } else {
            e.id()
        };
        let timing = if e == Experiment::ConcurrencyLimit {
            Untimed
        } else {
            Timed
        };
        (name, ALL, timing, experiments::scenario(e))
    });
    // The long ones first, so that three threads end together.
    for (from, to) in [(Chromium, Firefox), (Firefox, Chromium), (WebKit, Chromium)] {
        let name = format!("share_{}_to_{}", from.name(), to.name());
        cases.push(Case::new(name, &[from, to], Untimed, move || {
            share_round_trip(from, to)
        }));
    }
    for (name, browsers, timing, scenario) in own.chain(table) {
        cases.extend(Case::each(name, browsers, timing, scenario));
    }
    cases.push(Case::new(
        "reference_data_broken".into(),
        &[Chromium],
        Untimed,
        reference_data_broken,
    ));
    // The benches, each named by its function.
    macro_rules! benches {
        ($($bench:ident),*) => { [$((stringify!($bench), $bench as fn())),*] };
    }
    let benches = benches!(
        bench_run_all_chromium,
        bench_adaptive_chromium,
        bench_a_a_chromium,
        bench_noise_and_fidelity_chromium,
        bench_suite_chromium,
        bench_first_load_chromium,
        bench_words_on_a_slow_line_chromium,
        bench_event_wake_chromium,
        bench_render_100k_chromium,
        bench_embed_heights_chromium
    );
    cases.extend(
        benches
            .into_iter()
            .map(|(name, run)| Case::bench(name, run)),
    );
    // The sandbox's fidelity, a bench in each engine.
    cases.extend(
        Case::each("bench_own_wait", ALL, Timed, own_wait::bench_own_wait)
            .into_iter()
            .map(|c| Case { bench: true, ..c }),
    );
    // The own pair against the built-in way it copies, in each engine.
    cases.extend(
        Case::each("bench_own_pair", ALL, Timed, own_wait::bench_own_pair)
            .into_iter()
            .map(|c| Case { bench: true, ..c }),
    );
    // The fast cells beside their bare JavaScript twins, in each engine.
    cases.extend(
        Case::each("bench_twins", ALL, Timed, twins::bench_twins)
            .into_iter()
            .map(|c| Case { bench: true, ..c }),
    );
    // `cargo xtask gallery`'s runs, ignored like the benches.
    cases.extend(
        Case::each("gallery", ALL, Timed, gallery)
            .into_iter()
            .map(|c| Case { bench: true, ..c }),
    );
    cases
}

/// The tests that measure nothing run first, three at a time (sharing the
/// pooled browser sessions); the ones that measure run after them, one at
/// a time, in fresh sessions. `--test-threads` sets both.
fn main() -> ExitCode {
    let args = Arguments::from_args();
    let (untimed, timed): (Vec<Case>, Vec<Case>) = cases()
        .into_iter()
        .partition(|c| c.timing == Timing::Untimed);
    let mut failed = false;
    let mut walls = Vec::new();
    for (phase, cases, threads, measure) in
        [("untimed", untimed, 3, false), ("timed", timed, 1, true)]
    {
        measuring(measure);
        let threads = args.test_threads.unwrap_or(threads);
        let args = Arguments {
            test_threads: Some(threads),
            ..args.clone()
        };
        let started = std::time::Instant::now();
        let conclusion = libtest_mimic::run(&args, cases.into_iter().map(Case::trial).collect());
        failed |= conclusion.has_failed();
        let took = std::mem::take(&mut *durations());
        walls.push((phase, started.elapsed().as_secs_f64(), threads, took));
        // The timed tests start with one session per browser: WebKitGTK
        // throttles the timers of a window that another one covers (on
        // xvfb's bare display the newest window covers the older ones).
        close_pool();
    }
    for (phase, wall, threads, took) in walls {
        summarize(phase, wall, threads, took);
    }
    for line in said_again().iter() {
        eprintln!("{line}");
    }
    // A policy violation fails the suite wherever it happened: in a
    // frame, on a page a test had left, in a test that reads no errors.
    let violations = waitlab_e2e::server::policy_violations();
    for v in &violations {
        eprintln!("Content-Security-Policy violation: {v}");
    }
    failed |= !violations.is_empty();
    if failed {
        ExitCode::from(101)
    } else {
        ExitCode::SUCCESS
    }
}
