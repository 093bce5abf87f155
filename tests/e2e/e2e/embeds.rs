//! Embeds: `embed.html?embed=` in a blog page on another origin, plain and
//! isolated; an embed's first screen, its shared memory where a frame can
//! isolate itself, and its app on its way or not to be fetched.

use crate::checks::*;
use crate::support::*;
use serde_json::Value;
use std::path::PathBuf;
use std::sync::OnceLock;
use waitlab_core::experiments::Experiment;
use waitlab_core::experiments::timed_waits::Mechanism;
use waitlab_core::key;
use waitlab_core::lang::Lang;
use waitlab_core::outcome::{Outcome, reason};
use waitlab_core::schema::Report;
use waitlab_e2e::server::{Fault, Mode, Server};
use waitlab_e2e::webdriver::{Browser, Session};

/// Waits for an embed and its section's form, which it makes at once.
pub(crate) fn embed_ready(s: &mut Session) {
    s.wait_for_element(&tid("embed"), 30);
    s.wait_for_element("[data-testid=form-place] > *", 30);
}

/// Goes past an embed's first screen (`embed.html`'s): "Change the
/// settings" fetches the app, which shows the section's form.
pub(crate) fn past_first_screen(s: &mut Session) {
    press_first_screen(s, "facade-settings");
    embed_ready(s);
}

/// Presses the first screen's `button` (Run or Change the settings) once
/// it is there, again if the press missed: a taken press disables both
/// buttons until the app replaces the screen.
pub(crate) fn press_first_screen(s: &mut Session, button: &str) {
    let button = tid(button);
    s.wait_for_element(&button, 30);
    let taken = format!(
        "!document.querySelector({0}) || document.querySelector({0}).disabled",
        Value::from(button.as_str())
    );
    press_until(s, &button, &taken, 5, "the embed's first screen");
}

/// Opens `section`'s embed and runs it on its own with `fields`.
pub(crate) fn run_embed(s: &mut Session, section: &str, fields: &[(&str, &str)]) -> Report {
    s.navigate(&format!(
        "{}/embed.html?embed={section}",
        isolated_server().origin
    ));
    past_first_screen(s);
    run_section(s, section, fields, "embed")
}

/// A blog page on another origin that embeds `src` and records the
/// height messages, served as `mode`.
pub(crate) fn blog_page(name: &str, src: &str, mode: Mode) -> Server {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("index.html"),
        format!(
            "<!doctype html><html><head><meta charset=\"utf-8\"><title>A blog post</title></head>\
             <body style=\"font:16px serif;max-width:760px;margin:20px auto\"><h1>How my code waits</h1>\
             <p>Here is the experiment, live:</p>\
             <iframe class=\"waitlab\" src=\"{src}\" style=\"width:100%;border:1px solid #ccc\" height=\"300\" \
             allow=\"cross-origin-isolated\"></iframe><p>Text after the embed.</p>\
             <script>window.heights=[];addEventListener('message',e=>{{if(e.data&&e.data.type==='waitlab:height'){{\
             window.heights.push(e.data.height);document.querySelector('iframe').style.height=e.data.height+'px';}}}});</script>\
             </body></html>"
        ),
    )
    .unwrap();
    // An isolated blog sends the isolation headers, and no policy of
    // waitlab's: its own inline script must run.
    if mode == Mode::Isolated {
        std::fs::write(
            dir.join("_headers"),
            "/*\n  Cross-Origin-Opener-Policy: same-origin\n  Cross-Origin-Embedder-Policy: require-corp\n",
        )
        .unwrap();
    }
    Server::start(&dir, mode)
}

pub(crate) fn embed(browser: Browser, parent: Mode) {
    let isolated_parent = parent == Mode::Isolated;
    let blog = blog_page(
        &format!("blog-{}-{isolated_parent}", browser.name()),
        &format!("{}/embed.html?embed=timed-waits", isolated_server().origin),
        parent,
    );
    let mut s = Session::lease(browser);
    s.navigate(&blog.origin);
    // The first screen sizes the iframe already.
    s.wait_for("window.heights && window.heights.length > 0", 30);
    let isolates = isolated_parent || frames_isolate_themselves(&mut s);
    review_shot(
        &mut s,
        &format!("embed-in-blog-first-screen-parent-isolated-{isolated_parent}"),
    );
    s.frame(Some(0));
    past_first_screen(&mut s);
    assert_eq!(
        count(&mut s, "header.site"),
        0,
        "no site chrome in an embed"
    );
    assert!(count(&mut s, &tid("open-in-waitlab")) == 1);
    // The embed's page never carried the full page's static shell.
    assert_eq!(
        s.eval_async("return (await (await fetch(location.href)).text()).includes('id=shell');"),
        Value::Bool(false)
    );
    let features = Features::detect(&mut s);
    assert_eq!(
        features.isolated, isolates,
        "isolation follows the parent, or the frame's own policy"
    );
    let report = run_experiment(
        &mut s,
        "1",
        "5",
        &format!("embed-parent-isolated-{isolated_parent}"),
    );
    let tw = report.timed_waits.unwrap();
    let atomics = tw
        .cells
        .iter()
        .find(|c| c.key.mechanism == Mechanism::WorkerAtomicsWait)
        .unwrap();
    match features.missing_for(Mechanism::WorkerAtomicsWait) {
        Some(missing) => assert_unavailable(&atomics.outcome, missing, "Atomics.wait in the embed"),
        None => assert!(
            matches!(atomics.outcome, Outcome::Measured { .. }),
            "Atomics.wait in the embed: {:?}",
            atomics.outcome
        ),
    }
    assert!(
        samples(&tw, Mechanism::TimeoutFreshTask, Some(1)).len() == 5,
        "timers run anyway"
    );
    // No editor for a reader's own code: its sandbox is framed by
    // waitlab's pages only, and this frame's parent is a blog.
    assert_eq!(count(&mut s, &tid("own-wait-embedded")), 1);
    assert_eq!(count(&mut s, &tid("own-wait-editor")), 0);
    assert_no_page_errors(&mut s);
    s.frame(None);
    let heights = s.eval("return window.heights;");
    let heights: Vec<f64> = serde_json::from_value(heights).unwrap();
    assert!(
        heights.iter().any(|&h| h > 300.0),
        "the embed grew with its results: {heights:?}"
    );
    s.eval("window.scrollTo(0, 0);");
    review_shot(
        &mut s,
        &format!("embed-in-blog-parent-isolated-{isolated_parent}"),
    );
}

/// Whether this browser isolates a frame by its own response's
/// Document-Isolation-Policy inside the page `s` is on, which is not
/// isolated: a blank page of the isolated server (which sends the policy)
/// in a frame of it is asked. Feature detection, never the version.
fn frames_isolate_themselves(s: &mut Session) -> bool {
    let blank = Value::from(format!(
        "{}/{}",
        isolated_server().origin,
        waitlab_e2e::server::BLANK
    ));
    s.eval_async(&format!(
        "const f = document.createElement('iframe'); f.id = 'dip-probe'; f.src = {blank};\
         await new Promise(r => {{ f.onload = r; document.body.append(f); }}); return null;"
    ));
    let index = s.eval("return Array.from(window.frames).indexOf(document.getElementById('dip-probe').contentWindow);");
    s.frame(Some(index.as_u64().expect("the probe's frame") as u32));
    let isolates = s.eval(
        "return self.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';",
    );
    s.frame(None);
    s.eval("document.getElementById('dip-probe').remove(); return null;");
    isolates == Value::Bool(true)
}

/// What an embed's first screen says of shared memory, once it has said
/// it: the state (`on`, `host`, `frame`, `no_sab`) and the note.
fn first_screen_shared_memory(s: &mut Session) -> (String, String) {
    let note = tid("facade-shared");
    s.wait_for(
        &format!(
            "document.querySelector({})?.dataset.state",
            Value::from(note.as_str())
        ),
        30,
    );
    let state = s.eval(&format!(
        "return document.querySelector({}).dataset.state;",
        Value::from(note.as_str())
    ));
    (state.as_str().unwrap().to_owned(), s.text(&note).unwrap())
}

/// An embed in an ordinary blog post (a parent on another origin that
/// sends no isolation headers): where the browser isolates a frame by its
/// own Document-Isolation-Policy, the first screen says shared memory is
/// on and the run measures the shared-memory rows with the fine clock;
/// elsewhere it says the browser cannot isolate the frame, which rows that
/// costs, and the run has them unavailable, never as results. An
/// experiment that needs shared memory throughout offers the full page
/// instead of Run where it cannot run.
pub(crate) fn embed_shared_memory(browser: Browser) {
    let blog = blog_page(
        &format!("blog-shared-memory-{}", browser.name()),
        &format!("{}/embed.html?embed=wake-latency", isolated_server().origin),
        Mode::Plain,
    );
    let mut s = Session::lease(browser);
    s.navigate(&blog.origin);
    s.wait_for("window.heights && window.heights.length > 0", 30);
    let isolates = frames_isolate_themselves(&mut s);
    eprintln!("{}: a frame isolates itself: {isolates}", browser.name());
    s.frame(Some(0));
    let (state, note) = first_screen_shared_memory(&mut s);
    let off = if isolates {
        None
    } else {
        Some(waitlab_core::shared_memory::Off::FrameNotIsolatable)
    };
    assert_eq!(state, if isolates { "on" } else { "frame" });
    let en = catalog(Lang::En);
    let expected: Vec<String> =
        waitlab_core::shared_memory::embed_note(Experiment::WakeLatency, off)
            .iter()
            .map(|p| en.render(p))
            .collect();
    assert_eq!(note, expected.join(" "));
    s.frame(None);
    review_shot(
        &mut s,
        &format!("embed-in-plain-blog-first-screen-isolated-{isolates}"),
    );
    s.frame(Some(0));
    press_first_screen(&mut s, "facade-run");
    let results = "[data-testid=wake-latency] [data-testid=report-json]";
    s.wait_for_element(results, 120);
    let report = Report::from_json(&report_json(&mut s, results)).expect("the report parses");
    assert_eq!(report.env.cross_origin_isolated, isolates);
    let features = Features::detect(&mut s);
    assert_eq!(features.shared_memory(), isolates);
    let wake = report.wake_latency.expect("experiment 4 ran");
    assert_wake_outcomes(&wake, features);
    if isolates {
        // The fine clock of an isolated page (5 µs in Chromium, 20 µs in
        // Firefox), not the 100 µs or 1 ms of a page without isolation.
        let step = report.env.clock.unwrap().tolerance_ms();
        eprintln!(
            "{}: clock step {step} ms in an isolated embed",
            browser.name()
        );
        assert!(step <= 0.02, "clock step {step} ms in an isolated embed");
        assert_eq!(count(&mut s, &tid("no-coi")), 0);
    } else {
        assert_eq!(
            s.eval("return document.querySelector('[data-testid=no-coi]').dataset.off;"),
            Value::from("FrameNotIsolatable")
        );
    }
    assert_no_page_errors(&mut s);
    s.frame(None);
    s.eval("window.scrollTo(0, 0);");
    review_shot(
        &mut s,
        &format!("embed-in-plain-blog-results-isolated-{isolates}"),
    );
    // The spin ladder has no row without shared memory.
    let ladder = blog_page(
        &format!("blog-ladder-{}", browser.name()),
        &format!("{}/embed.html?embed=spin-ladder", isolated_server().origin),
        Mode::Plain,
    );
    s.navigate(&ladder.origin);
    s.wait_for("window.heights && window.heights.length > 0", 30);
    s.frame(Some(0));
    let (state, _) = first_screen_shared_memory(&mut s);
    let shown = |s: &mut Session, id: &str| {
        s.eval(&format!(
            "const e = document.querySelector('[data-testid={id}]'); return !!e && e.offsetParent !== null;"
        )) == Value::Bool(true)
    };
    assert_eq!(shown(&mut s, "facade-run"), isolates, "{state}");
    assert_eq!(shown(&mut s, "facade-open-instead"), !isolates, "{state}");
    s.frame(None);
    // The iframe follows the screen's height once the note is in.
    std::thread::sleep(std::time::Duration::from_millis(300));
    review_shot(
        &mut s,
        &format!("embed-ladder-in-plain-blog-isolated-{isolates}"),
    );
    // Experiment 9's shared ring, woken and polled: measured where the
    // frame isolates itself, unavailable (and said why) elsewhere.
    let handoff = blog_page(
        &format!("blog-handoff-{}", browser.name()),
        &format!(
            "{}/embed.html?embed=producer-consumer",
            isolated_server().origin
        ),
        Mode::Plain,
    );
    s.navigate(&handoff.origin);
    s.wait_for("window.heights && window.heights.length > 0", 30);
    s.frame(Some(0));
    past_first_screen(&mut s);
    let report = run_section(
        &mut s,
        "producer-consumer",
        &[("items", "10")],
        "plain-blog",
    );
    for run in &report.producer_consumer.expect("experiment 9 ran").runs {
        match (run.channel.needs_shared_memory(), isolates) {
            (true, false) => {
                assert_unavailable(&run.outcome, reason::NOT_ISOLATED, run.channel.id())
            }
            _ => assert!(
                run.outcome.summary().is_some(),
                "{}: {:?}",
                run.channel.id(),
                run.outcome
            ),
        }
    }
    assert_no_page_errors(&mut s);
    s.frame(None);
}

/// The embed's "Open in waitlab" leads to the full page in `lang`, at
/// the embedded experiment `section`.
pub(crate) fn assert_opens_full_page(s: &mut Session, lang: Lang, section: &str) {
    let href = s.eval("return document.querySelector('[data-testid=open-in-waitlab]').href;");
    assert_eq!(
        href.as_str().unwrap(),
        format!(
            "{}/?lang={}#{section}",
            isolated_server().origin,
            lang.code()
        )
    );
}

/// Whether the page has fetched any of the app (its glue or its wasm).
fn fetched_the_app(s: &mut Session) -> bool {
    s.eval(
        "return performance.getEntriesByType('resource')\
         .some(e => /\\/app-[^/]*(\\.js|_bg\\.wasm)$/.test(e.name));",
    ) == Value::Bool(true)
}

/// An embed's first screen: its experiment's heading and explanation and
/// a Run button in the reader's language (Russian here), with none of the
/// app fetched. Run fetches the app, which replaces the screen and runs
/// the section with its default settings.
pub(crate) fn embed_first_screen(browser: Browser) {
    let mut s = Session::lease(browser);
    s.navigate(&format!(
        "{}/embed.html?embed=cancel-waits&lang=ru",
        isolated_server().origin
    ));
    let screen = tid("embed-facade");
    s.wait_for_element(&screen, 30);
    let ru = catalog(Lang::Ru);
    let heading = s.text(&format!("{screen} h2")).unwrap();
    assert!(
        heading.contains(&ru.text(key!("cancel_waits.heading"))),
        "{heading}"
    );
    assert_eq!(
        s.text(&format!("{screen} .explain")).unwrap(),
        ru.text(key!("cancel_waits.article"))
    );
    assert_eq!(
        s.text(&tid("facade-run")).unwrap(),
        ru.text(key!("run.run"))
    );
    assert_opens_full_page(&mut s, Lang::Ru, "cancel-waits");
    assert!(!fetched_the_app(&mut s), "the first screen fetched the app");
    review_shot(&mut s, "embed-first-screen");
    press_first_screen(&mut s, "facade-run");
    // The app, with the defaults: the form's rounds are its first field.
    let results = "[data-testid=cancel-waits] [data-testid=report-json]";
    s.wait_for_element(results, 120);
    assert!(fetched_the_app(&mut s));
    assert_eq!(
        count(&mut s, &screen),
        0,
        "the app replaced the first screen"
    );
    assert_eq!(count(&mut s, &tid("embed")), 1);
    assert_eq!(
        s.eval("return document.documentElement.hasAttribute('data-run-at-once');"),
        Value::Bool(false)
    );
    let report = Report::from_json(&report_json(&mut s, results)).expect("the report parses");
    assert_eq!(
        report.cancel_waits.expect("the embed's run").config,
        waitlab_core::experiments::cancel_waits::CancelConfig::default()
    );
    assert_no_raw_keys(&mut s, "the embed's run");
    assert_no_page_errors(&mut s);
}

/// While an embed's app is on its way, the first screen says so and its
/// buttons wait; an app that cannot be fetched is said so on it, and the
/// reader can press again.
pub(crate) fn embed_app_unavailable(browser: Browser) {
    static SLOW: OnceLock<Server> = OnceLock::new();
    static BROKEN: OnceLock<Server> = OnceLock::new();
    let slow = SLOW
        .get_or_init(|| Server::start_with(&dist(), Mode::Isolated, &[Fault::Hang("*_bg.wasm")]));
    let broken = BROKEN.get_or_init(|| {
        Server::start_with(&dist(), Mode::Isolated, &[Fault::Truncate("*_bg.wasm")])
    });
    let en = catalog(Lang::En);
    let mut s = Session::lease(browser);
    s.navigate(&format!("{}/embed.html?embed=timed-waits", slow.origin));
    s.wait_for_element(&tid("facade-run"), 30);
    s.click(&tid("facade-run"));
    assert_eq!(
        s.text(&tid("facade-status")).unwrap(),
        en.text(key!("embed.loading"))
    );
    assert_eq!(
        s.eval("return document.querySelector('[data-testid=facade-run]').disabled;"),
        Value::Bool(true),
        "one press at a time"
    );
    review_shot(&mut s, "embed-app-loading");
    s.navigate(&format!("{}/embed.html?embed=timed-waits", broken.origin));
    s.wait_for_element(&tid("facade-run"), 30);
    s.click(&tid("facade-run"));
    let failed = format!("{}.error", tid("facade-status"));
    s.wait_for_element(&failed, 60);
    let said = s.text(&failed).unwrap();
    let template = en.text(key!("embed.load_failed"));
    let (before, after) = template.split_once("{detail}").unwrap_or((&template, ""));
    assert!(said.starts_with(before) && said.ends_with(after), "{said}");
    assert_eq!(
        s.eval("return document.querySelector('[data-testid=facade-run]').disabled;"),
        Value::Bool(false),
        "the reader can press again"
    );
    review_shot(&mut s, "embed-app-unavailable");
}
