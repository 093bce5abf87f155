//! The timeline of a run (issue: "see the wait"): every experiment's run
//! shows one ([`check`], called by `run_section` for every section run
//! in every browser), its file is what the drawing and its table say, and
//! a real importer, speedscope from npm, opens it: `timeline_speedscope_*`
//! opens a default run of every experiment's trace, and a native run's
//! (`waitlab-native --trace`), in speedscope's page and reads back the
//! threads and the time it shows for each.

use crate::support::*;
use serde_json::Value;
use std::collections::BTreeMap;
use waitlab_core::experiments::Experiment;
use waitlab_e2e::webdriver::Session;

/// A run's timeline as the page showed it and wrote it.
pub(crate) struct Timeline {
    /// Each thread in the table: its name and its spans.
    pub lanes: Vec<(String, u64)>,
    /// Flows drawn, frames drawn, and gaps where frames were missed.
    pub drawn_flows: u64,
    pub frames: u64,
    pub gaps: u64,
    /// The file's events (Trace Event Format).
    pub events: Vec<Value>,
    /// The file as written.
    pub json: String,
}

impl Timeline {
    /// The file's events of phase `ph`.
    pub(crate) fn of(&self, ph: &str) -> Vec<&Value> {
        self.events.iter().filter(|e| e["ph"] == ph).collect()
    }

    /// The spans of the lane named `name`.
    pub(crate) fn spans_of(&self, name: &str) -> u64 {
        self.lanes
            .iter()
            .find(|(n, _)| n == name)
            .map_or(0, |(_, n)| *n)
    }
}

/// Opens `section`'s timeline and checks it against its file: a lane per
/// thread, drawn and in the table; the file names each lane's tracks and
/// holds every span (an `X` event each), each flow as an `s`/`f` pair.
pub(crate) fn check(s: &mut Session, section: &str) -> Timeline {
    let sel = |id: &str| format!("[data-testid={section}] [data-testid={id}]");
    let quoted = Value::from(sel("timeline"));
    s.eval(&format!(
        "const d = document.querySelector({quoted}); if (!d.open) d.querySelector('summary').click(); return null;"
    ));
    s.wait_for_element(&format!("{} svg", sel("timeline-canvas")), 30);
    let seen = s.eval(&format!(
        "const root = document.querySelector({});\
         const svg = root.querySelector('[data-testid=timeline-canvas] svg');\
         const rows = [...root.querySelectorAll('[data-testid=timeline-summary] tbody tr')]\
           .map(r => [r.querySelector('th').textContent, r.querySelectorAll('td')[0].textContent]);\
         return {{ lanes: svg.querySelectorAll('.tl-lane').length, rows,\
           flows: svg.querySelectorAll('line.tl-flow').length,\
           frames: svg.querySelectorAll('line.tl-frame').length,\
           gaps: svg.querySelectorAll('rect.tl-gap').length }};",
        Value::from(sel("timeline-view"))
    ));
    let count = |v: &Value| v.as_u64().unwrap_or(0);
    let lanes: Vec<(String, u64)> = seen["rows"]
        .as_array()
        .expect("the timeline's table")
        .iter()
        .map(|r| {
            let digits: String = r[1]
                .as_str()
                .unwrap_or_default()
                .chars()
                .filter(char::is_ascii_digit)
                .collect();
            (
                r[0].as_str().unwrap_or_default().to_owned(),
                digits.parse().unwrap_or(0),
            )
        })
        .collect();
    assert!(!lanes.is_empty(), "{section}: a timeline without threads");
    assert_eq!(
        count(&seen["lanes"]) as usize,
        lanes.len(),
        "{section}: a lane drawn per thread in the table"
    );
    scroll_to(s, &sel("timeline-view"));
    review_shot(s, &format!("{section}-timeline"));
    let (name, json) = download(s, section, "timeline-download");
    assert!(
        name.starts_with(&format!("waitlab-{section}-")) && name.ends_with(".trace.json"),
        "{name}"
    );
    let file: Value = serde_json::from_str(&json).expect("the trace file is JSON");
    let events = file["traceEvents"].as_array().expect("traceEvents").clone();
    let timeline = Timeline {
        lanes,
        drawn_flows: count(&seen["flows"]),
        frames: count(&seen["frames"]),
        gaps: count(&seen["gaps"]),
        events,
        json,
    };
    let tracks: BTreeMap<u64, String> = timeline
        .of("M")
        .into_iter()
        .filter(|e| e["name"] == "thread_name")
        .map(|e| {
            (
                count(&e["tid"]),
                e["args"]["name"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    for (lane, _) in &timeline.lanes {
        assert!(
            tracks.values().any(|t| t == lane),
            "{section}: the file names no track {lane}: {tracks:?}"
        );
    }
    let spans = timeline.of("X");
    let total: u64 = timeline.lanes.iter().map(|(_, n)| n).sum();
    assert_eq!(
        spans.len() as u64,
        total,
        "{section}: every span in the file"
    );
    for e in &spans {
        assert!(
            tracks.contains_key(&count(&e["tid"])),
            "{section}: a span on an unnamed track: {e}"
        );
        assert!(
            e["dur"].as_f64().is_some_and(|d| d >= 0.0),
            "{section}: {e}"
        );
    }
    let (starts, ends) = (timeline.of("s"), timeline.of("f"));
    assert_eq!(starts.len(), ends.len(), "{section}: flows in pairs");
    timeline
}

/// Checks a trace file in speedscope's page (served by the test server
/// from npm's package): it imports it as a Trace Event Format profile,
/// lists a profile per track that holds spans, named after it, and its
/// sandwich view of the profile it opens with (the first) gives each name
/// of that track the time its spans add up to in the file (to 1 %).
fn in_speedscope(s: &mut Session, origin: &str, what: &str, json: &str) {
    let file: Value = serde_json::from_str(json).unwrap();
    let events = file["traceEvents"].as_array().unwrap();
    // Per track, per name: the spans' total time, µs.
    let mut times: BTreeMap<u64, BTreeMap<String, f64>> = BTreeMap::new();
    for e in events.iter().filter(|e| e["ph"] == "X") {
        // Speedscope names a span by its name and its arguments as JSON
        // (a long frame's scripts).
        let name = e["name"].as_str().unwrap();
        let name = match &e["args"] {
            Value::Null => name.to_owned(),
            args => format!("{name} {args}"),
        };
        *times
            .entry(e["tid"].as_u64().unwrap())
            .or_default()
            .entry(name)
            .or_default() += e["dur"].as_f64().unwrap();
    }
    let names: BTreeMap<u64, String> = events
        .iter()
        .filter(|e| e["ph"] == "M" && e["name"] == "thread_name")
        .map(|e| {
            (
                e["tid"].as_u64().unwrap(),
                e["args"]["name"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let path = upload(s, origin, what, json);
    s.navigate(&format!(
        "{origin}/__speedscope/index.html#profileURL={path}"
    ));
    s.wait_for(
        "/\\(tid \\d+\\)/.test(document.body.innerText) || /error|failed/i.test(document.body.innerText)",
        30,
    );
    // The profile selector (in the page, hidden until asked for) lists the
    // profiles when there are several; the title names the one shown.
    let shown = s.eval_async(
        "const text = (re) => { const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);\
           for (let n = w.nextNode(); n; n = w.nextNode()) if (re.test(n.textContent)) return n;\
           return null; };\
         const rows = () => [...document.querySelectorAll('tr')].map(r => [...r.children].map(c => c.textContent));\
         const listed = rows().filter(r => r.length === 3 && /^\\d+$/.test(r[0].trim())).map(r => r[1]);\
         const title = text(/\\(tid \\d+\\)/);\
         const sandwich = text(/^Sandwich$/);\
         if (!title || !sandwich) return { text: document.body.innerText.slice(0, 300) };\
         sandwich.parentElement.click();\
         const table = () => rows().filter(r => r.length === 3 && !/^\\d+$/.test(r[0].trim()));\
         const weighed = () => table().some(r => /^\\s*[\\d.]+/.test(r[0]));\
         for (let i = 0; i < 200 && !weighed(); i++) await new Promise(r => setTimeout(r, 50));\
         return { listed, title: title.textContent, sandwich: table() };",
    );
    let strings = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap_or_else(|| panic!("{what}: speedscope showed no profile: {shown}"))
            .iter()
            .map(|x| x.as_str().unwrap_or_default().to_owned())
            .collect()
    };
    let title = shown["title"].as_str().unwrap_or_default().to_owned();
    let mut profiles = strings(&shown["listed"]);
    if profiles.is_empty() {
        profiles.push(title.clone());
    }
    assert_eq!(
        profiles.len(),
        times.len(),
        "{what}: a speedscope profile per track with spans: {profiles:?}"
    );
    for tid in times.keys() {
        let label = format!("{} (tid {tid})", names[tid]);
        assert!(
            profiles.iter().any(|p| p.ends_with(&label)),
            "{what}: speedscope lists no {label}: {profiles:?}"
        );
    }
    let tid: u64 = title
        .rsplit("(tid ")
        .next()
        .and_then(|t| t.trim_end_matches(')').parse().ok())
        .unwrap_or_else(|| panic!("{what}: the profile shown: {title}"));
    let sandwich: Vec<(String, f64)> = shown["sandwich"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| {
            let (total, name) = (weight_ms(r[0].as_str()?), r[2].as_str()?.to_owned());
            total.is_finite().then_some((name, total))
        })
        .collect();
    let want = &times[&tid];
    assert_eq!(
        sandwich.len(),
        want.len(),
        "{what}: a sandwich row per name of {label}: {sandwich:?}",
        label = names[&tid]
    );
    for (name, us) in want {
        let ms = sandwich
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("{what}: no sandwich row {name}: {sandwich:?}"))
            .1;
        let want = us / 1000.0;
        assert!(
            (ms - want).abs() <= want * 0.01 + 0.01,
            "{what}: speedscope gives {name} {ms} ms, the file {want} ms"
        );
    }
    println!(
        "{what}: speedscope lists {} profiles; {} names of {} add up as in the file",
        profiles.len(),
        want.len(),
        names[&tid]
    );
}

/// A weight as speedscope writes it ("922.40ms", "1.27s", "12.00µs", "892.00ns",
/// perhaps followed by a share, "406.49ms (32%)"), ms.
fn weight_ms(text: &str) -> f64 {
    let text = text.trim();
    let (number, rest) = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .map_or((text, ""), |i| text.split_at(i));
    let n: f64 = number.parse().unwrap_or(f64::NAN);
    let unit = rest
        .split(|c: char| !c.is_alphabetic())
        .next()
        .unwrap_or("");
    match unit {
        "s" => n * 1000.0,
        "µs" | "us" => n / 1000.0,
        "ns" => n / 1_000_000.0,
        "min" => n * 60_000.0,
        "ms" => n,
        // Not a weight (a header), or a unit this does not know.
        _ => f64::NAN,
    }
}

/// Leaves `json` with the test server as `what`, for speedscope's page to
/// fetch; its path.
fn upload(s: &mut Session, origin: &str, what: &str, json: &str) -> String {
    let path = format!("/{}{what}.json", waitlab_e2e::server::UPLOAD);
    s.navigate(&format!("{origin}/{}", waitlab_e2e::server::BLANK));
    let put = s.eval_async(&format!(
        "const r = await fetch({}, {{ method: 'POST', body: {} }}); return r.status;",
        Value::from(path.as_str()),
        Value::from(json)
    ));
    assert_eq!(put, 204, "{what}: the upload");
    path
}

/// A default run of every experiment (`run_all_chromium`'s Run all, done
/// on `s`): each one's trace opened in speedscope; and the native probe's
/// (`waitlab-native --quick --trace`, written by `cargo xtask test` as
/// `WAITLAB_NATIVE_TRACE`). It leaves the page for speedscope's.
pub(crate) fn in_speedscope_after_run_all(s: &mut Session, origin: &str) {
    let mut traces = Vec::new();
    for e in Experiment::RUN_ALL {
        let t = check(s, e.slug());
        assert!(
            !t.of("X").is_empty(),
            "{}: a default run records spans",
            e.slug()
        );
        traces.push((e.slug(), t.json));
    }
    for (slug, json) in &traces {
        in_speedscope(s, origin, slug, json);
    }
    let native = std::env::var("WAITLAB_NATIVE_TRACE")
        .expect("WAITLAB_NATIVE_TRACE: the native probe's trace (cargo xtask test writes it)");
    let json = std::fs::read_to_string(&native).unwrap_or_else(|e| panic!("{native}: {e}"));
    in_speedscope(s, origin, "native", &json);
}

/// "Open in Perfetto" on `section`'s open timeline, with the browser's
/// `window.open` replaced by one that records what it was asked and hands
/// back a stand-in tab. An `isolated` page is cut off from the tabs it
/// opens: it opens Perfetto UI (`noopener`) and downloads the trace. Any
/// other pings the tab until it answers (here, a `PONG` from Perfetto's
/// origin, as Perfetto UI sends), then posts it the trace.
pub(crate) fn perfetto(s: &mut Session, section: &str, isolated: bool) {
    const PERFETTO: &str = "https://ui.perfetto.dev";
    s.eval(
        "window.__opened = []; window.__posted = [];\
         window.open = (url, target, features) => {\
           window.__opened.push([String(url), target || '', features || '']);\
           return { closed: false, postMessage: (m, o) => window.__posted.push([m, o]) };\
         }; return null;",
    );
    let said = format!("[data-testid={section}] [data-testid=timeline-said]");
    if isolated {
        let got = offered(s, section, "timeline-perfetto");
        let name = got["name"].as_str().unwrap_or_default();
        assert!(name.ends_with(".trace.json"), "{got}");
        let file: Value = serde_json::from_str(got["text"].as_str().unwrap()).unwrap();
        assert!(file["traceEvents"].is_array());
        let opened = s.eval("return window.__opened;");
        assert!(
            opened[0][0]
                .as_str()
                .is_some_and(|u| u.starts_with(PERFETTO))
                && opened[0][2] == "noopener",
            "{opened}"
        );
        s.wait_for_element(&said, 10);
        assert_text_holds(s, &said, &["isolated", "downloaded"]);
        return;
    }
    s.click(&format!(
        "[data-testid={section}] [data-testid=timeline-perfetto]"
    ));
    s.wait_for("window.__posted.some(p => p[0] === 'PING')", 10);
    s.eval(&format!(
        "window.dispatchEvent(new MessageEvent('message', {{ data: 'PONG', origin: '{PERFETTO}' }})); return null;"
    ));
    s.wait_for("window.__posted.some(p => p[0] && p[0].perfetto)", 10);
    let posted = s.eval(
        "const [m, origin] = window.__posted.find(p => p[0] && p[0].perfetto);\
         const text = new TextDecoder().decode(m.perfetto.buffer);\
         return { origin, title: m.perfetto.title, events: JSON.parse(text).traceEvents.length };",
    );
    assert_eq!(posted["origin"], PERFETTO, "{posted}");
    assert!(
        posted["title"]
            .as_str()
            .is_some_and(|t| t.ends_with(".trace.json"))
            && posted["events"].as_u64().is_some_and(|n| n > 0),
        "{posted}"
    );
    s.wait_for_element(&said, 10);
    assert_text_holds(s, &said, &["Perfetto"]);
}
