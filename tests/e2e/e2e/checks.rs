//! What the scenarios share to check the page: the browser's features as
//! the page detects them ([`Features`]) and the outcomes they call for,
//! samples against a timer's floor, figures under the clock's resolution,
//! page errors, and a page that fits a phone's width with readable charts.

use crate::support::{assert_text_holds, press_run};
use serde_json::Value;
use waitlab_core::experiments::timed_waits::Mechanism;
use waitlab_core::experiments::timed_waits::TimedWaits;
use waitlab_core::experiments::wake_latency::Strategy;
use waitlab_core::outcome::{Outcome, reason};
use waitlab_e2e::webdriver::{Browser, Session};

/// What the browser under test offers, as the page detects it (the same
/// checks as `waitlab_browser`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Features {
    pub(crate) isolated: bool,
    shared_array_buffer: bool,
    wait_async: bool,
    scheduler_yield: bool,
    scheduler_post_task: bool,
    pub(crate) service_worker: bool,
    /// `Atomics.pause()`, the spin hint.
    pub(crate) pause: bool,
}

impl Features {
    pub(crate) fn detect(s: &mut Session) -> Features {
        let v = s.eval(
            "const f = (o, k) => !!o && typeof o[k] === 'function';\
             const sw = () => { try { return !!navigator.serviceWorker; } catch { return false; } };\
             return [self.crossOriginIsolated === true, typeof SharedArrayBuffer === 'function',\
                     f(self.Atomics, 'waitAsync'), f(self.scheduler, 'yield'),\
                     f(self.scheduler, 'postTask'), sw(), f(self.Atomics, 'pause')];",
        );
        let b = |i: usize| v[i].as_bool().expect("a feature flag");
        let features = Features {
            isolated: b(0),
            shared_array_buffer: b(1),
            wait_async: b(2),
            scheduler_yield: b(3),
            scheduler_post_task: b(4),
            service_worker: b(5),
            pause: b(6),
        };
        eprintln!("{}: {features:?}", s.browser.name());
        features
    }

    /// Shared memory: an isolated page with `SharedArrayBuffer`.
    pub(crate) fn shared_memory(self) -> bool {
        self.isolated && self.shared_array_buffer
    }

    /// `Atomics.waitAsync`.
    pub(crate) fn wait_async(self) -> bool {
        self.wait_async
    }

    /// Why shared memory is off, as the page must say it (a reason code).
    pub(crate) fn no_shared_memory(self) -> &'static str {
        if self.isolated {
            reason::NO_SHARED_ARRAY_BUFFER
        } else {
            reason::NOT_ISOLATED
        }
    }

    /// The reason code a row for `mechanism` must give, if it cannot run.
    pub(crate) fn missing_for(self, mechanism: Mechanism) -> Option<&'static str> {
        if mechanism.needs_shared_memory() && !self.shared_memory() {
            Some(self.no_shared_memory())
        } else if mechanism == Mechanism::WorkerWaitAsync && !self.wait_async {
            Some(reason::NO_WAIT_ASYNC)
        } else if mechanism == Mechanism::SchedulerYield && !self.scheduler_yield {
            Some(reason::NO_SCHEDULER_YIELD)
        } else if mechanism == Mechanism::SchedulerPostTask && !self.scheduler_post_task {
            Some(reason::NO_SCHEDULER_POST_TASK)
        } else {
            None
        }
    }

    /// The reason code a wake strategy must give, if it cannot run.
    fn missing_for_strategy(self, strategy: Strategy) -> Option<&'static str> {
        if strategy.needs_shared_memory() && !self.shared_memory() {
            Some(self.no_shared_memory())
        } else if strategy == Strategy::AsyncEvent && !self.wait_async {
            Some(reason::NO_WAIT_ASYNC)
        } else {
            None
        }
    }
}

/// The outcome is "not available" for the reason `missing` (a code).
pub(crate) fn assert_unavailable(outcome: &Outcome, missing: &str, what: &str) {
    match outcome {
        Outcome::Unavailable { reason } => {
            assert_eq!(reason, missing, "{what}: the wrong reason")
        }
        other => panic!("{what} should be unavailable for want of {missing}: {other:?}"),
    }
}

pub(crate) fn samples(
    tw: &TimedWaits,
    mechanism: Mechanism,
    requested_ms: Option<u32>,
) -> Vec<f64> {
    let cell = tw
        .cells
        .iter()
        .find(|c| c.key.mechanism == mechanism && c.key.requested_ms == requested_ms)
        .unwrap_or_else(|| panic!("no cell {mechanism:?} {requested_ms:?}"));
    match &cell.outcome {
        Outcome::Measured { samples_ms, .. } => samples_ms.clone(),
        other => panic!("{mechanism:?} {requested_ms:?} was not measured: {other:?}"),
    }
}

/// The earliest a `setTimeout(requested)` may end in `browser`.
pub(crate) fn timer_floor(browser: Browser, requested: f64, tolerance: f64) -> f64 {
    requested - timer_slack(browser, tolerance)
}

/// How much before its time a timer may seem to fire in `browser`: one
/// clock step, or a millisecond in Firefox.
pub(crate) fn timer_slack(browser: Browser, tolerance: f64) -> f64 {
    match browser {
        Browser::Chromium | Browser::WebKit => tolerance,
        Browser::Firefox => 1.0,
    }
}

pub(crate) fn assert_at_least(samples: &[f64], floor: f64, m: Mechanism) {
    for &v in samples {
        assert!(v >= floor, "{m:?} ended after {v} ms, before {floor} ms");
    }
}

/// The page's document holds no raw catalog key (`⟦key⟧`, what a view
/// renders for a key whose part of the catalog is not in): `what` says
/// which texts were expected in.
pub(crate) fn assert_no_raw_keys(s: &mut Session, what: &str) {
    let missing = s.eval("return (document.body.outerHTML.match(/⟦[^⟧]*⟧/g) || []).join(' ');");
    assert_eq!(missing, Value::from(""), "raw keys: {what}");
}

pub(crate) fn assert_no_page_errors(s: &mut Session) {
    let errors = s.page_errors();
    assert!(
        errors.is_empty(),
        "{}: page errors: {errors:#?}",
        s.browser.name()
    );
}

/// In the rows matching `rows` that have `cells` cells, every figure in
/// the columns `columns` under `resolution` ms carries the ‡ mark.
pub(crate) fn assert_marked(
    s: &mut Session,
    rows: &str,
    cells: usize,
    columns: std::ops::Range<usize>,
    resolution: f64,
) {
    let figures = s.eval(&format!(
        "return Array.from(document.querySelectorAll({}))\
           .filter(r => r.children.length === {cells})\
           .flatMap(r => Array.from(r.children).slice({}, {}))\
           .map(td => [td.firstChild ? td.firstChild.textContent : '', td.querySelector('[data-testid=below-clock]') !== null]);",
        Value::from(rows),
        columns.start,
        columns.end
    ));
    for f in figures.as_array().unwrap() {
        let (text, marked) = (f[0].as_str().unwrap(), f[1].as_bool().unwrap());
        if let Ok(v) = text.trim().parse::<f64>()
            && v.abs() < resolution * 0.99
        {
            assert!(marked, "{text} ms is under {resolution} ms and not marked");
        }
    }
}

/// The spin ladder needs shared memory: without it, a message naming
/// what is missing, not a failure.
pub(crate) fn assert_ladder_unavailable(s: &mut Session) {
    press_run(s, "spin-ladder", "false");
    s.wait_for_element("[data-testid=spin-ladder] [data-testid=notice]", 20);
    let notice = "[data-testid=spin-ladder] [data-testid=notice]";
    assert_text_holds(s, notice, &["Not available here", "SharedArrayBuffer"]);
}

/// Every cancellable wait is measured where the browser offers what it
/// needs, and names what is missing where it does not.
pub(crate) fn assert_cancel_outcomes(
    cancel: &waitlab_core::experiments::cancel_waits::CancelWaits,
    features: Features,
) {
    for r in &cancel.results {
        if r.strategy.needs_shared_memory() && !features.shared_memory() {
            assert_unavailable(&r.outcome, features.no_shared_memory(), r.strategy.id());
        } else {
            assert!(
                matches!(r.outcome, Outcome::Measured { .. }),
                "{}: {:?}",
                r.strategy.id(),
                r.outcome
            );
        }
    }
}

/// Every wake strategy is measured where the browser offers what it
/// needs, and names what is missing where it does not.
pub(crate) fn assert_wake_outcomes(
    wake: &waitlab_core::experiments::wake_latency::WakeLatency,
    features: Features,
) {
    for r in &wake.results {
        match features.missing_for_strategy(r.strategy) {
            Some(missing) => assert_unavailable(&r.outcome, missing, r.strategy.id()),
            None => assert!(
                matches!(r.outcome, Outcome::Measured { .. }),
                "{:?}: {:?}",
                r.strategy,
                r.outcome
            ),
        }
    }
}

/// The width the page lays out wider than its window, in CSS px (0 when
/// nothing scrolls sideways).
pub(crate) fn sideways_overflow(s: &mut Session) -> f64 {
    s.eval("return document.documentElement.scrollWidth - document.documentElement.clientWidth;")
        .as_f64()
        .unwrap()
}

/// Narrows the window to a phone's 390 px and then 320 px (or as narrow as
/// the browser's window goes: headless Firefox and WebKitGTK stop at about
/// 500 and 450 px, where 320 would check the same width again: it is
/// skipped, which saved a second resize of half a second in Firefox in
/// each of about 40 checks), checks that the page does not scroll
/// sideways (`what` names the state), and widens it again.
pub(crate) fn assert_fits_phone(s: &mut Session, what: &str) {
    // What a reader can open must fit too: every disclosure is opened for
    // the check, and those that were closed are closed again after it.
    s.eval(
        "window.waitlabClosed = [...document.querySelectorAll('details:not([open])')];\
         for (const d of window.waitlabClosed) d.open = true;\
         return null;",
    );
    for phone in [390, 320] {
        if phone == 320 && s.eval("return window.innerWidth;").as_f64() > Some(390.0) {
            break;
        }
        s.resize(phone, 844);
        s.wait_for("window.innerWidth < 1000", 10);
        // The layout settles a frame after the resize.
        s.eval_async(
            "await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))); return null;",
        );
        let width = s.eval("return window.innerWidth;");
        eprintln!("{}: {what} at {width} px", s.browser.name());
        let over = sideways_overflow(s);
        if over > 0.0 {
            s.screenshot(&format!("overflow-{what}-{phone}"));
            s.resize(1100, 1600);
            panic!("{what}: the page scrolls {over} px sideways at {width} px");
        }
        // A chart redraws at its box's width on the frame after it sees
        // the box change, which a loaded machine can delay past the two
        // frames above (WebKit, just back from a minimized window; WebKit
        // beside two other browsers once took over 1.5 s to redraw a
        // timeline at 447 px): up to 6 s.
        let mut unreadable = unreadable_chart_text(s);
        for _ in 0..20 {
            if unreadable.is_empty() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(300));
            unreadable = unreadable_chart_text(s);
        }
        if !unreadable.is_empty() {
            s.screenshot(&format!("chart-text-{what}-{phone}"));
            s.resize(1100, 1600);
            panic!("{what} at {width} px: {unreadable:#?}");
        }
    }
    s.resize(1100, 1600);
    s.eval("for (const d of window.waitlabClosed) d.open = false; return null;");
}

/// The text of the charts on show that a reader could not read: set
/// under 11 CSS px as drawn (a chart scaled down to its box shrinks its
/// text), or reaching past its chart's edge.
fn unreadable_chart_text(s: &mut Session) -> Vec<String> {
    let found = s.eval(
        "const bad = [];\
         for (const svg of document.querySelectorAll('svg.chart')) {\
           const box = svg.getBoundingClientRect();\
           if (!box.width) continue;\
           const chart = svg.closest('figure').dataset.chart;\
           const scale = box.width / svg.viewBox.baseVal.width;\
           for (const t of svg.querySelectorAll('text')) {\
             const px = parseFloat(getComputedStyle(t).fontSize) * scale;\
             const r = t.getBoundingClientRect();\
             if (px < 10.99) bad.push(`${chart}: “${t.textContent}” at ${px.toFixed(1)} px`);\
             if (r.width && (r.left < box.left - 1 || r.right > box.right + 1))\
               bad.push(`${chart}: “${t.textContent}” at ${r.left.toFixed(0)}–${r.right.toFixed(0)} px, the chart ${box.left.toFixed(0)}–${box.right.toFixed(0)}`);\
           }\
         }\
         return bad;",
    );
    found
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}
