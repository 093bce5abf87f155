//! A trace as a Trace Event Format file (the JSON that Perfetto UI,
//! chrome://tracing and speedscope open): `M` events naming the process
//! and its threads, an `X` event per span, `s`/`f` pairs per flow, `i`
//! events per animation frame; times in µs since the run began.
//!
//! A thread whose spans overlap (async jobs on one worker, tasks on the
//! main thread) is written as one track per row of [`super::Lane::rows_within`]
//! (as many rows as it takes),
//! "name · 2" and so on, since the format's `X` events on one track must
//! nest; nothing is decimated.

use super::{Kind, Span, Trace};
use crate::text::Catalog;
use serde::Serialize;

/// One event.
#[derive(Serialize)]
struct Event<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    cat: &'static str,
    ph: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    ts: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dur: Option<f64>,
    pid: u32,
    tid: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bp: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    s: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    args: Option<Args<'a>>,
}

/// An event's arguments: a metadata event's name or order, a long
/// frame's scripts.
#[derive(Serialize)]
struct Args<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sort_index: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    scripts: Option<&'a str>,
}

/// The whole file.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct File<'a> {
    trace_events: Vec<Event<'a>>,
    display_time_unit: &'static str,
    other_data: Other<'a>,
}

#[derive(Serialize)]
struct Other<'a> {
    source: &'a str,
    began_epoch_ms: f64,
    dropped_records: u64,
}

fn us(ms: f64) -> f64 {
    (ms * 1000.0 * 1000.0).round() / 1000.0
}

/// Each span's start and duration in µs (to the ns): a span that ends
/// where the next of its track begins ends a nanosecond sooner, so that no
/// importer reads the two as nested when it adds a duration to a start.
fn placed(spans: &[Span], rows: &[usize]) -> Vec<(f64, f64)> {
    let ns = |ms: f64| (ms * 1e6).round() as i64;
    let mut next: Vec<Option<i64>> = vec![None; rows.iter().max().map_or(0, |m| m + 1)];
    let mut out = vec![(0.0, 0.0); spans.len()];
    for (i, (s, &row)) in spans.iter().zip(rows).enumerate().rev() {
        let (start, mut end) = (ns(s.start_ms), ns(s.end_ms));
        if let Some(after) = next[row] {
            end = end.min(after - 1).max(start);
        }
        next[row] = Some(start);
        out[i] = (start as f64 / 1000.0, (end - start) as f64 / 1000.0);
    }
    out
}

fn meta<'a>(what: &'static str, tid: u32, name: Option<&'a str>, sort: Option<usize>) -> Event<'a> {
    Event {
        name: what,
        cat: "",
        ph: "M",
        ts: None,
        dur: None,
        pid: 1,
        tid,
        id: None,
        bp: None,
        s: None,
        args: Some(Args {
            name,
            sort_index: sort,
            scripts: None,
        }),
    }
}

/// `trace` as a Trace Event Format file, its names in `catalog`'s
/// language, its process named `source` ("waitlab, Chromium 148", say).
pub fn write(trace: &Trace, catalog: &Catalog, source: &str) -> String {
    // Track (tid) of each lane's first row; a lane's row r is first + r.
    let rows: Vec<Vec<usize>> = trace
        .lanes
        .iter()
        .map(|l| l.rows_within(usize::MAX))
        .collect();
    let mut first = Vec::with_capacity(rows.len());
    let mut next = 1u32;
    for r in &rows {
        first.push(next);
        next += r.iter().max().map_or(1, |m| *m as u32 + 1);
    }
    let lane_names: Vec<String> = trace.lanes.iter().map(|l| l.name(catalog)).collect();
    let mut track_names: Vec<(u32, String)> = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        let n = r.iter().max().map_or(1, |m| m + 1);
        for row in 0..n {
            let label = if row == 0 {
                lane_names[i].clone()
            } else {
                format!("{} · {}", lane_names[i], row + 1)
            };
            track_names.push((first[i] + row as u32, label));
        }
    }
    let mut names: std::collections::HashMap<super::Name, String> =
        std::collections::HashMap::new();
    for lane in &trace.lanes {
        for s in &lane.spans {
            names
                .entry(s.name)
                .or_insert_with(|| s.name.render(catalog));
        }
    }
    for f in &trace.flows {
        names
            .entry(f.name)
            .or_insert_with(|| f.name.render(catalog));
    }
    let frame = catalog.text(Kind::Frame.label().key);

    let mut events = vec![meta("process_name", 0, Some(source), None)];
    for (i, (tid, name)) in track_names.iter().enumerate() {
        events.push(meta("thread_name", *tid, Some(name), None));
        events.push(meta("thread_sort_index", *tid, None, Some(i)));
    }
    for (l, lane) in trace.lanes.iter().enumerate() {
        let placed = placed(&lane.spans, &rows[l]);
        for ((s, row), (ts, dur)) in lane.spans.iter().zip(&rows[l]).zip(placed) {
            events.push(Event {
                name: &names[&s.name],
                cat: s.kind.id(),
                ph: "X",
                ts: Some(ts),
                dur: Some(dur),
                pid: 1,
                tid: first[l] + *row as u32,
                id: None,
                bp: None,
                s: None,
                // Only a long frame's scripts (importers that fold
                // arguments into names, as speedscope does, name each
                // such frame apart).
                args: trace.note(s).map(|scripts| Args {
                    name: None,
                    sort_index: None,
                    scripts: Some(scripts),
                }),
            });
        }
        for &t in &lane.frames {
            events.push(Event {
                name: &frame,
                cat: Kind::Frame.id(),
                ph: "i",
                ts: Some(us(t)),
                dur: None,
                pid: 1,
                tid: first[l],
                id: None,
                bp: None,
                s: Some("t"),
                args: None,
            });
        }
    }
    for (id, f) in trace.flows.iter().enumerate() {
        for (ph, tid, t, bp) in [
            ("s", first[f.from], f.sent_ms, None),
            ("f", first[f.to], f.seen_ms, Some("e")),
        ] {
            events.push(Event {
                name: &names[&f.name],
                cat: Kind::Flow.id(),
                ph,
                ts: Some(us(t)),
                dur: None,
                pid: 1,
                tid,
                id: Some(id + 1),
                bp,
                s: None,
                args: None,
            });
        }
    }
    let file = File {
        trace_events: events,
        display_time_unit: "ms",
        other_data: Other {
            source,
            began_epoch_ms: trace.began_epoch_ms,
            dropped_records: trace.dropped,
        },
    };
    serde_json::to_string(&file).unwrap_or_default()
}
