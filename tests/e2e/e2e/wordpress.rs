//! Every experiment's address pasted into a real WordPress (Debian's
//! 6.1, [`waitlab_e2e::wordpress`]), on its own line in a post, as a
//! blogger does: WordPress discovers the oEmbed answer, fetches it, keeps
//! what it allows of it, frames the embed in its sandbox with a secret,
//! hides the frame until it speaks, and loads its own host script
//! (`wp-embed.min.js`) to size it and follow its links.
//!
//! Each engine reads ten posts, one per experiment, half of them made in
//! the block editor and half in the classic one (the other half in the
//! next engine): each frame is shown and sized to its content, in an
//! opaque origin. Each experiment is run in one engine, and its frame is
//! sized again after the run; a lesson the frame could not measure is
//! answered by the engine's bundled set. "Open in waitlab", and the
//! address itself, take the reader to the experiment on the full page.

use crate::checks::*;
use crate::embeds::press_first_screen;
use crate::support::*;
use serde_json::Value;
use std::time::{Duration, Instant};
use waitlab_core::experiments::Experiment;
use waitlab_core::schema::Report;
use waitlab_core::shared_memory::{Off, runs_in_embed};
use waitlab_core::summary::{Lesson, Ran, line, own_engine_answer};
use waitlab_e2e::webdriver::{Browser, Session};
use waitlab_e2e::wordpress::{Post, WordPress};

/// The iframe's height, as WordPress's script set it, and its document's.
fn heights(s: &mut Session) -> (f64, f64) {
    s.frame(None);
    let set = s.eval("return Number(document.querySelector('iframe').getAttribute('height'));");
    s.frame(Some(0));
    let content =
        s.eval("return Math.ceil(document.documentElement.getBoundingClientRect().height);");
    (set.as_f64().unwrap(), content.as_f64().unwrap())
}

/// WordPress's script keeps the iframe at its content's height, within
/// 2 px, clamped to its 200-1,000 px.
fn assert_sized_by_wordpress(s: &mut Session, state: &str) {
    let mut last = (0.0, 0.0);
    for _ in 0..50 {
        last = heights(s);
        let want = last.1.clamp(200.0, 1000.0);
        if (last.0 - want).abs() <= 2.0 {
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!(
        "{}: {state}: the iframe is {} px, its content {} px",
        s.browser.name(),
        last.0,
        last.1
    );
}

/// What WordPress made of the answer in `post` (for experiment `e`): the
/// blockquote linking the address, then the iframe in its sandbox, the
/// secret in both and after the embed's address; its host script on the
/// page. Waits until the frame has shown itself (WordPress removes the
/// style that hides it when the frame first speaks), checks that it fits
/// the post's column, and returns how long it took to show after the
/// post's page had loaded, ms.
fn assert_framed_by_wordpress(s: &mut Session, e: Experiment, post: &Post) -> f64 {
    let origin = &isolated_server().origin;
    let what = format!("{} post of {}", post.editor, e.slug());
    s.navigate(&post.url);
    s.wait_for("document.readyState === 'complete'", 30);
    let made = s.eval(
        "const f = document.querySelector('iframe.wp-embedded-content');\
         const q = document.querySelector('blockquote.wp-embedded-content');\
         return { sandbox: f && f.getAttribute('sandbox'), src: f && f.getAttribute('src'),\
           secret: f && f.dataset.secret, quoteSecret: q && q.dataset.secret,\
           link: q && q.querySelector('a') && q.querySelector('a').getAttribute('href'),\
           host: [...document.scripts].some(x => /\\/wp-embed(\\.min)?\\.js/.test(x.src)) };",
    );
    let text = |key: &str| made[key].as_str().unwrap_or_default().to_owned();
    assert_eq!(text("sandbox"), "allow-scripts", "{what}: {made}");
    let secret = text("secret");
    assert!(
        secret.len() == 10 && secret.chars().all(|c| c.is_ascii_alphanumeric()),
        "{what}: WordPress's secret: {made}"
    );
    assert_eq!(
        text("src"),
        format!("{origin}/embed.html?embed={}#?secret={secret}", e.slug()),
        "{what}"
    );
    assert_eq!(text("quoteSecret"), secret, "{what}: the blockquote");
    assert_eq!(text("link"), post.address, "{what}: the blockquote's link");
    assert_eq!(
        made["host"],
        Value::Bool(true),
        "{what}: WordPress loads its host script"
    );
    let started = Instant::now();
    s.wait_for(
        "(f => f && !f.hasAttribute('style'))(document.querySelector('iframe.wp-embedded-content'))\
         && getComputedStyle(document.querySelector('blockquote.wp-embedded-content')).display === 'none'",
        30,
    );
    let shown_after = started.elapsed().as_secs_f64() * 1e3;
    // It fits the post's column: the block that holds it (a paragraph of
    // the theme's column in the classic editor, the embed block's wrapper
    // in the block editor).
    let fits = s.eval(
        "const f = document.querySelector('iframe.wp-embedded-content');\
         return [f.getBoundingClientRect().right, f.parentElement.getBoundingClientRect().right];",
    );
    let (right, column) = (fits[0].as_f64().unwrap(), fits[1].as_f64().unwrap());
    assert!(
        right <= column + 1.0,
        "{what}: the frame ends at {right} px, past its column's {column} px"
    );
    shown_after
}

/// The full page, at the experiment `e`: the address says so, and the
/// section's top is in the window.
fn assert_at_experiment(s: &mut Session, e: Experiment) {
    let origin = &isolated_server().origin;
    s.wait_for(
        &format!(
            "location.origin === {} && location.hash === {}",
            Value::from(origin.as_str()),
            Value::from(format!("#{}", e.slug()))
        ),
        30,
    );
    s.wait_for(
        &format!(
            "(r => r && r.top >= -2 && r.top < innerHeight / 2)\
             (document.querySelector('[data-testid={}]')?.getBoundingClientRect())",
            e.slug()
        ),
        30,
    );
}

/// After a run of `e` in the frame: the lessons it could not measure here
/// that the bundled set of this engine answers are shown, each with that
/// set's verdict (core's `own_engine_answer`, tested natively); none
/// else. Returns them as (lesson, verdict).
///
/// `shared` is what the frame's first screen detected of shared memory
/// (`facade-shared`'s state). Where it had none, every lesson of `e` the
/// run did not read and this engine's isolated set did read is among
/// them: a check that holds the answers to the frame's own detection,
/// not to core's account of the run, and to no browser's version.
fn assert_engine_lessons(s: &mut Session, e: Experiment, shared: &str) -> Vec<(String, String)> {
    let results = format!("[data-testid={}] [data-testid=report-json]", e.slug());
    let report = Report::from_json(&report_json(s, &results)).expect("the report parses");
    let sets = bundled_engine_sets();
    let sets: Vec<&Report> = sets.iter().collect();
    // What the frame's detection owes, before what core says.
    let engine = s.browser.name();
    let reads = |l: Lesson, r: &Report| line(l, Ran::Report(r), &[]).run.is_some();
    let owed: Vec<&str> = Lesson::of(e)
        .filter(|&l| shared != "on" && !reads(l, &report))
        .filter(|&l| {
            sets.iter().any(|set| {
                let name = set.env.native.as_ref().map(|n| n.name.to_lowercase());
                set.env.cross_origin_isolated
                    && name.is_some_and(|n| n.starts_with(engine))
                    && reads(l, set)
            })
        })
        .map(Lesson::id)
        .collect();
    let want: Vec<(String, String)> = Lesson::of(e)
        .filter_map(|l| own_engine_answer(l, &report, &sets))
        .map(|a| (a.lesson.id().to_owned(), a.verdict.id().to_owned()))
        .collect();
    let shown = "[...document.querySelectorAll('[data-testid=engine-lesson]')]";
    // The sets' parts come in after the run.
    s.wait_for(&format!("{shown}.length === {}", want.len()), 60);
    let got: Vec<(String, String)> = serde_json::from_value(s.eval(&format!(
        "return {shown}.map(li => [li.dataset.lesson, li.dataset.verdict]);"
    )))
    .unwrap();
    assert!(
        owed.iter().all(|l| got.iter().any(|(g, _)| g == l)),
        "{}: the frame detected no shared memory ({shared}), and its engine's set reads {owed:?}: \
         shown {got:?}",
        e.slug()
    );
    assert_eq!(got, want, "{}: the engine's answers", e.slug());
    assert_no_raw_keys(s, "the engine's answers");
    got
}

/// The engine's place among the three, which picks its posts' editors and
/// the experiments it runs.
fn turn(browser: Browser) -> usize {
    match browser {
        Browser::Chromium => 0,
        Browser::Firefox => 1,
        Browser::WebKit => 2,
    }
}

/// Every experiment's address pasted into a real WordPress, read in
/// `browser`: see the module's comment.
pub(crate) fn wordpress_embed(browser: Browser) {
    let test = format!("wordpress_embed_{}", browser.name());
    if let Err(why) = WordPress::available() {
        crate::unchecked(&test, &format!("a real WordPress: {why}"));
        return;
    }
    let origin = isolated_server().origin.clone();
    let addresses: Vec<String> = Experiment::ALL
        .iter()
        .map(|e| format!("{origin}/experiments/{}.html", e.slug()))
        .collect();
    let started = Instant::now();
    let wp = WordPress::start(&origin, &addresses).unwrap_or_else(|e| panic!("WordPress: {e}"));
    eprintln!(
        "{test}: WordPress at {} with {} posts in {:.1} s",
        wp.origin,
        wp.posts.len(),
        started.elapsed().as_secs_f64()
    );
    let mut s = Session::lease(browser);
    let k = turn(browser);
    let (mut shown_after, mut ran, mut offers_full_page) = (Vec::new(), Vec::new(), Vec::new());
    let mut engine_answers = Vec::new();
    for (i, (&e, address)) in Experiment::ALL.iter().zip(&addresses).enumerate() {
        let editor = if (i + k).is_multiple_of(2) {
            "block"
        } else {
            "classic"
        };
        let post = wp
            .posts
            .iter()
            .find(|p| &p.address == address && p.editor == editor)
            .unwrap_or_else(|| panic!("no {editor} post of {address}"));
        shown_after.push(assert_framed_by_wordpress(&mut s, e, post).round());
        s.frame(Some(0));
        // Nothing of the post runs in waitlab's origin, nor the embed in
        // the post's: WordPress's sandbox gives the frame an opaque one.
        assert_eq!(s.eval("return window.origin;"), Value::from("null"));
        let detected = "document.querySelector('[data-testid=facade-shared]')?.dataset.state";
        s.wait_for(detected, 30);
        let shared = s.eval(&format!("return {detected};"));
        let shared = shared.as_str().unwrap_or_default().to_owned();
        assert_sized_by_wordpress(&mut s, &format!("{}'s first screen", e.slug()));
        if i == 0 {
            s.frame(None);
            review_shot(&mut s, "wordpress-first-screen");
            s.frame(Some(0));
        }
        // One that cannot run in this frame offers the full page instead
        // of Run.
        let runs = s.eval("return !document.querySelector('[data-testid=facade-run]').hidden;")
            == Value::Bool(true);
        // Each experiment runs in one engine: one that runs nothing
        // without shared memory in Chromium, whose frame isolates itself.
        let anywhere = runs_in_embed(e, Some(Off::FrameNotIsolatable));
        let mine = if anywhere {
            i % 3 == k
        } else {
            browser == Browser::Chromium
        };
        if !runs {
            offers_full_page.push(e.slug());
        } else if mine {
            let started = Instant::now();
            press_first_screen(&mut s, "facade-run");
            let results = format!("[data-testid={}] [data-testid=report-json]", e.slug());
            s.wait_for_element(&results, 240);
            assert_sized_by_wordpress(&mut s, &format!("{}'s results", e.slug()));
            engine_answers.extend(assert_engine_lessons(&mut s, e, &shared));
            ran.push(format!(
                "{} ({:.1} s)",
                e.slug(),
                started.elapsed().as_secs_f64()
            ));
            assert_no_page_errors(&mut s);
            s.frame(None);
            review_shot(&mut s, &format!("wordpress-{}-results", e.slug()));
        }
    }
    eprintln!(
        "{test}: each frame shown after the post loaded, ms: {shown_after:?}; \
         run and sized again: {ran:?}; the full page offered instead of Run: {offers_full_page:?}"
    );
    eprintln!("{test}: lessons answered by the engine's bundled set: {engine_answers:?}");
    // "Open in waitlab" in the frame: WordPress's script takes the reader
    // to the experiment on the full page (a sandboxed frame may open no
    // window).
    let e = Experiment::ALL[k];
    let post = wp.posts.iter().find(|p| p.address == addresses[k]).unwrap();
    assert_framed_by_wordpress(&mut s, e, post);
    s.frame(Some(0));
    s.click(&tid("open-in-waitlab"));
    s.frame(None);
    assert_at_experiment(&mut s, e);
    // The address itself, opened: the experiment on the full page.
    let e = Experiment::ALL[k + 3];
    s.navigate(&addresses[k + 3]);
    assert_at_experiment(&mut s, e);
    assert_no_page_errors(&mut s);
}
