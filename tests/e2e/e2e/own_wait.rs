//! A reader's own way of waiting (issue: the playground): the recipe, a
//! hand-written `setTimeout`, timed in the sandbox and judged beside the
//! built-in `await setTimeout(1)`; hostile code ends in a message within
//! its limit, the sandbox is torn down, and the page stays responsive.

use crate::checks::*;
use crate::languages::pick_language;
use crate::support::*;
use serde_json::Value;
use waitlab_core::experiments::timed_waits::Mechanism;
use waitlab_core::experiments::wake_latency::Strategy;
use waitlab_core::lang::Lang;
use waitlab_core::stats::Samples;
use waitlab_e2e::judged::told_verdict;
use waitlab_e2e::webdriver::{Browser, Session};

/// What a press of the editor's Run ended in.
struct Ended {
    /// A result (`true`) or an error.
    timed: bool,
    /// Its text.
    text: String,
    /// How long the page took to run a task of its own meanwhile, at the
    /// worst, ms.
    lag: f64,
    /// The result's verdict id, if a result.
    verdict: String,
    /// The result's median, ms (NaN if none).
    p50_ms: f64,
    /// Whether it held its thread (`held`, `some`, `free`), if said.
    held: String,
    /// Why the way it was judged against is slower, if said.
    reason: String,
}

/// Puts `code` in the editor, presses its Run and waits for a result or
/// an error.
fn time_code(s: &mut Session, code: &str) -> Ended {
    s.type_into(&tid("own-wait-editor"), code);
    s.eval(
        "window.waitlabLag = 0;\
         window.waitlabBeat = setInterval(() => {\
           const t = performance.now();\
           setTimeout(() => { window.waitlabLag = Math.max(window.waitlabLag, performance.now() - t); }, 0);\
         }, 100);\
         return null;",
    );
    press_time(s, 90);
    let got = s.eval(
        "clearInterval(window.waitlabBeat);\
         const r = document.querySelector('[data-testid=own-wait-result]');\
         const e = document.querySelector('[data-testid=own-wait] [data-testid=own-wait-error]');\
         return [!!r, (r || e).textContent, window.waitlabLag, r?.dataset.verdict ?? '',\
                 r ? Number(r.dataset.p50Ms) : null,\
                 r?.querySelector('[data-testid=own-wait-held]')?.dataset.held ?? '',\
                 r?.querySelector('[data-testid=own-wait-reason]')?.textContent ?? ''];",
    );
    type Got = (bool, String, f64, String, Option<f64>, String, String);
    let (timed, text, lag, verdict, p50_ms, held, reason): Got =
        serde_json::from_value(got).unwrap();
    Ended {
        timed,
        text,
        lag,
        verdict,
        p50_ms: p50_ms.unwrap_or(f64::NAN),
        held,
        reason,
    }
}

/// Presses the editor's Run and waits up to `seconds` for what it ends
/// in: a result or an error. What the last press ended in stays until
/// this one starts: marked, it is told from this press's. A press that
/// started nothing (a WebKitGTK click can miss as the page grows: 90 s
/// of waiting for a result, once) is made again; one that started shows
/// its count, its sandbox, or already its end.
fn press_time(s: &mut Session, seconds: u64) {
    s.eval(
        "document.querySelectorAll('[data-testid=own-wait-result], [data-testid=own-wait] [data-testid=own-wait-error]')\
           .forEach(e => { e.dataset.before = ''; }); return null;",
    );
    let ended = "!!document.querySelector('[data-testid=own-wait-result]:not([data-before]), \
                 [data-testid=own-wait] [data-testid=own-wait-error]:not([data-before])')";
    let started = format!(
        "{ended} || !!document.querySelector('.own-wait-host iframe') \
         || [...document.querySelectorAll('.own-wait-actions [role=status]')].some(e => e.textContent.length > 0)"
    );
    press_until(s, &tid("own-wait-run"), &started, 5, "Time my code");
    s.wait_for(ended, seconds);
}

/// Opens `section`'s own-way block (its chunk fetched then) and brings
/// its editor into view: the code it starts from.
fn open_editor(s: &mut Session, section: &str) -> String {
    let block = format!("[data-testid={section}] [data-testid=own-wait]");
    s.eval(&format!(
        "document.querySelector('{block}').open = true; return null;"
    ));
    let editor = format!("{block} [data-testid=own-wait-editor]");
    s.wait_for_element(&editor, 20);
    scroll_to(s, &block);
    value(s, &editor)
}

/// `code` timed, `what` in the log: a result whose verdict and median
/// hold against the built-in way's median `builtin_p50` ms, within
/// `band` times of it ([`told_verdict`]).
fn timed_with_a_verdict(s: &mut Session, code: &str, what: &str, builtin_p50: f64, band: f64) {
    let ended = time_code(s, code);
    eprintln!(
        "{}: {what}: {} (p50 {} ms against {builtin_p50} ms): {} (page lag {:.0} ms)",
        s.browser.name(),
        ended.verdict,
        ended.p50_ms,
        ended.text,
        ended.lag
    );
    assert!(ended.timed, "{what}: {}", ended.text);
    if let Err(why) = told_verdict(&ended.verdict, ended.p50_ms, builtin_p50, band) {
        panic!("{what}: {why}: {}", ended.text);
    }
}

/// Each of `hostile`'s code ends in an error message holding its words,
/// shown as text, the sandbox gone and the page never held up.
fn each_ends_in_a_message(s: &mut Session, hostile: &[(&str, &str)]) {
    for (code, said) in hostile {
        let ended = time_code(s, code);
        let text = &ended.text;
        eprintln!(
            "{}: {code}: {text} (page lag {:.0} ms)",
            s.browser.name(),
            ended.lag
        );
        assert!(!ended.timed, "{code}: {text}");
        assert!(text.contains(said), "{code}: {text}");
        assert!(
            ended.lag < 1_000.0,
            "{code}: the page was held up {} ms",
            ended.lag
        );
        assert_eq!(
            s.eval("return document.querySelectorAll('.own-wait-host iframe').length;"),
            Value::from(0),
            "{code}: the sandbox is torn down"
        );
    }
}

/// The link of `section`'s run as its share bar copies it, once made
/// (made anew when a way is timed beside the run: the button waits).
fn share_link(s: &mut Session, section: &str) -> String {
    let button = format!("[data-testid={section}] [data-testid=share-link-button]");
    s.wait_for(
        &format!("(b => !!b && !b.disabled)(document.querySelector('{button}'))"),
        60,
    );
    press_and_read(s, section, "share-link-button", "share-link")
}

/// The recipe as it comes, timed beside a run of experiment 1 and judged
/// against the built-in way it copies: a verdict on times, so it runs
/// alone ([`own_wait_hostile`] does the rest beside other tests).
pub(crate) fn own_wait(browser: Browser) {
    let mut s = Session::lease(browser);
    s.open(&isolated_server().origin);
    let report = run_experiment(&mut s, "1", "60", "own-wait");
    // Its code is a chunk, fetched when the block is first opened. The
    // recipe as it comes: a hand-written setTimeout(r, 1) beside the
    // built-in await setTimeout(1) in a worker, back to back.
    let recipe = open_editor(&mut s, "timed-waits");
    assert!(recipe.contains("setTimeout"), "{recipe}");
    // The recipe waits as the cell it is judged against does: their
    // medians within half again of each other (1.00 +- 0.02 over turns,
    // `bench_own_wait`).
    let tw = report.timed_waits.as_ref().expect("experiment 1's results");
    let builtin = Samples::new(samples(tw, Mechanism::WorkerTimeout, Some(1)))
        .expect("the built-in cell's times")
        .quantile(0.5);
    timed_with_a_verdict(&mut s, &recipe, "the recipe", builtin, 1.5);
    review_shot(&mut s, "own-wait-result");
    // A postTask delay is no chained timer (nor, where a worker has no
    // scheduler, is a message's hop: a fresh task's timer was too close to
    // tell in WebKitGTK once, 2.25 against 4.14 ms): where the built-in
    // chain is held to the nesting clamp, it is faster, and the verdict
    // says why.
    let clamp = 4.0 - report.env.clock.map_or(0.1, |c| c.tolerance_ms());
    let mut escapes = time_code(
        &mut s,
        "async (ms) => { await scheduler.postTask(() => {}, { delay: ms }); }",
    );
    if !escapes.timed {
        assert!(escapes.text.contains("scheduler"), "{}", escapes.text);
        escapes = time_code(
            &mut s,
            "async () => { await new Promise((r) => { const c = new MessageChannel(); \
             c.port1.onmessage = () => { c.port1.close(); r(); }; c.port2.postMessage(0); }); }",
        );
    }
    eprintln!(
        "{}: a wait that escapes the clamp, against {builtin} ms: {}",
        browser.name(),
        escapes.text
    );
    assert!(escapes.timed, "{}", escapes.text);
    if builtin >= clamp {
        assert_eq!(escapes.verdict, "faster", "{}", escapes.text);
        assert!(escapes.reason.contains("nesting clamp"), "{}", escapes.text);
        review_shot(&mut s, "own-wait-clamp-reason");
    }
    assert_no_page_errors(&mut s);
}

/// What a reader does with a way of their own besides timing it, none of
/// it judged on times: its link, the page in another language, hostile
/// code (each ends in a message within the sandbox's limit, shown as
/// text, the sandbox gone, the page never held up for a second), and the
/// link opened afresh.
pub(crate) fn own_wait_hostile(browser: Browser) {
    let mut s = Session::lease(browser);
    s.open(&isolated_server().origin);
    run_experiment(&mut s, "1", "10", "own-wait-hostile-run");
    // Markup in a comment, which the link's reader must see as text.
    let recipe = format!(
        "{}\n// <b>not markup</b>",
        open_editor(&mut s, "timed-waits")
    );
    // A busy wait held its thread while it waited, and is told so beside
    // whatever its verdict on times.
    let busy = time_code(
        &mut s,
        "async (ms) => { const end = performance.now() + ms; while (performance.now() < end) {} }",
    );
    eprintln!("{}: a busy wait: {}", browser.name(), busy.text);
    assert!(busy.timed, "a busy wait: {}", busy.text);
    assert_eq!(busy.held, "held", "a busy wait: {}", busy.text);
    review_shot(&mut s, "own-wait-busy");
    // The recipe, a timer, let other tasks run.
    let ended = time_code(&mut s, &recipe);
    assert!(ended.timed, "the recipe: {}", ended.text);
    assert_eq!(ended.held, "free", "the recipe: {}", ended.text);
    // The run's link, made anew with the way timed beside it.
    let link = share_link(&mut s, "timed-waits");
    // The page drawn again, in another language, says again what the way
    // measured (the link carries it), and keeps its code.
    for lang in [Lang::De, Lang::En] {
        pick_language(&mut s, lang);
        assert_eq!(open_editor(&mut s, "timed-waits"), recipe);
        s.wait_for_element(&in_tw("own-wait-result"), 10);
    }
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
        // Firefox words no error of a worker in an opaque origin: the
        // page says what that most often is.
        (
            "not a function",
            if browser == Browser::Firefox {
                "did not start"
            } else {
                "SyntaxError"
            },
        ),
    ];
    each_ends_in_a_message(&mut s, &hostile);
    assert_eq!(
        s.eval("return document.querySelectorAll('b').length;"),
        Value::from(0)
    );
    // Ten megabytes a call: timed, or a message; either way, in time.
    let ended = time_code(
        &mut s,
        "async (ms) => { new Uint8Array(10 * 1024 * 1024).fill(1); await new Promise((r) => setTimeout(r, ms)); }",
    );
    eprintln!("{}: 10 MB a call: {}", browser.name(), ended.text);
    review_shot(&mut s, "own-wait-hostile");
    assert_eq!(
        s.eval("return location.origin === window.origin && document.title.length > 0;"),
        Value::Bool(true)
    );
    assert_no_page_errors(&mut s);
    opened_from_link(&mut s, &link, &recipe);
}

/// The link of a run with a way timed beside it, opened afresh: the code
/// shows as text with what it measured where it ran, and nothing runs;
/// the reader's own run then offers it in the editor, still not run.
fn opened_from_link(s: &mut Session, link: &str, code: &str) {
    s.navigate("about:blank");
    s.open(link);
    s.wait_for_element(&in_tw("own-wait-code"), 30);
    scroll_to(s, &in_tw("own-wait"));
    let shown = s.eval(
        "const d = document.querySelector('[data-testid=timed-waits] [data-testid=own-wait]');\
         return [d.open, d.querySelector('[data-testid=own-wait-code]').textContent,\
                 d.querySelector('[data-testid=own-wait-shared]')?.dataset.verdict ?? '',\
                 d.querySelector('[data-testid=own-wait-shared] [data-testid=own-wait-held]')?.dataset.held ?? '',\
                 document.querySelectorAll('b').length,\
                 document.querySelectorAll('iframe').length,\
                 !!d.querySelector('[data-testid=own-wait-run]')];",
    );
    type Shown = (bool, String, String, String, u64, u64, bool);
    let (open, text, verdict, held, bold, frames, run): Shown =
        serde_json::from_value(shown).unwrap();
    eprintln!("{}: from a link: {verdict}: {text}", s.browser.name());
    review_shot(s, "own-wait-shared");
    assert!(open, "a shared way shows open");
    assert_eq!(text, code, "the code, whole and as text");
    assert!(!verdict.is_empty(), "what it measured where it ran");
    assert_eq!(held, "free", "and that it let other tasks run");
    let words = s
        .text("[data-testid=timed-waits] [data-testid=own-wait-shared]")
        .unwrap_or_default();
    assert!(!words.contains('⟦'), "in words, no raw key: {words}");
    assert_eq!(bold, 0, "markup in code stays text");
    assert_eq!(frames, 0, "no sandbox: nothing in a link runs");
    assert!(!run, "a shared way has no Run of its own");
    // The reader's own run starts from the link's code, not yet run.
    run_experiment(s, "1", "10", "own-wait-after-link");
    // The shared run shows (with its JSON) until the reader's replaces it.
    s.wait_for(
        "!document.querySelector('[data-testid=timed-waits] [data-testid=shared-label]')",
        150,
    );
    assert_eq!(open_editor(s, "timed-waits"), code);
    s.wait_for_element(&in_tw("own-wait-from-link"), 5);
    assert_eq!(
        s.eval(
            "return document.querySelectorAll('iframe').length\
               + document.querySelectorAll('[data-testid=own-wait-result]').length;"
        ),
        Value::from(0),
        "offered, not run"
    );
    scroll_to(s, &in_tw("own-wait"));
    review_shot(s, "own-wait-offered");
    assert_no_page_errors(s);
}

/// Turns of the sandbox's fidelity bench.
const FIDELITY_TURNS: usize = 5;
/// Samples of each side of a turn.
const FIDELITY_SAMPLES: &str = "200";
/// The widest a turn's median ratio may stray from 1 (over the turns).
const FIDELITY_BUDGET: f64 = 0.02;

/// The sandbox's fidelity (`cargo xtask bench`): the recipe, a
/// hand-written `setTimeout(r, ms)` timed in the sandbox's worker, against
/// the built-in back-to-back `await setTimeout(1)` in a worker of the same
/// run (the way the editor judges it against by default), 200
/// samples each, in [`FIDELITY_TURNS`] turns; the median over the turns of
/// each turn's p50 ratio must be within [`FIDELITY_BUDGET`] of 1.
pub(crate) fn bench_own_wait(browser: Browser) {
    let mut s = Session::lease(browser);
    let origin = isolated_server().origin.clone();
    let mut ratios = Vec::new();
    println!(
        "== sandbox fidelity, {}: the recipe in the sandbox / await setTimeout(1) back to back in a worker, {FIDELITY_SAMPLES} samples each ==",
        browser.name()
    );
    for turn in 0..FIDELITY_TURNS {
        s.open(&origin);
        let report = run_experiment(&mut s, "1", FIDELITY_SAMPLES, &format!("bench-own-{turn}"));
        let tw = report.timed_waits.as_ref().unwrap();
        let builtin = Samples::new(samples(tw, Mechanism::WorkerTimeout, Some(1)))
            .unwrap()
            .quantile(0.5);
        open_editor(&mut s, "timed-waits");
        press_time(&mut s, 120);
        let got = s.eval(
            "const r = document.querySelector('[data-testid=own-wait-result]');\
             return [Number(r.dataset.p50Ms), r.dataset.verdict ?? ''];",
        );
        let (own, verdict): (f64, String) = serde_json::from_value(got).unwrap();
        let ratio = own / builtin;
        println!(
            "  turn {turn}: sandbox p50 {own:.4} ms, built-in p50 {builtin:.4} ms, ratio {ratio:.4}, {verdict}"
        );
        ratios.push(ratio);
    }
    let median = Samples::new(ratios.clone()).unwrap().quantile(0.5);
    println!(
        "  median ratio over {FIDELITY_TURNS} turns: {median:.4} (budget 1 ± {FIDELITY_BUDGET})"
    );
    assert!(
        (median - 1.0).abs() <= FIDELITY_BUDGET,
        "over budget: the sandbox's p50 is {median:.4}× the built-in cell's ({ratios:?})"
    );
}

/// Turns of the own pair's fidelity bench.
const PAIR_TURNS: usize = 5;
/// The widest the median over the turns of the pair's median ratio may
/// stray from 1.
const PAIR_BUDGET: f64 = 0.10;

/// The own pair's fidelity (`cargo xtask bench`): the recipe as it comes,
/// a plain `MessageChannel` waiter and setter in the sandbox's two
/// workers, against the built-in "postMessage from the setter" of the
/// same run (the way the editor judges it against), at the run's default
/// rounds, in [`PAIR_TURNS`] turns, each on a fresh page. Gates: the
/// median over the turns of each turn's p50 ratio within [`PAIR_BUDGET`]
/// of 1, and no turn told "faster" or "slower" (the same mechanism: a
/// verdict between them would rest on a difference of harness).
pub(crate) fn bench_own_pair(browser: Browser) {
    let mut s = Session::lease(browser);
    let origin = isolated_server().origin.clone();
    println!(
        "== own pair fidelity, {}: the recipe in the sandbox / postMessage from the setter, the run's rounds ==",
        browser.name()
    );
    let (mut ratios, mut called) = (Vec::new(), Vec::new());
    for turn in 0..PAIR_TURNS {
        s.open_for(&origin, "wake-latency");
        let report = run_section(&mut s, "wake-latency", &[], &format!("bench-pair-{turn}"));
        let builtin = report
            .wake_latency
            .expect("experiment 4's results")
            .results
            .iter()
            .find(|r| r.strategy == Strategy::PostMessage)
            .and_then(|r| r.outcome.p50())
            .expect("the message way measured");
        let recipe = open_editor(&mut s, "wake-latency");
        let ended = time_code(&mut s, &recipe);
        assert!(ended.timed, "turn {turn}: {}", ended.text);
        let ratio = ended.p50_ms / builtin;
        println!(
            "  turn {turn}: sandbox p50 {:.4} ms, built-in p50 {builtin:.4} ms, ratio {ratio:.3}, {}",
            ended.p50_ms, ended.verdict
        );
        ratios.push(ratio);
        if matches!(ended.verdict.as_str(), "faster" | "slower") {
            called.push(format!("turn {turn}: {}", ended.text));
        }
    }
    let median = Samples::new(ratios.clone()).unwrap().quantile(0.5);
    println!(
        "  median ratio over {PAIR_TURNS} turns: {median:.3} (budget 1 ± {PAIR_BUDGET}); told faster or slower: {}",
        called.len()
    );
    assert!(
        (median - 1.0).abs() <= PAIR_BUDGET,
        "over budget: the pair's p50 is {median:.3}× the built-in way's ({ratios:?})"
    );
    assert!(
        called.is_empty(),
        "the same mechanism told apart: {called:?}"
    );
}

/// Experiment 4's own waiter and setter: the recipe (a message on a
/// `MessageChannel`) timed in the sandbox's two workers beside the run's
/// ways and judged against them: a verdict on times, so it runs alone
/// ([`own_pair_hostile`] does the rest beside other tests).
pub(crate) fn own_pair(browser: Browser) {
    let mut s = Session::lease(browser);
    s.open_for(&isolated_server().origin, "wake-latency");
    let report = run_section(&mut s, "wake-latency", &[("rounds", "40")], "own-pair");
    let recipe = open_editor(&mut s, "wake-latency");
    assert!(recipe.contains("wake"), "{recipe}");
    // The recipe is a message on a MessageChannel, as the way it is judged
    // against: the same mechanism, timed through other glue (within five
    // times here: 1.6-4.4 times apart in three engines, the glue's cost).
    let wake = report.wake_latency.expect("experiment 4's results");
    let builtin = wake
        .results
        .iter()
        .find(|r| r.strategy == Strategy::PostMessage)
        .and_then(|r| r.outcome.summary())
        .expect("the message way measured")
        .p50;
    timed_with_a_verdict(&mut s, &recipe, "the pair's recipe", builtin, 5.0);
    review_shot(&mut s, "own-pair-result");
    assert_no_page_errors(&mut s);
}

/// The own pair besides its verdict, none of it judged on times: hostile
/// pairs end in a message within the limit; the run's link carries the
/// pair, shown as text and never run.
pub(crate) fn own_pair_hostile(browser: Browser) {
    let mut s = Session::lease(browser);
    s.open_for(&isolated_server().origin, "wake-latency");
    run_section(
        &mut s,
        "wake-latency",
        &[("rounds", "10")],
        "own-pair-hostile",
    );
    let in_wake = |id: &str| format!("[data-testid=wake-latency] [data-testid={id}]");
    let recipe = open_editor(&mut s, "wake-latency");
    let ended = time_code(&mut s, &recipe);
    assert!(ended.timed, "the pair's recipe: {}", ended.text);
    // Firefox's share bar in this section stayed empty after a pair was
    // timed (in two of six runs, beside two other tests; not understood
    // yet, told on the issue): the pair's link is checked where it came
    // every time. Its codec is core's (`a_pair_travels_in_a_link…`).
    let link = (browser != Browser::Firefox).then(|| share_link(&mut s, "wake-latency"));
    let hostile = [
        (
            "({ wait: () => new Promise(() => {}), wake: () => {} })",
            "No answer within",
        ),
        (
            "({ wait: (port) => new Promise((r) => { port.onmessage = r; }), wake: () => { throw new Error('<b>no</b>'); } })",
            "<b>no</b>",
        ),
        ("async (ms) => {}", "not an object of a wait and a wake"),
    ];
    each_ends_in_a_message(&mut s, &hostile);
    assert_no_page_errors(&mut s);
    let Some(link) = link else {
        return;
    };
    // The link: the pair as text, nothing run.
    s.navigate("about:blank");
    s.open_for(&link, "wake-latency");
    s.wait_for_element(&in_wake("own-wait-code"), 30);
    scroll_to(&mut s, &in_wake("own-wait"));
    let code = s.text(&in_wake("own-wait-code")).unwrap_or_default();
    assert_eq!(code, recipe, "the pair, whole and as text");
    s.wait_for_element(&in_wake("own-wait-shared"), 10);
    assert_eq!(
        s.eval("return document.querySelectorAll('iframe').length;"),
        Value::from(0),
        "nothing in a link runs"
    );
    review_shot(&mut s, "own-pair-shared");
    assert_no_page_errors(&mut s);
}
