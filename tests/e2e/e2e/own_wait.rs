//! A reader's own way of waiting (issue: the playground): the recipe, a
//! hand-written `setTimeout`, timed in the sandbox and judged beside the
//! built-in `await setTimeout(1)`; hostile code ends in a message within
//! its limit, the sandbox is torn down, and the page stays responsive.

use crate::checks::*;
use crate::support::*;
use serde_json::Value;
use waitlab_e2e::webdriver::{Browser, Session};

/// Puts `code` in the editor, presses its Run and waits for a result or
/// an error: which came, its text, and how long the page took to run a
/// task of its own meanwhile, at the worst, ms.
fn time_code(s: &mut Session, code: &str) -> (&'static str, String, f64) {
    s.type_into(&tid("own-wait-editor"), code);
    s.eval(
        "window.waitlabLag = 0;\
         window.waitlabBeat = setInterval(() => {\
           const t = performance.now();\
           setTimeout(() => { window.waitlabLag = Math.max(window.waitlabLag, performance.now() - t); }, 0);\
         }, 100);\
         return null;",
    );
    s.click(&tid("own-wait-run"));
    s.wait_for(
        "!!document.querySelector('[data-testid=own-wait-result], [data-testid=own-wait] [data-testid=own-wait-error]')",
        90,
    );
    let got = s.eval(
        "clearInterval(window.waitlabBeat);\
         const r = document.querySelector('[data-testid=own-wait-result]');\
         const e = document.querySelector('[data-testid=own-wait] [data-testid=own-wait-error]');\
         return [r ? 'result' : 'error', (r || e).textContent, window.waitlabLag];",
    );
    let (kind, text, lag): (String, String, f64) = serde_json::from_value(got).unwrap();
    (if kind == "result" { "result" } else { "error" }, text, lag)
}

pub(crate) fn own_wait(browser: Browser) {
    let mut s = Session::lease(browser);
    s.open(&isolated_server().origin);
    run_experiment(&mut s, "1", "60", "own-wait");
    // Its code is a chunk, fetched when the block is first opened.
    s.eval("document.querySelector('[data-testid=own-wait]').open = true; return null;");
    s.wait_for_element(&tid("own-wait-editor"), 20);
    scroll_to(&mut s, &tid("own-wait"));
    // The recipe as it comes: a hand-written setTimeout(r, 1) beside the
    // built-in await setTimeout(1), back to back.
    let recipe = s.eval("return document.querySelector('[data-testid=own-wait-editor]').value;");
    let recipe = recipe.as_str().unwrap_or_default().to_owned();
    assert!(recipe.contains("setTimeout"), "{recipe}");
    let (kind, text, lag) = time_code(&mut s, &recipe);
    let verdict = s.eval(
        "return document.querySelector('[data-testid=own-wait-result]')?.dataset.verdict ?? '';",
    );
    eprintln!(
        "{}: the recipe: {kind}, {verdict}: {text} (page lag {lag:.0} ms)",
        browser.name()
    );
    assert_eq!(kind, "result", "{text}");
    assert!(
        verdict.as_str().is_some_and(|v| !v.is_empty()),
        "a verdict: {text}"
    );
    review_shot(&mut s, "own-wait-result");
    // Hostile code: each ends in a message within its limit, shown as
    // text, the sandbox gone and the page never held up.
    // The network: waitlab's own origin, which the sandbox may not reach.
    let fetch = format!(
        "async () => {{ await fetch('{}/index.html'); }}",
        isolated_server().origin
    );
    let hostile = [
        ("async () => { while (true) {} }", "No answer within"),
        ("async () => new Promise(() => {})", "No answer within"),
        (
            "async () => { throw new Error('<b>boom</b>'); }",
            "<b>boom</b>",
        ),
        (
            "async () => { parent.document.title = 'x'; }",
            "Your code failed",
        ),
        (fetch.as_str(), "Your code failed"),
        (
            "async () => { top.location = 'https://example.com/'; }",
            "Your code failed",
        ),
        ("not a function", "Your code failed"),
    ];
    for (code, said) in hostile {
        let (kind, text, lag) = time_code(&mut s, code);
        eprintln!(
            "{}: {code}: {kind}: {text} (page lag {lag:.0} ms)",
            browser.name()
        );
        assert_eq!(kind, "error", "{code}: {text}");
        assert!(text.contains(said), "{code}: {text}");
        assert!(lag < 1_000.0, "{code}: the page was held up {lag} ms");
        assert_eq!(
            s.eval("return document.querySelectorAll('.own-wait-host iframe').length;"),
            Value::from(0),
            "{code}: the sandbox is torn down"
        );
    }
    assert_eq!(
        s.eval("return document.querySelectorAll('b').length;"),
        Value::from(0)
    );
    // Ten megabytes a call: timed, or a message; either way, in time.
    let (kind, text, _) = time_code(
        &mut s,
        "async (ms) => { new Uint8Array(10 * 1024 * 1024).fill(1); await new Promise((r) => setTimeout(r, ms)); }",
    );
    eprintln!("{}: 10 MB a call: {kind}: {text}", browser.name());
    review_shot(&mut s, "own-wait-hostile");
    assert_eq!(
        s.eval("return location.origin === window.origin && document.title.length > 0;"),
        Value::Bool(true)
    );
    assert_no_page_errors(&mut s);
}
