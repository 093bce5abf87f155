//! Languages: the page in the reader's language, picked by the browser's
//! preference or by `?lang=`, with its numbers written as the language
//! does; in an embed, in the static shell before the wasm, and every
//! language after a run.

use crate::checks::*;
use crate::embeds::{assert_opens_full_page, embed_ready};
use crate::support::*;
use serde_json::Value;
use std::sync::OnceLock;
use waitlab_core::experiments::Experiment;
use waitlab_core::key;
use waitlab_core::lang::Lang;
use waitlab_e2e::server::{Fault, Mode, Server};
use waitlab_e2e::webdriver::{Browser, Session};

/// The page shows `lang`: `<html lang>`, the experiment headings and
/// the findings of a small run in its words, and its decimal separator in
/// the experiment's table.
fn assert_page_in(s: &mut Session, lang: Lang, shot: &str) {
    run_experiment(s, "0, 1, 10", "10", shot);
    assert_results_in(s, lang);
}

/// The page with a finished timed-waits run speaks `lang`: its `lang`
/// attribute, a heading, a finding, and decimals with the language's
/// separator.
fn assert_results_in(s: &mut Session, lang: Lang) {
    let words = catalog(lang);
    assert_eq!(
        s.eval("return document.documentElement.lang;"),
        Value::from(lang.code())
    );
    let heading = s.text(&format!("{} h2", tid("timed-waits"))).unwrap();
    assert!(
        heading.contains(&words.text(key!("timed_waits.heading"))),
        "{heading}"
    );
    let findings = s.text(&in_tw("findings")).expect("findings after a run");
    let expected = fixed_part(&words, key!("timed_waits.finding.resolved_promise"));
    assert!(
        findings.contains(&expected),
        "{}: “{expected}” not in {findings}",
        lang.code()
    );
    // The p50 of a 10 ms wait in the experiment's table.
    // The comparison is made again in the new language once reached.
    reach_comparison(s, "timed-waits");
    s.wait_for(
        "Array.from(document.querySelectorAll('[data-testid=timed-waits] [data-testid=group-browser] [data-testid=cmp-row]'))\
           .some(r => r.children[0].textContent.includes('setTimeout(10)'))",
        20,
    );
    let p50 = s
        .eval(
            "return Array.from(document.querySelectorAll('[data-testid=timed-waits] [data-testid=group-browser] [data-testid=cmp-row]'))\
               .find(r => r.children[0].textContent.includes('setTimeout(10)')).children[1].textContent;",
        )
        .as_str()
        .unwrap()
        .to_owned();
    let sep = lang.decimal_separator();
    assert!(
        p50.contains(sep) && !p50.contains(if sep == ',' { '.' } else { ',' }),
        "{}: p50 “{p50}”",
        lang.code()
    );
    // The native sets' provenance: their names as written, the words
    // around them the page's (the sets' list is made once reached).
    scroll_to(s, &tid("reference"));
    let provenance = format!(
        "{} .provenance:not([lang])",
        tid("set-dotnet10-article-apple-m4")
    );
    s.wait_for_element(&provenance, 30);
    let said = s.text(&provenance).unwrap();
    let expected = fixed_part(&words, key!("reference.from_article"));
    assert!(
        said.contains(&expected),
        "{}: “{expected}” not in {said}",
        lang.code()
    );
}

/// Switches the page to `lang` with its picker and waits until the
/// timed-waits findings are back, rendered again in that language.
pub(crate) fn pick_language(s: &mut Session, lang: Lang) {
    select(s, "language", lang.code());
    s.wait_for(
        &format!(
            "document.documentElement.lang === {} && !!document.querySelector({})",
            Value::from(lang.code()),
            Value::from(in_tw("findings"))
        ),
        20,
    );
}

/// Whether the page has fetched the texts of runs (`LANG.runs.json`).
fn fetched_runs_texts(s: &mut Session) -> bool {
    s.eval(
        "return performance.getEntriesByType('resource').some(e => e.name.includes('.runs.json'));",
    ) == Value::Bool(true)
}

/// The idle page says everything in the page's part of its texts: it has
/// not fetched the runs' part and shows no key it lacks (`⟦key⟧`).
pub(crate) fn assert_idle_texts(s: &mut Session) {
    assert!(
        !fetched_runs_texts(s),
        "the idle page fetched the texts of runs"
    );
    assert_no_raw_keys(s, "the page's part");
}

/// A browser set to German gets the page in German; the texts of runs
/// come with the first run.
pub(crate) fn language_from_browser(browser: Browser) {
    let mut s = Session::start_in(browser, Some("de-DE"));
    s.open(&isolated_server().origin);
    assert_idle_texts(&mut s);
    assert_page_in(&mut s, Lang::De, "lang-de");
    assert!(
        fetched_runs_texts(&mut s),
        "a run fetched the texts of runs"
    );
}

/// `?lang=ja` wins over the browser's English; the picker then switches to
/// Russian and keeps the run, and the address keeps the language (so a
/// reload or a copied address does too).
pub(crate) fn language_from_query(browser: Browser) {
    let mut s = Session::lease(browser);
    s.open(&format!("{}/?lang=ja", isolated_server().origin));
    assert_page_in(&mut s, Lang::Ja, "lang-ja");
    pick_language(&mut s, Lang::Ru);
    assert_results_in(&mut s, Lang::Ru);
    assert!(
        s.eval("return location.search;")
            .as_str()
            .unwrap()
            .contains("lang=ru"),
        "the address keeps the language"
    );
}

/// An embed in a Spanish blog post speaks Spanish, and its link to the
/// full page keeps the language; it is opened at the address embeds had
/// before the embed's page (`embed.html`), which still works.
pub(crate) fn language_in_embed(browser: Browser) {
    let mut s = Session::lease(browser);
    s.navigate(&format!(
        "{}/?embed=timed-waits&lang=es",
        isolated_server().origin
    ));
    embed_ready(&mut s);
    assert_idle_texts(&mut s);
    let es = catalog(Lang::Es);
    assert_eq!(
        s.text(&tid("open-in-waitlab")).unwrap(),
        es.text(key!("embed.open"))
    );
    // An embed at the address made before the embed's page had a file of
    // its own still opens, and opens the full page.
    assert_opens_full_page(&mut s, Lang::Es, "timed-waits");
    let heading = s.text(&format!("{} h2", tid("timed-waits"))).unwrap();
    assert!(
        heading.contains(&es.text(key!("timed_waits.heading"))),
        "{heading}"
    );
    review_shot(&mut s, "lang-es-embed");
}

/// Before the wasm arrives the page already reads, in the reader's
/// language: the shell's headings and explanations in English for an
/// English reader; for a German one the same layout, blanked (never
/// English) until the head's script has the page's German texts, then in
/// German. The app's wasm never comes here, so the words are the shell's.
pub(crate) fn shell_before_the_wasm(browser: Browser) {
    static S: OnceLock<Server> = OnceLock::new();
    let server =
        S.get_or_init(|| Server::start_with(&dist(), Mode::Isolated, &[Fault::Hang("*_bg.wasm")]));
    for (language, lang) in [(None, Lang::En), (Some("de-DE"), Lang::De)] {
        let words = catalog(lang);
        let mut s = Session::start_unwaited(browser, language);
        s.navigate(&server.origin);
        s.wait_for_element("#shell h2", 10);
        s.wait_for(
            "!document.documentElement.classList.contains('shell-neutral')",
            10,
        );
        let heading = s.text("#shell .experiment h2").unwrap();
        assert!(
            heading.contains(&words.text(key!("timed_waits.heading"))),
            "{}: {heading}",
            lang.code()
        );
        let tagline = s.text("#shell .tagline").unwrap();
        assert_eq!(tagline, words.text(key!("page.tagline")), "{}", lang.code());
        let colour = s.eval(
            "return getComputedStyle(document.querySelector('#shell .experiment h2 [data-t]')).color;",
        );
        assert_ne!(colour.as_str(), Some("rgba(0, 0, 0, 0)"), "{}", lang.code());
        assert_eq!(
            s.eval("return document.documentElement.lang;"),
            Value::from(lang.code())
        );
        assert_no_raw_keys(&mut s, "the shell");
        review_shot(&mut s, &format!("shell-{}", lang.code()));
    }
}

/// Every language after a run, for a reviewer's eye (long words, other
/// scripts): one run in English, then the picker through German, Russian,
/// Portuguese, Japanese and Spanish, each rendering the same results.
pub(crate) fn languages_after_a_run(browser: Browser) {
    let mut s = Session::lease(browser);
    s.open(&isolated_server().origin);
    assert_page_in(&mut s, Lang::En, "lang-en");
    crowd_the_comparison(&mut s);
    assert_comparison_reads(&mut s, Lang::En);
    for lang in Lang::ALL.into_iter().filter(|&l| l != Lang::En) {
        pick_language(&mut s, lang);
        assert_results_in(&mut s, lang);
        assert_comparison_reads(&mut s, lang);
        scroll_to(&mut s, &in_tw("results"));
        review_shot(&mut s, &format!("lang-{}-results", lang.code()));
        assert_fits_phone(&mut s, &format!("lang-{}-results", lang.code()));
    }
    assert_no_page_errors(&mut s);
}

/// This run's own link opened beside it and every bundled set ticked, so
/// that timed waits' comparison has all its sources, two of them of this
/// browser (the reader's run and the link's).
fn crowd_the_comparison(s: &mut Session) {
    s.click(&in_tw("share-link-button"));
    s.wait_for_element(&in_tw("share-link"), 15);
    let link = value(s, &in_tw("share-link"));
    reach_comparison(s, "timed-waits");
    s.type_into(&tid("compare-link"), &link);
    s.click(&tid("compare-add"));
    s.wait_for(
        "!!document.querySelector('[data-testid=timed-waits] [data-testid=group-shared]')",
        20,
    );
    s.eval(
        "for (const b of document.querySelectorAll('[data-testid=reference] input[type=checkbox]'))\
           if (!b.checked) b.click();\
         return null;",
    );
    s.wait_for(
        "document.querySelectorAll('[data-testid=timed-waits] [data-testid=group-engine]').length === 3",
        30,
    );
}

/// Timed waits' comparison at 1366 px with everything on the page open:
/// no two sources of one name, the verdict column inside its box (no
/// sideways scrolling in the table) and none on the page.
fn assert_comparison_reads(s: &mut Session, lang: Lang) {
    s.resize(1366, 900);
    s.eval(
        "window.waitlabClosed = [...document.querySelectorAll('details:not([open])')];\
         for (const d of window.waitlabClosed) d.open = true;\
         return null;",
    );
    s.eval_async(
        "await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))); return null;",
    );
    let got = s.eval(
        "const c = document.querySelector('[data-testid=timed-waits] [data-testid=comparison]');\
         const names = [...c.querySelectorAll('tr.group th')].map(th => th.textContent.trim());\
         const wrap = c.querySelector('.table-wrap');\
         const head = c.querySelector('th.verdict').getBoundingClientRect();\
         return [names, wrap.scrollWidth - wrap.clientWidth, head.right - wrap.getBoundingClientRect().right];",
    );
    let (names, scrolls, past): (Vec<String>, f64, f64) = serde_json::from_value(got).unwrap();
    let code = lang.code();
    eprintln!(
        "{code}: sources {names:?}, the table scrolls {scrolls} px, its verdicts end {past} px past it"
    );
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert!(
        names.len() >= 6 && unique.len() == names.len(),
        "{code}: {names:?}"
    );
    let page = sideways_overflow(s);
    scroll_to(
        s,
        "[data-testid=timed-waits] [data-testid=comparison-table]",
    );
    if scrolls > 1.0 || past > 1.0 || page > 0.0 {
        review_shot(s, &format!("compare-1366-{code}"));
        panic!(
            "{code} at 1366 px: the table scrolls {scrolls} px, the verdicts end {past} px past it, the page {page} px"
        );
    }
    review_shot(s, &format!("compare-1366-{code}"));
    scroll_to(s, "[data-testid=timed-waits] [data-testid=group-shared]");
    review_shot(s, &format!("compare-1366-{code}-shared"));
    scroll_to(s, "[data-testid=timed-waits] [data-testid=comparison]");
    review_shot(s, &format!("compare-1366-{code}-chart"));
    // On a phone each row is a card: its verdict in view, nothing to
    // swipe for.
    s.resize(390, 844);
    s.wait_for("window.innerWidth < 1000", 10);
    let got = s.eval(
        "const c = document.querySelector('[data-testid=timed-waits] [data-testid=comparison]');\
         const wrap = c.querySelector('.table-wrap');\
         const out = [...c.querySelectorAll('[data-testid=verdict]')]\
           .filter(v => v.getBoundingClientRect().right > innerWidth + 1).length;\
         return [out, wrap.scrollWidth - wrap.clientWidth, c.querySelectorAll('[data-testid=verdict]').length];",
    );
    let (out, scrolls, verdicts): (u64, f64, u64) = serde_json::from_value(got).unwrap();
    eprintln!(
        "{code} at 390 px: {out} of {verdicts} verdicts out of view, the table scrolls {scrolls} px"
    );
    scroll_to(s, "[data-testid=timed-waits] [data-testid=group-shared]");
    review_shot(s, &format!("compare-390-{code}"));
    assert!(
        verdicts > 0 && out == 0 && scrolls <= 1.0,
        "{code} at 390 px: {out} of {verdicts} verdicts out of view, the table scrolls {scrolls} px"
    );
    // Every other table of its results reads there too: the statistics
    // and the timeline's totals are cards, the rest fit.
    let wide = s.eval(
        "return [...document.querySelectorAll('[data-testid=timed-waits] table')]\
           .map(t => [t.className, (t.closest('.table-wrap') || t.parentElement)])\
           .map(([name, box]) => [name, box.scrollWidth - box.clientWidth])\
           .filter(([, over]) => over > 1);",
    );
    scroll_to(s, "[data-testid=timed-waits] [data-testid=statistics]");
    review_shot(s, &format!("stats-390-{code}"));
    assert_eq!(
        wide,
        Value::Array(vec![]),
        "{code} at 390 px: tables that scroll sideways"
    );
    s.eval("for (const d of window.waitlabClosed) d.open = false; return null;");
    s.resize(1100, 1600);
}

/// A recipient of a result link, in each of the six languages, on a fresh
/// page: a link of every experiment (the bundled Chromium set's runs, as
/// a reader's), whose results, lessons and comparisons must all read as
/// sentences, and a damaged link, whose message must too. No "⟦" (a key
/// rendered before its texts were in) in either.
pub(crate) fn links_in_every_language(browser: Browser) {
    let mut run = bundled_engine_sets()
        .into_iter()
        .find(|set| set.env.cross_origin_isolated && set.env.user_agent.contains("Chrome"))
        .expect("the bundled Chromium set");
    // A reader's run, as its link carries it.
    run.env.native = None;
    let shown: Vec<Experiment> = Experiment::ALL
        .into_iter()
        .filter(|&e| run.has(e))
        .collect();
    assert!(shown.len() >= 9, "{shown:?}");
    let payload = payload_of(&run);
    let origin = isolated_server().origin.clone();
    let mut s = Session::lease(browser);
    for lang in Lang::ALL {
        let code = lang.code();
        s.navigate("about:blank");
        s.navigate(&format!("{origin}/?lang={code}#{payload}"));
        for e in &shown {
            s.wait_for_element(
                &format!("[data-testid={}] [data-testid=report-json]", e.slug()),
                30,
            );
        }
        s.wait_for_element("[data-testid=summary] li", 20);
        for e in &shown {
            reach_comparison(&mut s, e.slug());
        }
        s.eval("for (const d of document.querySelectorAll('details')) d.open = true; return null;");
        s.eval_async(
            "await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))); return null;",
        );
        assert_no_raw_keys(
            &mut s,
            &format!("{code}: a result link of every experiment"),
        );
        review_shot(&mut s, &format!("link-{code}"));
        s.navigate("about:blank");
        s.navigate(&format!("{origin}/?lang={code}#v1:%00%ff%fe"));
        s.wait_for_element(&tid("link-problem"), 20);
        assert_no_raw_keys(&mut s, &format!("{code}: a damaged link"));
    }
    assert_no_page_errors(&mut s);
}
