//! Share links: a run's link opens read-only with the same numbers, in the
//! same browser and in another; "Run on my machine" and a pasted link join
//! the comparison; hostile links give a message and inject nothing.

use crate::checks::*;
use crate::support::*;
use serde_json::Value;
use waitlab_core::schema::Report;
use waitlab_e2e::webdriver::{Browser, Session};

/// Shares `section`'s run, checks its link's payload is at most 600
/// characters, opens the link as a fresh page (screenshot `shot`) and
/// reads the report it shows.
pub(crate) fn share_and_open(s: &mut Session, section: &str, shot: &str) -> Report {
    let sel = |id: &str| format!("[data-testid={section}] [data-testid={id}]");
    // Its chunk and the link's compression run outside any run, after
    // what the page fetches for the disclosures a phone check opened:
    // WebKitGTK beside two other tests once took over 10 s. The button
    // waits for the link; a click that missed it (WebKitGTK, as the page
    // grew under it, once in a fresh clone's run) is made again.
    let link = press_and_read(s, section, "share-link-button", "share-link");
    let payload = link.split_once('#').map_or(0, |(_, p)| p.len());
    assert!(payload <= 600, "the link's payload is {payload} characters");
    // The link leaves the language to its reader; the embed code loads
    // the embed's page, beside the full page, in the author's.
    assert!(!link.contains("lang="), "{link}");
    let (folder, _) = link.split_once('#').expect("the link has a fragment");
    // Pressed until it shows, as Share is (WebKitGTK beside two other
    // tests once showed nothing 10 s after a click, in a fresh clone's run).
    let code = press_and_read(s, section, "embed-code-button", "embed-code");
    assert!(
        code.contains(&format!("src=\"{folder}embed.html?embed={section}&lang=")),
        "{code}"
    );
    // The experiment's address to paste into WordPress (its oEmbed page).
    s.click(&sel("blog-address-button"));
    s.wait_for_element(&sel("blog-address"), 10);
    assert_eq!(
        value(s, &sel("blog-address")),
        format!("{folder}experiments/{section}.html")
    );
    s.navigate("about:blank");
    s.open_first_screen(&link);
    s.wait_for_element(&sel("shared-label"), 20);
    assert_landed_on(s, section);
    review_shot(s, shot);
    Report::from_json(&report_json(s, &sel("report-json"))).expect("the shared report parses")
}

/// Presses a section's "Share this result" and returns the link.
fn share_link(s: &mut Session) -> String {
    s.click(&in_tw("share-link-button"));
    s.wait_for_element(&in_tw("share-link"), 10);
    value(s, &in_tw("share-link"))
}

/// Opens `link` as a fresh page and reads the shared report it shows.
fn open_link(s: &mut Session, link: &str) -> Report {
    s.navigate("about:blank");
    s.open_first_screen(link);
    s.wait_for_element(&in_tw("shared-label"), 20);
    assert_landed_on(s, "timed-waits");
    Report::from_json(&report_json(s, &in_tw("report-json"))).expect("the shared report parses")
}

/// A link opened lands on what it shared: `section` in view, in the
/// reader's language (the session's English), whatever the sender's was.
fn assert_landed_on(s: &mut Session, section: &str) {
    wait_section_begins_within(s, section, 0.5);
    assert_eq!(
        s.eval("return document.documentElement.lang;"),
        Value::from("en")
    );
}

/// Every statistic of `shown` is the one of `original` as a link keeps it
/// (`link::not_kept`: ±0.5 %, values under 0.1 µs as 0).
fn assert_same_numbers(original: &Report, shown: &Report) {
    let (a, b) = (
        original.timed_waits.as_ref().unwrap(),
        shown.timed_waits.as_ref().unwrap(),
    );
    assert_eq!(a.config, b.config);
    assert_eq!(a.cells.len(), b.cells.len());
    for (x, y) in a.cells.iter().zip(&b.cells) {
        assert_eq!(x.key, y.key);
        match (x.outcome.summary(), y.outcome.summary()) {
            (Some(p), Some(q)) => {
                if let Some((u, v)) = waitlab_core::link::not_kept(p, q) {
                    panic!("{}: {u} vs {v}", x.key.id());
                }
            }
            (None, None) => {}
            _ => panic!("{}: the outcome changed kind", x.key.id()),
        }
    }
}

pub(crate) fn share_round_trip(from: Browser, to: Browser) {
    let mut s = Session::lease(from);
    // The sender reads German; the link carries no language.
    s.open_for(
        &format!("{}/?lang=de", isolated_server().origin),
        "timed-waits",
    );
    let original = run_experiment(&mut s, "1, 10", "20", "share-source");
    let link = share_link(&mut s);
    assert!(link.contains("#v1:") && !link.contains("lang="), "{link}");
    let shown = open_link(&mut s, &link);
    assert!(shown.from_link);
    assert_same_numbers(&original, &shown);
    assert_eq!(s.text(&in_tw("run")).unwrap().trim(), "Run on my machine");
    s.eval("document.querySelector('[data-testid=timed-waits]').scrollIntoView();");
    review_shot(&mut s, "shared-view");
    // "Run on my machine": both runs side by side in one table.
    run_experiment(&mut s, "1, 10", "20", "share-mine");
    s.wait_for(
        "!document.querySelector('[data-testid=timed-waits] [data-testid=shared-label]')",
        60,
    );
    let rows = |s: &mut Session, group: &str| {
        count(
            s,
            &format!("[data-testid=timed-waits] [data-testid=group-{group}] [data-testid=cmp-row]"),
        )
    };
    assert!(rows(&mut s, "shared") >= 1 && rows(&mut s, "browser") >= 1);
    // Compare: a second link pasted into the panel joins the tables.
    let mine = share_link(&mut s);
    s.type_into(&tid("compare-link"), &mine);
    s.click(&tid("compare-add"));
    s.wait_for(
        "document.querySelectorAll('[data-testid=timed-waits] [data-testid=group-shared]').length === 2",
        10,
    );
    assert_eq!(count(&mut s, &tid("shared-run")), 2);
    // This browser's run beside its own link: no row is faster or slower
    // and rows are the same (a link keeps its rows to ±0.5 %; a row of a
    // few clock steps rebuilt from its sketch may be "under the clock").
    let mine = verdicts_of_last_shared(&mut s);
    assert!(mine.iter().any(|v| v == "same"), "{mine:?}");
    let undecided = ["same", "under_clock", ""];
    assert!(
        mine.iter().all(|v| undecided.contains(&v.as_str())),
        "{mine:?}"
    );
    // A run whose 10 ms wait took three times as long and whose 1 ms
    // wait a fifth: beside this browser's, "slower" and "faster".
    let (far, slow, fast) = far_apart(&original);
    s.type_into(&tid("compare-link"), &link_of(&far));
    s.click(&tid("compare-add"));
    s.wait_for(
        "document.querySelectorAll('[data-testid=timed-waits] [data-testid=group-shared]').length === 3",
        10,
    );
    let far = verdicts_of_last_shared(&mut s);
    assert_eq!(
        (far[slow].as_str(), far[fast].as_str()),
        ("slower", "faster"),
        "{far:?}; the linked run's clock: {:?}; the table: {}",
        original.env.clock,
        s.text("[data-testid=timed-waits] [data-testid=comparison]")
            .unwrap_or_default()
            .chars()
            .take(1500)
            .collect::<String>()
    );
    s.eval("for (const d of document.querySelectorAll('[data-testid=timed-waits] .comparison details')) d.open = true;");
    scroll_to(
        &mut s,
        "[data-testid=timed-waits] [data-testid=verdict-summary]",
    );
    review_shot(&mut s, "compare-verdicts");
    scroll_to(&mut s, "[data-testid=timed-waits] [data-testid=comparison]");
    review_shot(&mut s, "compare-view");
    assert_no_page_errors(&mut s);
    drop(s);
    // The same link in the other browser shows the same numbers.
    let mut other = Session::lease(to);
    let shown = open_link(&mut other, &link);
    assert_same_numbers(&original, &shown);
    assert_no_page_errors(&mut other);
}

/// The verdict of each row of the last run opened from a link in the
/// timed waits' comparison ("" where it has none).
fn verdicts_of_last_shared(s: &mut Session) -> Vec<String> {
    let verdicts = s.eval(
        "const g = document.querySelectorAll('[data-testid=timed-waits] [data-testid=group-shared]');
         return [...g[g.length - 1].querySelectorAll('[data-testid=cmp-row]')]
           .map(r => r.querySelector('[data-testid=verdict]')?.dataset.verdict ?? '');",
    );
    serde_json::from_value(verdicts).unwrap()
}

/// `report` with its first measured 10 ms wait three times as long and
/// its first measured 1 ms wait a fifth, and those cells' indices.
fn far_apart(report: &Report) -> (Report, usize, usize) {
    use waitlab_core::outcome::Outcome;
    let mut far = report.clone();
    let cells = &mut far.timed_waits.as_mut().unwrap().cells;
    let find = |d| {
        cells
            .iter()
            .position(|c| c.key.requested_ms == Some(d) && c.outcome.summary().is_some())
            .unwrap()
    };
    let (slow, fast) = (find(10), find(1));
    for (i, by) in [(slow, 3.0), (fast, 0.2)] {
        if let Outcome::Measured { samples_ms, .. } = &cells[i].outcome {
            cells[i].outcome = Outcome::of_samples(samples_ms.iter().map(|v| v * by).collect());
        }
    }
    (far, slow, fast)
}

/// A result link of `report` on the isolated server ([`payload_of`]).
fn link_of(report: &Report) -> String {
    format!("{}/#{}", isolated_server().origin, payload_of(report))
}

pub(crate) fn hostile_links(browser: Browser) {
    let mut s = Session::lease(browser);
    let base = isolated_server().origin.clone();
    s.open_first_screen(&base);
    let scripts = count(&mut s, "script");
    let garbage = format!("v1:{}", "Zm9vYmFy".repeat(40));
    let long = format!("v1:{}", "A".repeat(20_000));
    let problem = tid("link-problem");
    for (i, (fragment, expect)) in [
        ("v1:%00%ff%fe", "damaged"),
        (garbage.as_str(), "damaged"),
        (long.as_str(), "too long"),
        ("<script>window.__pwned=1</script>", "does not hold"),
        ("<img src=x onerror=window.__pwned=1>", "does not hold"),
        ("v9:AAAA", "newer"),
    ]
    .into_iter()
    .enumerate()
    {
        if i == 0 {
            // A page loaded with the link…
            s.navigate("about:blank");
            s.open_first_screen(&format!("{base}/#{fragment}"));
        } else {
            // …and links pasted into the open page: its fragment changes
            // without a reload. The page has read the link when it has
            // taken it out of the address (it opened no run).
            s.eval(&format!("location.hash = {};", Value::from(fragment)));
            s.wait_for("location.hash === ''", 10);
        }
        s.wait_for_element(&problem, 10);
        let message = s.text(&problem).unwrap();
        assert!(message.contains(expect), "{fragment:.40}: {message}");
        assert_eq!(
            s.eval("return window.__pwned === undefined;"),
            Value::Bool(true)
        );
        assert_eq!(
            count(&mut s, "script"),
            scripts,
            "no element came from the link"
        );
        assert_eq!(count(&mut s, "img"), 0);
    }
    scroll_to(&mut s, &tid("share-panel"));
    review_shot(&mut s, "hostile-link");
    // The page still works.
    let report = run_experiment(&mut s, "1", "5", "hostile-then-run");
    assert!(report.timed_waits.is_some());
    assert_no_page_errors(&mut s);
}

/// A native run's link, as `waitlab-native --link` prints it (the probe
/// built and run here, `--quick`), opens in the page as a native run: with
/// the bundled sets unticked, its rows are the native group of the
/// comparison, and the shared runs name it.
pub(crate) fn native_link(browser: Browser) {
    let origin = &isolated_server().origin;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["run", "--quiet", "--package", "waitlab-native", "--"])
        .args(["--quick", "--no-progress", "--only", "spin-ladder"])
        .args(["--link", &format!("{origin}/")])
        .output()
        .expect("cargo runs the native probe");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let link = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    assert!(link.starts_with(&format!("{origin}/#v1:")), "{link}");
    let mut s = Session::lease(browser);
    s.open_first_screen(&link);
    for set in ["set-rust-linux-x86_64", "set-dotnet10-article-apple-m4"] {
        s.wait_for_element(&tid(set), 20);
        s.click(&format!("{} input", tid(set)));
    }
    reach_comparison(&mut s, "spin-ladder");
    let rows = "[data-testid=spin-ladder] [data-testid=group-native] [data-testid=cmp-row]";
    s.wait_for_element(rows, 20);
    assert!(count(&mut s, rows) >= 1, "the linked native run's rows");
    assert_eq!(
        count(
            &mut s,
            "[data-testid=spin-ladder] [data-testid=group-shared]"
        ),
        0,
        "a native run is not shown as someone's browser"
    );
    assert_no_page_errors(&mut s);
}
