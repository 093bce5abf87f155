//! A waitlab address pasted into a WordPress post: the discovery (the
//! address's page links its oEmbed answer), the answer (what the oEmbed
//! spec asks of a `rich` one), and the embed framed as WordPress frames a
//! provider it does not know: the answer's iframe alone, sandboxed with
//! `allow-scripts` (an opaque origin), its address given `#?secret=…`,
//! sized and linked by WordPress's own host script (`wp-embed.js` from
//! Debian's `wordpress` package, `WAITLAB_WP_EMBED`).
//!
//! The discovery is read as the spec describes it, by a browser's HTML
//! parser (`DOMParser`): a `<link rel="alternate"
//! type="application/json+oembed">` in the page's head; WordPress's own
//! limits on the page are checked beside it (the link before `</head>`,
//! within the first 150 KB it reads). WordPress's PHP does not run here.
//!
//! The build writes absolute addresses for the site it was told of
//! (`WAITLAB_SITE_URL`; `cargo xtask test` builds for a port of the
//! loopback), and the isolated server serves it there.

use crate::checks::*;
use crate::embeds::{past_first_screen, press_first_screen};
use crate::support::*;
use serde_json::Value;
use std::path::PathBuf;
use waitlab_core::experiments::Experiment;
use waitlab_core::experiments::timed_waits::Mechanism;
use waitlab_core::schema::Report;
use waitlab_e2e::server::{Mode, Server};
use waitlab_e2e::webdriver::{Browser, Session};

/// The secret WordPress would have made (ten letters and digits).
const SECRET: &str = "Wq3k9ZtY2b";

/// WordPress's embed host script.
fn wp_embed() -> PathBuf {
    PathBuf::from(
        std::env::var_os("WAITLAB_WP_EMBED")
            .expect("WAITLAB_WP_EMBED names wp-embed.js (cargo xtask test sets it)"),
    )
}

/// The oEmbed answer's URL that the address of `e` links, found as a
/// consumer finds it: on the site that serves the address.
fn discover(s: &mut Session, e: Experiment) -> String {
    let origin = &isolated_server().origin;
    let found = s.eval_async(&format!(
        "const text = await (await fetch({page})).text();\
         const doc = new DOMParser().parseFromString(text, 'text/html');\
         const link = [...doc.head.querySelectorAll('link')].find(l =>\
           l.relList.contains('alternate') && l.type.toLowerCase() === 'application/json+oembed');\
         const end = text.toLowerCase().indexOf('</head>');\
         return link ? {{ href: link.getAttribute('href'), at: text.indexOf('application/json+oembed'), end,\
           title: doc.title }} : null;",
        page = Value::from(format!("{origin}/experiments/{}.html", e.slug())),
    ));
    let href = found["href"]
        .as_str()
        .expect("the address's page links its oEmbed answer");
    let (at, end) = (
        found["at"].as_i64().unwrap(),
        found["end"].as_i64().unwrap(),
    );
    assert!(
        at > 0 && at < end && end < 150 * 1024,
        "WordPress reads the head's first 150 KB: the link at {at}, </head> at {end}"
    );
    assert!(found["title"].as_str().unwrap().contains("waitlab"));
    assert_eq!(
        href,
        format!("{origin}/oembed/{}.json", e.slug()),
        "the answer's address is absolute, on the site (is the dist built for this server's?)"
    );
    href.to_owned()
}

/// The oEmbed answer at `url`, checked against the spec's fields for a
/// `rich` answer; its iframe's HTML.
fn answer(s: &mut Session, url: &str) -> String {
    let json = s.eval_async(&format!(
        "const r = await fetch({url}); return {{ type: r.headers.get('content-type'), body: await r.json() }};",
        url = Value::from(url),
    ));
    let body = &json["body"];
    assert_eq!(body["version"], "1.0");
    assert_eq!(body["type"], "rich");
    for field in ["width", "height"] {
        assert!(
            body[field].as_u64().is_some_and(|v| v > 0),
            "{field}: {body}"
        );
    }
    for field in ["title", "provider_name", "provider_url", "html"] {
        assert!(
            body[field].as_str().is_some_and(|v| !v.is_empty()),
            "{field}: {body}"
        );
    }
    assert!(
        json["type"]
            .as_str()
            .unwrap_or("")
            .starts_with("application/json")
    );
    body["html"].as_str().unwrap().to_owned()
}

/// What WordPress makes of a rich answer's HTML from a provider it does
/// not know (`wp_filter_oembed_result`): the iframe alone, with only
/// `src`, `width`, `height`, `frameborder`, `marginwidth`, `marginheight`,
/// `scrolling` and `title`; `#?secret=` after the address, the secret in
/// `data-secret`, and `class="wp-embedded-content" sandbox="allow-scripts"
/// security="restricted"`.
fn as_wordpress_frames_it(html: &str) -> String {
    let start = html
        .find("<iframe")
        .expect("the answer's HTML has an iframe");
    let end = html[start..].find('>').unwrap() + start;
    let mut kept = String::new();
    let mut rest = &html[start + "<iframe".len()..end];
    while let Some(eq) = rest.find("=\"") {
        let name = rest[..eq].trim();
        let close = rest[eq + 2..].find('"').unwrap() + eq + 2;
        let value = &rest[eq + 2..close];
        rest = &rest[close + 1..];
        match name {
            "src" => kept.push_str(&format!(
                " src=\"{value}#?secret={SECRET}\" data-secret=\"{SECRET}\""
            )),
            "width" | "height" | "frameborder" | "marginwidth" | "marginheight" | "scrolling"
            | "title" => kept.push_str(&format!(" {name}=\"{value}\"")),
            _ => {}
        }
    }
    format!(
        "<iframe class=\"wp-embedded-content\" sandbox=\"allow-scripts\" security=\"restricted\"{kept}></iframe>"
    )
}

/// A WordPress post on another origin with `iframe` in its 720 px column
/// and WordPress's host script.
fn post(name: &str, iframe: &str) -> Server {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(wp_embed(), dir.join("wp-embed.js")).expect("copy wp-embed.js");
    std::fs::write(
        dir.join("index.html"),
        format!(
            "<!doctype html><html><head><meta charset=\"utf-8\"><title>A WordPress post</title></head>\
             <body style=\"font:16px serif;max-width:720px;margin:20px auto\"><h1>How my code waits</h1>\
             <p>I pasted an address, and WordPress made this:</p>\
             <figure class=\"wp-block-embed\"><div class=\"wp-block-embed__wrapper\">{iframe}</div></figure>\
             <p>Text after the embed.</p><script src=\"wp-embed.js\"></script></body></html>"
        ),
    )
    .unwrap();
    Server::start(&dir, Mode::Plain)
}

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
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!(
        "{}: {state}: the iframe is {} px, its content {} px",
        s.browser.name(),
        last.0,
        last.1
    );
}

/// Pasted into WordPress: discovered, answered, framed in a sandbox with
/// a secret; the first screen says what this frame can measure, the
/// embed runs timed waits (a small run) and wake latency, measures the
/// rows its frame allows and says why of the others, and WordPress's
/// script sizes it all along; "Open in waitlab" asks WordPress to go to
/// the full page.
pub(crate) fn wordpress_embed(browser: Browser) {
    let mut s = Session::lease(browser);
    s.navigate(&format!(
        "{}/{}",
        isolated_server().origin,
        waitlab_e2e::server::BLANK
    ));
    let mut frames = Vec::new();
    for e in [Experiment::TimedWaits, Experiment::WakeLatency] {
        let url = discover(&mut s, e);
        frames.push(as_wordpress_frames_it(&answer(&mut s, &url)));
    }
    let timed = post(&format!("wp-timed-{}", browser.name()), &frames[0]);
    s.navigate(&timed.origin);
    s.frame(Some(0));
    s.wait_for_element(&tid("facade-run"), 30);
    assert_eq!(
        s.eval("return window.origin;"),
        Value::from("null"),
        "WordPress's sandbox gives the embed an opaque origin"
    );
    let features = Features::detect(&mut s);
    eprintln!(
        "{}: a sandboxed embed: isolated {}, shared memory {}",
        browser.name(),
        features.isolated,
        features.shared_memory()
    );
    s.wait_for(
        "document.querySelector('[data-testid=facade-shared]')?.dataset.state",
        30,
    );
    assert_sized_by_wordpress(&mut s, "first screen");
    s.frame(None);
    review_shot(&mut s, "wordpress-first-screen");
    s.frame(Some(0));
    past_first_screen(&mut s);
    let report = run_experiment(&mut s, "1", "5", "wordpress");
    let tw = report.timed_waits.expect("timed waits ran");
    for cell in &tw.cells {
        let needs = features.missing_for(cell.key.mechanism);
        match needs {
            Some(missing) => assert_unavailable(&cell.outcome, missing, cell.key.mechanism.id()),
            None => assert!(
                cell.outcome.summary().is_some(),
                "{}: {:?}",
                cell.key.mechanism.id(),
                cell.outcome
            ),
        }
    }
    assert!(
        samples(&tw, Mechanism::TimeoutFreshTask, Some(1)).len() == 5,
        "timers run in the sandbox"
    );
    assert_sized_by_wordpress(&mut s, "results");
    assert_no_page_errors(&mut s);
    s.frame(None);
    s.eval("window.scrollTo(0, 0); return null;");
    review_shot(&mut s, "wordpress-results");

    let wake = post(&format!("wp-wake-{}", browser.name()), &frames[1]);
    s.navigate(&wake.origin);
    s.frame(Some(0));
    // Once the screen has said what it lacks (its note moves Run down)
    // and WordPress has sized the frame to it: a press while the frame
    // grows under the pointer lands its release elsewhere.
    s.wait_for(
        "document.querySelector('[data-testid=facade-shared]')?.dataset.state",
        30,
    );
    assert_sized_by_wordpress(&mut s, "wake latency's first screen");
    press_first_screen(&mut s, "facade-run");
    let results = "[data-testid=wake-latency] [data-testid=report-json]";
    s.wait_for_element(results, 180);
    let report = Report::from_json(&report_json(&mut s, results)).expect("the report parses");
    assert_wake_outcomes(&report.wake_latency.expect("wake latency ran"), features);
    // This reader's rows are drawn beside the sets: as ratios to the event
    // wait where the frame could measure it, else as times.
    reach_comparison(&mut s, "wake-latency");
    s.wait_for_element("[data-testid=wake-latency] [data-testid=cmp-mark-0]", 30);
    assert_eq!(
        count(&mut s, &tid("chart-times-note")),
        u64::from(!features.shared_memory()),
        "times instead of ratios only without the event wait"
    );
    assert_sized_by_wordpress(&mut s, "wake latency's results");
    assert_no_page_errors(&mut s);
    s.frame(None);
    s.eval("window.scrollTo(0, 0); return null;");
    review_shot(&mut s, "wordpress-wake-results");
    s.frame(Some(0));
    // The frame may open no window: WordPress's script takes the reader
    // to the full page (its host the frame's).
    s.click(&tid("open-in-waitlab"));
    s.frame(None);
    s.wait_for(
        &format!(
            "location.origin === {}",
            Value::from(isolated_server().origin.as_str())
        ),
        30,
    );
}
