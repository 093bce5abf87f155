//! The recipes, the code the summary tells a reader to write:
//! `recipes_*` imports every JavaScript recipe as the site serves it, in
//! an isolated page and in one without isolation, and checks that each
//! does what its lesson promises (`recipes.js`), or, where the page lacks
//! what it needs (and only there), fails at once with an error whose first
//! words name it; none is skipped.
//! [`assert_recipes_shown`] checks the summary's recipe blocks: one per
//! lesson, three platforms each, the files' text as they are served.

use crate::checks::Features;
use crate::support::*;
use waitlab_core::experiments::timed_waits::lessons::TIMED_WAIT_MINIMUM;
use waitlab_core::summary::Lesson;
use waitlab_core::summary::recipe::{self, Platform};
use waitlab_e2e::webdriver::{Browser, Session};

/// The checks, run in the page.
const CHECKS: &str = include_str!("recipes.js");

/// A worker whose source the test server serves as a file of the page's
/// origin (the page's policy refuses `blob:` workers), as a module.
const SERVED_MODULE_WORKER: &str = "(src) => new Worker('/__worker/' + btoa(src).replaceAll('+', '-')\
    .replaceAll('/', '_').replace(/=+$/, '') + '.js', { type: 'module' })";

/// Every JavaScript recipe, imported and run, where the page is isolated
/// and where it is not.
pub(crate) fn recipes(browser: Browser) {
    let mut s = Session::lease(browser);
    for origin in [&isolated_server().origin, &plain_server().origin] {
        // The whole page made first: the recipes time waits on its main
        // thread, which a form or comparison still being made would hold
        // up (a first screen alone let a schedule's last tick in WebKitGTK
        // be 58 ms late).
        s.open(origin);
        let features = Features::detect(&mut s);
        let lessons: Vec<&str> = Lesson::all().iter().map(|l| l.id()).collect();
        let rows = s.eval_async(&format!(
            "{CHECKS}\nreturn await checkRecipes({}, {SERVED_MODULE_WORKER});",
            serde_json::to_string(&lessons).unwrap()
        ));
        let rows = rows.as_array().expect("a row per lesson");
        assert_eq!(rows.len(), Lesson::all().len(), "{rows:?}");
        for row in rows {
            let (lesson, detail) = (row["lesson"].as_str().unwrap(), &row["detail"]);
            eprintln!("{} {origin}: {lesson}: {row}", browser.name());
            assert_eq!(row["ok"], true, "{lesson} in {}: {detail}", browser.name());
            // Where the page lacks what a recipe needs, it fails at once and
            // says so (checked in `recipes.js`): none is skipped.
            assert_ne!(row["skipped"], true, "{lesson} skipped: {detail}");
            if detail
                .as_str()
                .is_some_and(|d| d.starts_with("failed at once"))
            {
                // Only what the page lacks excuses it: shared memory (and
                // for the signal's shared half, `Atomics.waitAsync`).
                let lacks = !features.shared_memory()
                    || (lesson == "signal_dont_poll" && !features.wait_async());
                assert!(lacks, "{lesson} refused to run where it can: {detail}");
            }
        }
    }
}

/// The summary's recipes after a run: a block per lesson, each with a
/// snippet per platform, which show their files' text once opened, one
/// platform at a time; the tab picked in one block is picked in all.
pub(crate) fn assert_recipes_shown(s: &mut Session) {
    let blocks = "[data-testid=summary] [data-testid=recipe]";
    assert_eq!(count(s, blocks), Lesson::all().len() as u64);
    // Each block's browser tab says first where its code runs.
    for lesson in Lesson::all() {
        let runs = s.eval(&format!(
            "const r = document.querySelector('{blocks}[data-lesson={}] [data-platform=js] [data-testid=recipe-runs]');\
             return r ? [r.dataset.runs, r.textContent] : null;",
            lesson.id()
        ));
        assert_eq!(
            runs[0].as_str(),
            Some(recipe::runs_on(lesson).id()),
            "{lesson:?}: {runs}"
        );
        assert!(!runs[1].as_str().unwrap_or("⟦").contains('⟦'), "{runs}");
    }
    let lesson = Lesson::by_id(TIMED_WAIT_MINIMUM).expect("experiment 1's lesson");
    let block = format!(
        "[data-testid=summary] [data-testid=recipe][data-lesson={}]",
        lesson.id()
    );
    s.eval(&format!(
        "document.querySelector('{block}').open = true; \
         document.querySelector('{block}').scrollIntoView(); return null;"
    ));
    s.wait_for(
        &format!("document.querySelectorAll('{block} [data-testid=recipe-code]').length === 3"),
        20,
    );
    for platform in Platform::ALL {
        let shown = s.eval(&format!(
            "const p = document.querySelector('{block} [data-platform={}]'); \
             return [p.hidden, p.querySelector('[data-testid=recipe-code]').textContent];",
            platform.id()
        ));
        let served = std::fs::read_to_string(dist().join(recipe::path(lesson, platform))).unwrap();
        assert_eq!(shown[1].as_str(), Some(served.as_str()), "{platform:?}");
        assert_eq!(shown[0], platform != Platform::Js, "{platform:?} hidden");
    }
    review_shot(s, "recipe-open");
    s.click(&format!("{block} [role=tab]:nth-child(2)"));
    let hidden = s.eval(&format!(
        "return Array.from(document.querySelectorAll('{blocks} [data-platform=rust]')).map(p => p.hidden);"
    ));
    assert!(
        hidden.as_array().unwrap().iter().all(|h| h == false),
        "the Rust tab is not open in every block: {hidden}"
    );
}
