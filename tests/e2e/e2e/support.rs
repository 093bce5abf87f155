//! What the scenarios share to drive the page: selectors, the review
//! screenshots, the dist and its servers, running experiment 1 or any
//! section and reading its report, the comparisons, inputs and selects,
//! and the texts the dist serves.

use crate::checks::*;
use serde_json::Value;
use std::path::PathBuf;
use std::sync::OnceLock;
use waitlab_core::experiments::Experiment;
use waitlab_core::lang::Lang;
use waitlab_core::schema::Report;
use waitlab_core::text::{Catalog, Key, Part};
use waitlab_e2e::server::{Mode, Server};
use waitlab_e2e::webdriver::Session;

/// A CSS selector for the page-level element with this test id.
pub(crate) fn tid(id: &str) -> String {
    format!("[data-testid={id}]")
}

/// A CSS selector for an element of the timed-waits section.
pub(crate) fn in_tw(id: &str) -> String {
    format!("[data-testid=timed-waits] [data-testid={id}]")
}

/// Ticks or unticks experiment 1's "stop a cell once its median is known"
/// (the scenarios that count samples take a fixed count): a reader's click
/// where the box is shown, a script's where it is not (an embed hides it).
pub(crate) fn set_adaptive(s: &mut Session, adaptive: bool) {
    s.wait_for_element(&in_tw("adaptive"), 30);
    let state = s.eval(&format!(
        "const box = document.querySelector({}); return [box.checked, box.offsetParent !== null];",
        Value::from(in_tw("adaptive"))
    ));
    match (state[0].as_bool(), state[1].as_bool()) {
        (Some(checked), _) if checked == adaptive => {}
        (_, Some(true)) => s.click(&in_tw("adaptive")),
        _ => {
            let click = format!(
                "document.querySelector({}).click(); return true;",
                Value::from(in_tw("adaptive"))
            );
            s.eval(&click);
        }
    }
}

/// The states a reviewer looks at, saved in each browser as
/// `target/screenshots/BROWSER-STATE.png`: the page idle, running and with
/// results, every experiment's results, shared link and timeline (by
/// its slug, in `review_shot`), the no-COI fallback, a shared link
/// and a comparison, an embed in a blog page and its first screen (and
/// its message when the app cannot be fetched), a hostile link's message,
/// the native sets, the service-worker states and a broken worker's and
/// data file's messages. Other states are saved only with
/// `WAITLAB_SCREENSHOTS=all`; a failing test's page always is
/// (`failed-TEST`).
const REVIEW_SHOTS: &[&str] = &[
    "idle",
    "recipe-open",
    "nocoi-summary-after-run-all",
    "timed-waits-adaptive",
    "isolated-running",
    "isolated-results",
    "cancelled",
    "periodic-work-embed",
    "nocoi-idle",
    "nocoi-results",
    "native-panel",
    "native-timed-waits-with-browser",
    "shared-view",
    "compare-view",
    "compare-verdicts",
    "hostile-link",
    "embed-in-blog-parent-isolated-false",
    "embed-in-blog-parent-isolated-true",
    "embed-in-blog-first-screen-parent-isolated-false",
    "first-screen-de-1366",
    "first-screen-ja-1366",
    "first-screen-de-390",
    "first-screen-ja-390",
    "summary-after-run-all",
    "summary-after-run-all-390",
    "engine-sets",
    "slow-phone-6x-summary",
    "embed-in-plain-blog-first-screen-isolated-true",
    "embed-in-plain-blog-first-screen-isolated-false",
    "embed-in-plain-blog-results-isolated-true",
    "embed-in-plain-blog-results-isolated-false",
    "embed-ladder-in-plain-blog-isolated-true",
    "embed-ladder-in-plain-blog-isolated-false",
    "embed-first-screen",
    "embed-app-loading",
    "embed-app-unavailable",
    "service-worker-isolated",
    "service-worker-refused",
    "fault-stops-answering",
    "fault-damaged-wasm",
    "fault-data-hangs",
    "reference-broken-set",
    "runs-texts-missing",
    "lang-de-results",
    "lang-ja-results",
    "lang-ru-results",
    "lang-pt-results",
    "lang-es-results",
    "lang-en-results",
    "lang-es-embed",
    "shell-en",
    "shell-de",
    "dark-results",
    "mechanisms-open",
    "mechanism-picker-results",
    "bench-100k",
    "own-wait-result",
    "own-wait-busy",
    "own-wait-clamp-reason",
];

/// Saves a screenshot of `state` if it is one a reviewer looks at.
pub(crate) fn review_shot(s: &mut Session, state: &str) {
    static ALL: OnceLock<bool> = OnceLock::new();
    let all = *ALL.get_or_init(|| std::env::var("WAITLAB_SCREENSHOTS").is_ok_and(|v| v == "all"));
    // Each experiment's results, shared link and timeline (`SLUG-results`).
    let of_an_experiment = Experiment::ALL.iter().any(|e| {
        state
            .strip_prefix(e.slug())
            .is_some_and(|rest| ["-results", "-shared", "-timeline"].contains(&rest))
    });
    if all || of_an_experiment || REVIEW_SHOTS.contains(&state) {
        s.screenshot(state);
    }
}

pub(crate) fn dist() -> PathBuf {
    let dist = std::env::var_os("WAITLAB_DIST")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../dist"));
    assert!(
        dist.join("index.html").is_file(),
        "no built dist at {} (cargo xtask test builds it first)",
        dist.display()
    );
    dist
}

pub(crate) fn isolated_server() -> &'static Server {
    static S: OnceLock<Server> = OnceLock::new();
    S.get_or_init(|| Server::start_at_site(&dist(), Mode::Isolated))
}

pub(crate) fn plain_server() -> &'static Server {
    static S: OnceLock<Server> = OnceLock::new();
    S.get_or_init(|| Server::start(&dist(), Mode::Plain))
}

/// The raw JSON shown at `selector`, opened as a reader opens it (the
/// page writes it when it is first shown).
pub(crate) fn report_json(s: &mut Session, selector: &str) -> String {
    // The results view lands a moment after its report (its code is a
    // chunk fetched with the first one).
    s.wait_for_element(selector, 10);
    let quoted = Value::from(selector);
    s.eval(&format!(
        "document.querySelector({quoted}).closest('details').open = true; return null;"
    ));
    s.wait_for(
        &format!("document.querySelector({quoted}).textContent.length > 0"),
        10,
    );
    s.text(selector).expect("the raw JSON")
}

/// Configures and runs experiment 1, then reads the exported report.
pub(crate) fn run_experiment(
    s: &mut Session,
    durations: &str,
    samples: &str,
    shot: &str,
) -> Report {
    set_adaptive(s, false);
    s.type_into(&in_tw("durations"), durations);
    s.type_into(&in_tw("samples"), samples);
    s.click(&in_tw("run"));
    s.wait_for_element(&in_tw("progress"), 10);
    review_shot(s, &format!("{shot}-running"));
    s.wait_for_element(&in_tw("report-json"), 150);
    s.eval("document.querySelector('[data-testid=timed-waits] [data-testid=results]').scrollIntoView();");
    review_shot(s, &format!("{shot}-results"));
    let json = report_json(s, &in_tw("report-json"));
    reach_comparison(s, "timed-waits");
    Report::from_json(&json).expect("the exported report parses")
}

/// How long a test waits for a run it started: far longer than any run a
/// test asks for takes on a loaded machine.
const RUN_SECONDS: u64 = 300;

/// Fills a section's fields, runs it, screenshots its results as
/// `SECTION-STATE` and reads the exported report.
pub(crate) fn run_section(
    s: &mut Session,
    section: &str,
    fields: &[(&str, &str)],
    state: &str,
) -> Report {
    let shot = &format!("{section}-{state}");
    let sel = |id: &str| format!("[data-testid={section}] [data-testid={id}]");
    for (field, value) in fields {
        s.type_into(&sel(field), value);
    }
    // A section run before keeps its report on the page until the new one
    // replaces it: wait for a report other than the one shown now.
    let quoted = Value::from(sel("report-json"));
    let before = s.eval(&format!(
        "const e = document.querySelector({quoted}); return e ? e.textContent : null;"
    ));
    let done = format!(
        "(() => {{ const e = document.querySelector({quoted});              return e !== null && (e.textContent === '' || e.textContent !== {before}); }})()"
    );
    press_run(s, section, &done);
    s.wait_for(&done, RUN_SECONDS);
    s.eval(&format!(
        "document.querySelector({}).scrollIntoView();",
        Value::from(sel("results"))
    ));
    review_shot(s, shot);
    let json = report_json(s, &sel("report-json"));
    crate::timeline::check(s, section);
    reach_comparison(s, section);
    assert_fits_phone(s, shot);
    Report::from_json(&json).expect("the exported report parses")
}

/// Presses the Run of `section` until its run shows that it started: its
/// progress, its notice, or `done`.
///
/// A click can miss where the page grows under it (a form or a comparison
/// below is made as it comes into view while WebDriver scrolls to Run:
/// WebKitGTK's clicked beside it twice in six runs of four experiments), so
/// Run is pressed again if nothing started.
pub(crate) fn press_run(s: &mut Session, section: &str, done: &str) {
    let sel = |id: &str| format!("[data-testid={section}] [data-testid={id}]");
    let started = format!(
        "{done} || [{}, {}].some(s => document.querySelector(s) !== null)",
        Value::from(sel("progress")),
        Value::from(sel("notice"))
    );
    press_until(s, &sel("run"), &started, 3, &format!("{section}: Run"));
}

/// Clicks `button` until `shown` holds within `seconds` of a click, at
/// most three times: a click can miss where the page grows under it.
pub(crate) fn press_until(s: &mut Session, button: &str, shown: &str, seconds: u64, what: &str) {
    for attempt in 1.. {
        s.click(button);
        if s.became(shown, seconds) {
            break;
        }
        assert!(attempt < 3, "{what} pressed {attempt} times, nothing came");
        eprintln!("{what} was pressed, nothing came: pressed again");
    }
}

/// Presses `section`'s `button` until its copy field `field` shows (a
/// click can miss where the page grows under it), and reads the field.
pub(crate) fn press_and_read(s: &mut Session, section: &str, button: &str, field: &str) -> String {
    let sel = |id: &str| format!("[data-testid={section}] [data-testid={id}]");
    let shown = format!("!!document.querySelector({})", Value::from(sel(field)));
    press_until(s, &sel(button), &shown, 15, &format!("{section}: {button}"));
    value(s, &sel(field))
}

/// Checks that the text of `selector` holds every one of `parts`.
pub(crate) fn assert_text_holds(s: &mut Session, selector: &str, parts: &[&str]) {
    let text = s.text(selector).unwrap();
    assert!(parts.iter().all(|p| text.contains(p)), "{selector}: {text}");
}

/// The number of elements matching `selector`.
pub(crate) fn count(s: &mut Session, selector: &str) -> u64 {
    s.eval(&format!(
        "return document.querySelectorAll({}).length;",
        Value::from(selector)
    ))
    .as_u64()
    .unwrap()
}

pub(crate) fn scroll_to(s: &mut Session, selector: &str) {
    s.eval(&format!(
        "document.querySelector({}).scrollIntoView();",
        Value::from(selector)
    ));
}

/// Scrolls to `section`'s comparison with native numbers, which is made
/// once the reader reaches it, and waits for it.
pub(crate) fn reach_comparison(s: &mut Session, section: &str) {
    let place = format!("[data-testid={section}] [data-testid=comparison-place]");
    scroll_to(s, &place);
    s.wait_for_element(&format!("{place} [data-testid=comparison]"), 20);
}

/// Whether the lesson `id` is taught by an experiment Run all runs (not
/// the hidden tab's, which needs the reader).
pub(crate) fn in_run_all(id: &str) -> bool {
    waitlab_core::summary::Lesson::all()
        .into_iter()
        .any(|l| l.id() == id && Experiment::RUN_ALL.contains(&l.experiment()))
}

/// Every section of an experiment that runs on its own (Run all's: not
/// the hidden tab, which needs the reader), in page order (its
/// `data-testid`).
pub(crate) fn sections() -> impl Iterator<Item = &'static str> {
    Experiment::ALL
        .into_iter()
        .filter(|e| Experiment::RUN_ALL.contains(e))
        .map(Experiment::slug)
}

/// The value of the input matching `selector`.
pub(crate) fn value(s: &mut Session, selector: &str) -> String {
    s.eval(&format!(
        "return document.querySelector({}).value;",
        Value::from(selector)
    ))
    .as_str()
    .unwrap_or_default()
    .to_owned()
}

/// Waits until `section` begins in the top `share` of the window (1.0:
/// anywhere in it), as going to it (a link, the picker, the summary)
/// leaves it.
pub(crate) fn wait_section_begins_within(s: &mut Session, section: &str, share: f64) {
    s.wait_for(
        &format!(
            "(() => {{ const r = document.querySelector('[data-testid={section}]').getBoundingClientRect();\
             return r.top >= -1 && r.top < innerHeight * {share}; }})()"
        ),
        10,
    );
}

/// The catalog of `lang` (both parts) as the dist serves it.
pub(crate) fn catalog(lang: Lang) -> Catalog {
    let parts = Part::ALL.map(|part| {
        let path = dist().join("i18n").join(part.file(lang));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    });
    Catalog::from_parts(lang, &parts.each_ref().map(String::as_str)).unwrap()
}

/// The longest stretch of `key`'s template (its first form) between
/// placeholders: text any rendering of it contains.
pub(crate) fn fixed_part(catalog: &Catalog, key: Key) -> String {
    let template = catalog
        .entry(key)
        .expect("a key of the catalog")
        .templates()[0]
        .to_owned();
    template
        .split(['{', '}'])
        .step_by(2)
        .max_by_key(|s| s.chars().count())
        .unwrap_or("")
        .trim()
        .to_owned()
}

/// Picks `value` in the page's select `testid`, as a reader would.
pub(crate) fn select(s: &mut Session, testid: &str, value: &str) {
    s.eval(&format!(
        "const el = document.querySelector({}); el.value = {};\
         el.dispatchEvent(new Event('change', {{ bubbles: true }}));",
        Value::from(tid(testid)),
        Value::from(value)
    ));
}

// Downloads.

/// What the button `button` of `section` offers to download, as the page
/// hands it to the browser (a blob behind a clicked link, made at once or
/// after an await): its file name and MIME type, its text (none for a
/// PNG), and for a PNG its size in pixels; for an SVG whether it parses as
/// XML.
pub(crate) fn offered(s: &mut Session, section: &str, button: &str) -> Value {
    let got = s.eval_async(&format!(
        "const made = new Map();\
         const create = URL.createObjectURL;\
         URL.createObjectURL = (blob) => {{ const url = create.call(URL, blob); made.set(url, blob); return url; }};\
         let got = null;\
         const click = HTMLAnchorElement.prototype.click;\
         HTMLAnchorElement.prototype.click = function () {{ got = [this.download, made.get(this.href)]; }};\
         try {{\
           document.querySelector('[data-testid={section}] [data-testid={button}]').click();\
           for (let i = 0; i < 200 && !got; i++) await new Promise(r => setTimeout(r, 50));\
         }} finally {{ URL.createObjectURL = create; HTMLAnchorElement.prototype.click = click; }}\
         if (!got || !got[1]) return null;\
         const [name, blob] = got;\
         if (blob.type === 'image/png') {{\
           const image = await createImageBitmap(blob);\
           const head = Array.from(new Uint8Array(await blob.slice(0, 8).arrayBuffer()));\
           return {{ name, type: blob.type, png: head, width: image.width, height: image.height }};\
         }}\
         const text = await blob.text();\
         const xml = blob.type === 'image/svg+xml'\
           && new DOMParser().parseFromString(text, 'image/svg+xml').querySelector('parsererror') === null;\
         return {{ name, type: blob.type, text, xml }};"
    ));
    assert!(got.is_object(), "{button}: nothing offered");
    got
}

/// The file name and text that `button` of `section` offers.
pub(crate) fn download(s: &mut Session, section: &str, button: &str) -> (String, String) {
    let got = offered(s, section, button);
    let field = |name: &str| got[name].as_str().unwrap_or_default().to_owned();
    (field("name"), field("text"))
}

/// The bundled sets of browser engines, as the page bundles them.
pub(crate) fn bundled_engine_sets() -> Vec<Report> {
    let folder = dist().join("data/native");
    std::fs::read_dir(&folder)
        .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
        .filter_map(|f| {
            let path = f.ok()?.path();
            let text = std::fs::read_to_string(&path).ok()?;
            let set = waitlab_core::reference::parse_set(&text).ok()?;
            set.env.is_engine().then_some(set)
        })
        .collect()
}

/// A result link's payload for `report`, its body in uncompressed raw
/// DEFLATE blocks (which every inflater reads).
pub(crate) fn payload_of(report: &Report) -> String {
    let body = waitlab_core::link::encode_body(report);
    let mut deflated = Vec::new();
    let blocks: Vec<&[u8]> = body.chunks(usize::from(u16::MAX)).collect();
    for (i, block) in blocks.iter().enumerate() {
        let len = block.len() as u16;
        deflated.push(u8::from(i + 1 == blocks.len()));
        deflated.extend(len.to_le_bytes());
        deflated.extend((!len).to_le_bytes());
        deflated.extend_from_slice(block);
    }
    waitlab_core::link::wrap(&deflated)
}
