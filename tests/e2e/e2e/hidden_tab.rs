//! Experiment 10 in every engine: the page hidden behind a new tab while
//! every way ticks, its findings, link and embed; a run the reader never
//! leaves says so. What an engine does to a hidden page is read from the
//! run itself, never from the engine's name.

use crate::checks::*;
use crate::embeds::run_embed;
use crate::links::share_and_open;
use crate::support::*;
use std::time::Duration;
use waitlab_core::experiments::hidden_tab::{HiddenTab, Keeper, KeeperResult};
use waitlab_core::outcome::Outcome;
use waitlab_core::schema::Report;
use waitlab_e2e::webdriver::{Browser, HiddenBy, Session};

/// How long the page stays hidden, s: past the three seconds it asks for.
const AWAY: Duration = Duration::from_secs(5);

/// A run of `seconds` with the page hidden for [`AWAY`] after a second of
/// ticking (its window minimized, or behind a new tab), where the driver
/// can hide it (else why not); the report once the run is over, and
/// whether the window was minimized (the page itself then said it was
/// hidden).
pub(crate) fn run_hidden(s: &mut Session, seconds: &str) -> Result<(Report, bool), String> {
    let sel = |id: &str| format!("[data-testid=hidden-tab] [data-testid={id}]");
    s.type_into(&sel("seconds"), seconds);
    press_run(s, "hidden-tab", "false");
    // The workers start first; the window opens with the page's ask.
    let asking = format!(
        "document.querySelector({}) !== null",
        serde_json::Value::from(sel("progress-ask"))
    );
    s.wait_for(&asking, 20);
    let ask = s.text(&sel("progress-ask")).unwrap_or_default();
    assert!(ask.contains("another tab"), "{ask}");
    s.eval(&format!(
        "document.querySelector({}).scrollIntoView({{ block: 'center' }}); return null;",
        serde_json::Value::from(sel("progress-ask"))
    ));
    review_shot(s, "hidden-tab-running");
    std::thread::sleep(Duration::from_secs(1));
    let hidden_by = s.hide_page()?;
    eprintln!("{}: the page hidden by {hidden_by:?}", s.browser.name());
    let minimized = matches!(hidden_by, HiddenBy::Minimizing);
    std::thread::sleep(AWAY);
    s.show_page(hidden_by);
    s.wait_for_element(&sel("report-json"), 60);
    let json = report_json(s, &sel("report-json"));
    let report = Report::from_json(&json).expect("the exported report parses");
    Ok((report, minimized))
}

/// The way `way` of `run`.
fn way(run: &HiddenTab, way: Keeper) -> &KeeperResult {
    run.results
        .iter()
        .find(|r| r.way == way)
        .expect("every way has a result")
}

pub(crate) fn hidden_tab(browser: Browser) {
    let mut s = Session::start_throttling(browser);
    s.open_for(&isolated_server().origin, "hidden-tab");
    let features = Features::detect(&mut s);
    // Every driver here can open a tab, or minimize: a run that could
    // not hide the page has checked nothing, and fails.
    let (report, minimized) = run_hidden(&mut s, "8")
        .unwrap_or_else(|why| panic!("{}: the page could not be hidden: {why}", browser.name()));
    let run = report.hidden_tab.clone().expect("experiment 10's results");
    let slack = timer_slack(browser, report.env.clock.map_or(0.1, |c| c.tolerance_ms()));
    for r in &run.results {
        eprintln!(
            "{} {:<16} visible p50 {:>8.2} ms, hidden p50 {:>8.2} ms, ×{:>6.1}, lost {:?}, behind {:?}",
            browser.name(),
            r.way.id(),
            r.visible.p50().unwrap_or(f64::NAN),
            r.hidden.p50().unwrap_or(f64::NAN),
            r.slowdown().unwrap_or(f64::NAN),
            r.lost,
            r.behind_ms
        );
    }
    // A timer never fires before its interval, less a clock step (or the
    // engine's timer slack).
    let interval = f64::from(run.config.interval_ms);
    for w in [Keeper::PageNested, Keeper::PageFresh, Keeper::WorkerTimeout] {
        let early = way(&run, w)
            .visible
            .samples()
            .unwrap_or_default()
            .iter()
            .any(|&v| v < interval - slack);
        assert!(!early, "{w:?}: a visible interval under {interval} ms");
    }
    assert_eq!(
        matches!(
            way(&run, Keeper::WorkerAtomics).visible,
            Outcome::Measured { .. }
        ),
        features.shared_memory(),
        "Atomics.wait ticks where the page has shared memory"
    );
    if run.hidden.is_empty() {
        // Minimized, the page said it was hidden: a run that saw no
        // hidden stretch then is the page's fault.
        assert!(
            !minimized,
            "{}: the window was minimized and the page said it was hidden, yet the run saw no hidden stretch",
            browser.name()
        );
        // A driver's new tab may leave the page visible: the run must say
        // so, and the suite's summary says what went unchecked.
        crate::unchecked(
            &format!("hidden_tab_{}", browser.name()),
            "the driver's new tab left the page visible: nothing hidden was measured",
        );
        assert_text_holds(
            &mut s,
            "[data-testid=hidden-tab] [data-testid=findings]",
            &["stayed visible"],
        );
        return;
    }
    let hidden_s = run.hidden_ms() / 1000.0;
    assert!((3.0..12.0).contains(&hidden_s), "hidden {hidden_s} s");
    // Where the engine throttles the page's timers (ten times their
    // visible interval), a worker's keep within a small factor of theirs.
    let nested = way(&run, Keeper::PageNested)
        .slowdown()
        .expect("a nested chain hidden");
    let worker = way(&run, Keeper::WorkerTimeout)
        .slowdown()
        .expect("a worker's chain hidden");
    eprintln!(
        "{}: hidden/visible nested ×{nested:.1}, worker ×{worker:.2}",
        browser.name()
    );
    if nested >= 10.0 {
        assert!(worker <= 3.0, "a worker's timer slowed ×{worker} hidden");
        assert_text_holds(
            &mut s,
            "[data-testid=hidden-tab] [data-testid=findings]",
            &["kept time", "These did not"],
        );
    }
    s.eval("document.querySelector('[data-testid=hidden-tab] [data-testid=results]').scrollIntoView(); return null;");
    review_shot(&mut s, "hidden-tab-results");
    // No native row, and the comparison says why.
    reach_comparison(&mut s, "hidden-tab");
    assert_text_holds(
        &mut s,
        "[data-testid=hidden-tab] [data-testid=no-native]",
        &["no tab to hide"],
    );
    assert_fits_phone(&mut s, "hidden-tab-results");
    let shared = share_and_open(&mut s, "hidden-tab", "hidden-tab-shared")
        .hidden_tab
        .expect("the link's experiment 10");
    assert_eq!(shared.config, run.config);
    assert_eq!(shared.results.len(), run.results.len());
    for (a, b) in run.hidden.iter().zip(&shared.hidden) {
        assert!((a.from_ms - b.from_ms).abs() <= 0.5 && (a.to_ms - b.to_ms).abs() <= 0.5);
    }
    // An embed whose reader never leaves: only the visible half, said so.
    let embedded = run_embed(&mut s, "hidden-tab", &[("seconds", "5")])
        .hidden_tab
        .expect("the embed's run");
    assert!(embedded.hidden.is_empty(), "{:?}", embedded.hidden);
    assert_text_holds(
        &mut s,
        "[data-testid=hidden-tab] [data-testid=findings]",
        &["stayed visible"],
    );
    assert_no_page_errors(&mut s);
}
