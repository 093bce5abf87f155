//! `cargo xtask gallery`'s runs (ignored by the test command): every
//! experiment with its defaults in one engine, on the isolated test
//! server, each section run as a reader runs it; written with the
//! engine's version into the folder `WAITLAB_GALLERY` names, for the
//! gallery to turn into a bundled set. An experiment that needs shared
//! memory where the engine has none is left out (its comparison then
//! says the engine lacks it). And those sets as the page shows them.

use crate::checks::Features;
use crate::support::*;
use serde_json::json;
use waitlab_core::experiments::Experiment;
use waitlab_core::schema::Report;
use waitlab_core::shared_memory::{Lacks, lacks};
use waitlab_e2e::webdriver::{Browser, Session};

pub(crate) fn gallery(browser: Browser) {
    let folder = std::path::PathBuf::from(
        std::env::var_os("WAITLAB_GALLERY")
            .expect("WAITLAB_GALLERY names the folder for the engines' runs (cargo xtask gallery)"),
    );
    let mut s = Session::start_throttling(browser);
    s.open(&isolated_server().origin);
    let features = Features::detect(&mut s);
    let mut reports: Vec<Report> = Experiment::ALL
        .into_iter()
        .filter(|e| Experiment::RUN_ALL.contains(e))
        .filter(|&e| features.shared_memory() || lacks(e) != Lacks::Everything)
        .map(|e| run_section(&mut s, e.slug(), &[], "gallery"))
        .collect();
    // The hidden tab, as a reader runs it: away behind another tab.
    match crate::hidden_tab::run_hidden(&mut s, "12") {
        Ok((r, _)) if r.hidden_tab.as_ref().is_some_and(|h| h.hidden_enough()) => reports.push(r),
        Ok(_) => eprintln!("gallery: {}: the page was not hidden", browser.name()),
        Err(why) => eprintln!(
            "gallery: {}: the page could not be hidden: {why}",
            browser.name()
        ),
    }
    let report = Report::combine(&reports).expect("at least one experiment ran");
    let run: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    let file = folder.join(format!("{}.json", browser.name()));
    std::fs::write(
        &file,
        json!({ "engine": browser.name(), "version": s.version, "report": run }).to_string(),
    )
    .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    println!(
        "gallery: {} {} -> {}",
        browser.name(),
        s.version,
        file.display()
    );
}

/// The engine sets `cargo xtask gallery` wrote, in the page: listed apart
/// from the native ones under their own heading and not shown until
/// picked; once picked, each has its rows in a comparison, as browsers,
/// above the native rows; and the comparison says what differs between
/// the engines in kind, from their rows.
pub(crate) fn engine_sets(browser: Browser) {
    let mut s = Session::lease(browser);
    s.open(&isolated_server().origin);
    let engines = [
        "set-chromium-linux-webdriver",
        "set-firefox-linux-webdriver",
        "set-webkitgtk-linux-webdriver",
    ];
    for set in engines {
        s.wait_for_element(&tid(set), 20);
    }
    assert_eq!(
        count(&mut s, "[data-testid=reference] h3.reference-group"),
        2
    );
    let section = "timed-waits";
    reach_comparison(&mut s, section);
    let engine_rows =
        format!("[data-testid={section}] [data-testid=group-engine] [data-testid=cmp-row]");
    assert_eq!(
        count(&mut s, &engine_rows),
        0,
        "engine sets are not shown at first"
    );
    for set in engines {
        s.click(&format!("{} input", tid(set)));
    }
    s.wait_for(
        &format!(
            "document.querySelectorAll('[data-testid={section}] [data-testid=group-engine]').length === 3"
        ),
        20,
    );
    assert!(count(&mut s, &engine_rows) >= 3);
    // Browsers first: every engine's rows come before the native ones.
    let order = s.eval(&format!(
        "return Array.from(document.querySelectorAll('[data-testid={section}] tbody[data-testid^=group-]'))\
           .map(b => b.dataset.testid);"
    ));
    let order: Vec<String> = serde_json::from_value(order).unwrap();
    let last_engine = order.iter().rposition(|g| g == "group-engine").unwrap();
    let first_native = order.iter().position(|g| g == "group-native").unwrap();
    assert!(last_engine < first_native, "{order:?}");
    let differences = format!("[data-testid={section}] [data-testid=engine-differences]");
    s.eval(&format!(
        "document.querySelector({}).closest('details').open = true; return null;",
        serde_json::Value::from(differences.clone())
    ));
    // Said once opened: among them, what WebKitGTK here (no
    // SharedArrayBuffer, no scheduler) could not measure.
    s.wait_for_element(&format!("{differences} li"), 20);
    let said = s.text(&differences).unwrap_or_default();
    assert!(
        said.contains("bundled engine set") && said.contains("WebKitGTK"),
        "{said}"
    );
    s.eval(&format!(
        "document.querySelector('[data-testid={section}] [data-testid=comparison]').scrollIntoView(); return null;"
    ));
    review_shot(&mut s, "engine-sets");
}
