//! Faults: each served by a host of its own, each must end in a message: a
//! broken worker, a wasm chunk that cannot be fetched, a data file that
//! never comes, and broken reference data or texts.

use crate::checks::*;
use crate::support::*;
use serde_json::Value;
use std::path::PathBuf;
use waitlab_core::experiments::Experiment;
use waitlab_core::key;
use waitlab_core::lang::Lang;
use waitlab_core::text::Part;
use waitlab_e2e::server::{Fault, Mode, Server};
use waitlab_e2e::webdriver::{Browser, Lease, Session};

/// A malformed set is named with its error and the others still show; a
/// missing index leaves a message in the panel; the experiments run.
/// Missing texts of runs or of comparisons are said where they are needed.
pub(crate) fn reference_data_broken() {
    let copy = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("dist-broken-data");
    let _ = std::fs::remove_dir_all(&copy);
    copy_dir(&dist(), &copy);
    let data = copy.join("data/native");
    std::fs::write(
        data.join("packs/rust-linux-x86_64.timed-waits.bin"),
        "{ <b>not a pack",
    )
    .unwrap();
    let server = Server::start(&copy, Mode::Isolated);
    let mut s = Session::lease(Browser::Chromium);
    s.open_for(&server.origin, "timed-waits");
    // The sets' parts come when the reader reaches a comparison.
    reach_comparison(&mut s, "timed-waits");
    let broken = format!("{}.error", tid("set-rust-linux-x86_64"));
    s.wait_for_element(&broken, 20);
    assert!(s.text(&broken).unwrap().contains("not shown"));
    assert_eq!(
        count(&mut s, "[data-testid=reference] b"),
        0,
        "no markup from data"
    );
    assert!(
        count(&mut s, &tid("group-stated")) >= 1,
        "the article's set still shows"
    );
    scroll_to(&mut s, &tid("reference"));
    review_shot(&mut s, "reference-broken-set");
    run_experiment(&mut s, "1", "3", "reference-broken");

    std::fs::remove_file(data.join("packs/index.bin")).unwrap();
    s.open_first_screen(&server.origin);
    s.wait_for_element(&tid("reference-error"), 20);
    assert!(
        s.text(&tid("reference-error"))
            .unwrap()
            .contains("HTTP 404")
    );
    scroll_to(&mut s, &tid("reference"));
    review_shot(&mut s, "reference-no-index");
    run_experiment(&mut s, "1", "3", "reference-no-index");
    assert_no_page_errors(&mut s);

    // Without the texts of runs, Run says so and the page stays usable.
    std::fs::remove_file(copy.join("i18n").join(Part::Runs.file(Lang::En))).unwrap();
    s.open_for(&server.origin, "timed-waits");
    run_until_alert(&mut s, "timed-waits");
    let notice = s.text(&in_tw("notice")).unwrap();
    let expected = fixed_part(&catalog(Lang::En), key!("page.texts_failed"));
    assert!(notice.contains(&expected), "{notice}");
    review_shot(&mut s, "runs-texts-missing");

    // Without the comparisons' texts, a comparison says so where it would
    // be.
    std::fs::remove_file(copy.join("i18n").join(Part::Compare.file(Lang::En))).unwrap();
    s.open_first_screen(&server.origin);
    let place = "[data-testid=timed-waits] [data-testid=comparison-place]";
    scroll_to(&mut s, place);
    let missing = format!("{place} [data-testid=texts-not-loaded]");
    s.wait_for_element(&missing, 20);
    assert!(s.text(&missing).unwrap().contains(&expected));
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Clicks Run in `section` and returns how long, in ms of the page's
/// clock, until the section shows an alert and Run again.
fn run_until_alert(s: &mut Session, section: &str) -> f64 {
    let sel = |id: &str| format!("[data-testid={section}] [data-testid={id}]");
    let took = s.eval_async(&format!(
        "const q = (id) => document.querySelector(`[data-testid={section}] [data-testid=${{id}}]`);\
         const t0 = performance.now();\
         q('run').click();\
         while (!(q('notice') && q('notice').getAttribute('role') === 'alert' && q('run'))) {{\
           if (performance.now() - t0 > 60000) return -1;\
           await new Promise(r => setTimeout(r, 5));\
         }}\
         return performance.now() - t0;"
    ));
    let ms = took.as_f64().unwrap();
    assert!(
        ms >= 0.0,
        "{}: no alert in {section} within 60 s",
        s.browser.name()
    );
    assert_eq!(count(s, &sel("cancel")), 0, "Cancel is gone");
    ms
}

/// A host that misbehaves as `fault` says (a file of the worker or of a
/// runner): the timed-waits run ends with an alert naming `expect`, then
/// the main-thread experiment still runs. Prints the time from Run to the
/// message; returns the session, for more checks.
fn host_fault(browser: Browser, name: &str, fault: Fault, expect: &str) -> Lease {
    let server = Server::start_with(&dist(), Mode::Isolated, &[fault]);
    let mut s = Session::lease(browser);
    s.open(&server.origin);
    s.type_into(&in_tw("durations"), "10");
    s.type_into(&in_tw("samples"), "100");
    let ms = run_until_alert(&mut s, "timed-waits");
    let alert = s.text(&in_tw("notice")).unwrap();
    println!(
        "{}: fault {name}: message after {ms:.0} ms: {alert}",
        browser.name()
    );
    assert!(alert.contains(expect), "{name}: {alert}");
    // Sooner than the run would have taken had the worker answered.
    use waitlab_core::experiments::Config;
    let run_ms = waitlab_core::experiments::timed_waits::TimedWaitsConfig {
        durations_ms: vec![10],
        samples: 100,
        ..Default::default()
    }
    .estimated_ms();
    assert!(
        ms < run_ms,
        "{name}: the message took {ms:.0} ms, the run would have taken about {run_ms:.0}"
    );
    scroll_to(&mut s, &in_tw("notice"));
    review_shot(&mut s, &format!("fault-{name}"));
    // The worker's cells come first, so nothing was measured: no results,
    // only the message. The page goes on.
    assert_eq!(count(&mut s, &in_tw("results")), 0, "no results");
    let main = run_section(
        &mut s,
        "main-starvation",
        &[("jobs", "2"), ("wait", "50")],
        &format!("after-fault-{name}"),
    );
    assert!(main.main_starvation.is_some());
    if name == "damaged-wasm" {
        let ms = run_until_alert(&mut s, "pool-starvation");
        println!(
            "{}: fault {name} in the worker pool: message after {ms:.0} ms",
            browser.name()
        );
    }
    s
}

/// Whether the page has fetched a file whose URL contains `name`.
fn fetched(s: &mut Session, name: &str) -> bool {
    s.eval(&format!(
        "return performance.getEntriesByType('resource').some(r => r.name.includes({}));",
        Value::from(name)
    )) == Value::Bool(true)
}

/// Each experiment's runner is a wasm chunk fetched at its first Run, not
/// with the page. One that cannot be fetched (here cut short) fails its
/// run with a message, and the page goes on: another experiment runs, and
/// its raw result opens (the files' writers, a chunk fetched then); a page
/// that only loads fetches no chunk, and the comparisons' once the reader
/// reaches one.
pub(crate) fn runner_chunks(browser: Browser) {
    let mut s = host_fault(
        browser,
        "runner-chunk",
        Fault::Truncate("*/split_timed_waits.wasm"),
        &catalog(Lang::En).text(key!("run.not_loaded")),
    );
    assert!(fetched(&mut s, "-split/split.js"), "the chunks' loader");
    for e in Experiment::ALL {
        let chunk = format!("/split_{}.wasm", e.id());
        let ran = ["timed_waits", "main_starvation"].contains(&e.id());
        assert_eq!(fetched(&mut s, &chunk), ran, "{chunk}: fetched only to run");
    }
    // The writers of a run's files are a chunk of their own too, fetched
    // when a reader first opens a raw result (as the run above did); the
    // results views and share bars are one, fetched as a run ends.
    assert!(fetched(&mut s, "/split_export.wasm"), "the writers");
    assert!(fetched(&mut s, "/split_results.wasm"), "the results views");
    drop(s);
    // A page that only loads fetches no chunk at all: a form comes when
    // the reader reaches it, and so does a comparison, below the first
    // screen.
    let mut fresh = Session::lease(browser);
    fresh.resize(1100, 800);
    fresh.open_first_screen(&isolated_server().origin);
    let first_screen = fetched(&mut fresh, "-split/split_");
    scroll_to(&mut fresh, &in_tw("form-place"));
    fresh.wait_for_element(&in_tw("run"), 20);
    let form = fetched(&mut fresh, "/split_form_timed_waits.wasm");
    let last_form = fetched(&mut fresh, "/split_form_producer_consumer.wasm");
    // A form reached while a run measures is made after the run (here
    // cancelled once seen), and says so meanwhile. The run takes every
    // sample it is asked for: an adaptive one could end in seconds, before
    // a loaded WebKit reports the last form's place in view.
    set_adaptive(&mut fresh, false);
    fresh.type_into(&in_tw("durations"), "1");
    fresh.type_into(&in_tw("samples"), "5000");
    fresh.click(&in_tw("run"));
    fresh.wait_for_element(&in_tw("cancel"), 10);
    let last = "[data-testid=producer-consumer] [data-testid=form-place]";
    // The run goes on for about a minute; a loaded WebKit has taken over
    // 10 s to report the place in view while it measures, and the places
    // above it grow as they are reached (their notes), which can push it
    // out of view before it is reported: it is brought back into view
    // until it is, as a reader scrolls to what they are looking for.
    let reached = fresh.eval_async(&format!(
        "const place = document.querySelector({});\
         const said = () => place.querySelector('[data-testid=after-run]') !== null;\
         const end = performance.now() + 40000;\
         while (!said() && performance.now() < end) {{\
           place.scrollIntoView({{ block: 'center' }});\
           await new Promise(r => setTimeout(r, 250));\
         }}\
         return said();",
        serde_json::Value::from(last)
    ));
    assert_eq!(
        reached,
        serde_json::Value::Bool(true),
        "the last form's place said nothing within 40 s"
    );
    let said = fresh.text(&format!("{last} [data-testid=after-run]"));
    fresh.click(&in_tw("cancel"));
    fresh.wait_for_element(&format!("{last} [data-testid=run]"), 30);
    assert_eq!(
        said.as_deref(),
        Some(catalog(Lang::En).text(key!("form.after_run")).as_str())
    );
    reach_comparison(&mut fresh, "timed-waits");
    let reached = fetched(&mut fresh, "/split_comparisons.wasm");
    fresh.resize(1100, 1600);
    assert!(!first_screen, "a chunk with the page");
    assert!(form, "a form's chunk once it is reached");
    assert!(!last_form, "the last form's chunk before it is reached");
    assert!(reached, "the comparisons' chunk once one is reached");
}

/// The comparisons', the results' and a form's chunks are cut short: where each
/// would show, the page says its code could not be fetched, and the page
/// goes on (a run still measures and ends).
pub(crate) fn display_chunks(browser: Browser) {
    let server = Server::start_with(
        &dist(),
        Mode::Isolated,
        &[
            Fault::Truncate("*/split_comparisons.wasm"),
            Fault::Truncate("*/split_results.wasm"),
            Fault::Truncate("*/split_form_wake_latency.wasm"),
        ],
    );
    let mut s = Session::lease(browser);
    s.open(&server.origin);
    let words = catalog(Lang::En);
    // A form that cannot be fetched says so where it would be.
    assert_eq!(
        s.text(
            "[data-testid=wake-latency] [data-testid=form-place] [data-testid=chunk-not-loaded]"
        )
        .unwrap(),
        words.text(key!("form.not_loaded"))
    );
    let place = "[data-testid=timed-waits] [data-testid=comparison-place]";
    scroll_to(&mut s, place);
    let missing = format!("{place} [data-testid=chunk-not-loaded]");
    s.wait_for_element(&missing, 20);
    assert_eq!(
        s.text(&missing).unwrap(),
        words.text(key!("compare.not_loaded"))
    );
    s.type_into(&in_tw("durations"), "1");
    s.type_into(&in_tw("samples"), "5");
    s.click(&in_tw("run"));
    // The run ends; its results view, its share bar and the comparison
    // each say they could not be fetched.
    s.wait_for(
        "document.querySelectorAll('[data-testid=timed-waits] [data-testid=chunk-not-loaded]').length === 3",
        60,
    );
    let said = s
        .eval(
            "return Array.from(document.querySelectorAll('[data-testid=timed-waits] [data-testid=chunk-not-loaded]')).map(e => e.getAttribute('role') + ': ' + e.textContent).join('\\n');",
        )
        .as_str()
        .unwrap()
        .to_owned();
    for key in [
        key!("results.not_loaded_view"),
        key!("share.not_loaded"),
        key!("compare.not_loaded"),
    ] {
        let text = format!("alert: {}", words.text(key));
        assert!(said.contains(&text), "{text} not in {said}");
    }
    assert_eq!(count(&mut s, &in_tw("progress")), 0, "the run ended");
    review_shot(&mut s, "display-chunks-missing");
}

/// The worker's wasm is cut to its first 1,000 bytes.
pub(crate) fn fault_damaged_wasm(browser: Browser) {
    host_fault(
        browser,
        "damaged-wasm",
        Fault::Truncate("worker_bg.wasm"),
        "crashed",
    );
}

/// The worker throws before it loads anything.
pub(crate) fn fault_throws_at_start(browser: Browser) {
    host_fault(
        browser,
        "throws-at-start",
        Fault::Replace(
            "worker_loader.js",
            "throw new Error('injected: the worker threw while starting');",
        ),
        "threw while starting",
    );
}

/// The worker throws when its first job arrives.
pub(crate) fn fault_throws_in_job(browser: Browser) {
    host_fault(
        browser,
        "throws-in-job",
        Fault::Prepend(
            "worker_loader.js",
            "addEventListener('message', (e) => { if (e.data instanceof Uint8Array && e.data[0] === 0) throw new Error('injected: the worker threw during a job'); });\n",
        ),
        "threw during a job",
    );
}

/// The worker loads its glue but never starts the wasm, so it never says
/// ready (nor anything else).
pub(crate) fn fault_never_ready(browser: Browser) {
    host_fault(
        browser,
        "never-ready",
        Fault::Replace("worker_loader.js", "importScripts('./worker.js');"),
        "did not start",
    );
}

/// The worker says ready, then nothing more.
pub(crate) fn fault_stops_answering(browser: Browser) {
    host_fault(
        browser,
        "stops-answering",
        Fault::Prepend(
            "worker_loader.js",
            "{ const post = self.postMessage.bind(self); let ready = false;\
             self.postMessage = (m, t) => { if (ready) return; ready = m instanceof Uint8Array && m[0] === 2; post(m, t); }; }\n",
        ),
        "stopped answering",
    );
}

/// The native sets' index never comes: the panel says so within seconds
/// and the experiments run.
pub(crate) fn fault_data_hangs(browser: Browser) {
    let server = Server::start_with(
        &dist(),
        Mode::Isolated,
        &[Fault::Hang("data/native/packs/index.bin")],
    );
    let mut s = Session::lease(browser);
    s.open(&server.origin);
    s.wait_for_element(&tid("reference-slow"), 10);
    let since_navigation = s.eval("return performance.now();").as_f64().unwrap();
    println!(
        "{}: fault data-hangs: message at most {since_navigation:.0} ms after the page was opened",
        browser.name()
    );
    assert_eq!(
        s.eval(&format!(
            "return document.querySelector({}).getAttribute('role');",
            Value::from(tid("reference-slow"))
        )),
        Value::from("alert")
    );
    scroll_to(&mut s, &tid("reference"));
    review_shot(&mut s, "fault-data-hangs");
    let report = run_experiment(&mut s, "1", "3", "fault-data-hangs");
    assert!(report.timed_waits.is_some());
    assert_no_page_errors(&mut s);
}
