//! The pages' Content-Security-Policy, enforced. Every scenario of the
//! suite runs under it (the test server sends `_headers`' policies, and
//! the pages carry their own `<meta>` one where a host sends none); the
//! error probe reports any violation, which fails the suite. This
//! scenario checks that the policy is really there and refuses what it
//! should: markup that got in cannot run a script or set an inline style,
//! under the host's headers and under the page's own policy alone.

use crate::support::*;
use serde_json::Value;
use waitlab_e2e::webdriver::{Browser, Session};

/// A script and a style attribute put into the page, as injected markup
/// would bring them, and whether they took effect, with the violations
/// the page heard of them (they are marked as expected, so the probe
/// keeps them apart from the suite's).
const INJECT: &str = "const script = document.createElement('script');\
     script.dataset.waitlabExpected = '';\
     script.textContent = 'window.__waitlabInjectedRan = true;';\
     document.body.append(script);\
     const div = document.createElement('div');\
     div.dataset.waitlabExpected = '';\
     div.setAttribute('style', 'color: rgb(255, 0, 0)');\
     document.body.append(div);\
     const end = performance.now() + 5000;\
     while (window.__waitlabExpected.length < 2 && performance.now() < end)\
         await new Promise(r => setTimeout(r, 20));\
     return [window.__waitlabInjectedRan === true, getComputedStyle(div).color, window.__waitlabExpected];";

pub(crate) fn policy_enforced(browser: Browser) {
    for (server, how) in [
        (isolated_server(), "headers"),
        (plain_server(), "page's own"),
    ] {
        let mut s = Session::lease(browser);
        s.open_first_screen(&server.origin);
        let result = s.eval_async(INJECT);
        let (ran, color, heard): (bool, String, Vec<String>) =
            serde_json::from_value(result).unwrap();
        let name = browser.name();
        assert!(!ran, "{name}, {how} policy: an injected script ran");
        assert_ne!(
            color, "rgb(255, 0, 0)",
            "{name}, {how} policy: an injected style attribute applied"
        );
        assert!(
            heard.iter().any(|v| v.contains("script-src"))
                && heard.iter().any(|v| v.contains("style-src")),
            "{name}, {how} policy: the page did not report both refusals: {heard:?}"
        );
    }
    // The host's policies per page, as a static host sends `_headers`: the
    // embed may be framed anywhere, the full page nowhere.
    let mut s = Session::lease(browser);
    let origin = &isolated_server().origin;
    s.open_first_screen(origin);
    for (page, ancestors) in [
        ("/", "frame-ancestors 'none'"),
        ("/index.html", "frame-ancestors 'none'"),
        ("/embed.html?embed=timed-waits", "frame-ancestors *"),
    ] {
        let sent = s.eval_async(&format!(
            "const r = await fetch({}, {{ method: 'HEAD', cache: 'no-store' }});\
             return r.headers.get('content-security-policy');",
            Value::from(format!("{origin}{page}"))
        ));
        let sent = sent.as_str().unwrap_or_default();
        // The site's address beside 'self' (for WebKit's sandboxed frames).
        assert!(
            sent.contains(&format!("script-src 'self' {origin}/ 'wasm-unsafe-eval'"))
                && sent.contains(ancestors),
            "{page}: {sent}"
        );
        assert!(
            !sent.contains("unsafe-inline") && !sent.contains("'unsafe-eval'"),
            "{sent}"
        );
    }
}
