//! Traces: records read and refused, rows, the file's events, drawing's
//! decimation and windows.

use super::draw::{self, Layout, Window};
use super::*;
use crate::lang::Lang;

const BEGAN: f64 = 1_700_000_000_000.0;

fn record(kind: Kind, key: u32, arg: u32, start: f64, end: f64) -> [f64; RECORD] {
    [
        kind.code(),
        f64::from(key),
        f64::from(arg),
        BEGAN + start,
        BEGAN + end,
    ]
}

fn flat(records: &[[f64; RECORD]]) -> Vec<f64> {
    records.iter().flatten().copied().collect()
}

fn sample() -> Trace {
    let mut t = Trace::new(BEGAN);
    t.add(
        Thread::Main,
        None,
        &flat(&[
            record(Kind::Free, 7, 10, 0.0, 10.2),
            record(Kind::Holding, 8, 10, 11.0, 21.0),
            record(Kind::Frame, 0, NO_ARG, 0.0, 0.0),
            record(Kind::Frame, 0, NO_ARG, 16.7, 16.7),
        ]),
    );
    t.add(
        Thread::Worker(1),
        Some(Thread::Main),
        &flat(&[
            record(Kind::Busy, 9, NO_ARG, 2.0, 6.0),
            record(Kind::Busy, 9, NO_ARG, 3.0, 5.0),
            record(Kind::Flow, 10, NO_ARG, 4.0, 4.05),
            // Quicker than the clocks resolve: kept, as none.
            record(Kind::Flow, 10, NO_ARG, 5.0, 4.999),
        ]),
    );
    t.settle();
    t
}

#[test]
fn records_become_lanes_flows_and_frames() {
    let t = sample();
    assert_eq!(t.lanes.len(), 2);
    assert_eq!(t.lanes[0].thread, Thread::Main);
    assert_eq!(t.lanes[0].spans.len(), 2);
    // Epoch stamps near 1.7e12 ms keep a quarter of a µs.
    let close = |a: f64, b: f64| (a - b).abs() < 1e-3;
    assert!(close(t.lanes[0].frames[1], 16.7));
    assert_eq!(t.lanes[1].spans.len(), 2);
    assert_eq!(t.flows.len(), 2);
    assert_eq!(t.flows[1].seen_ms, t.flows[1].sent_ms);
    let f = t.flows[0];
    assert_eq!((f.from, f.to), (0, 1));
    assert!(close(f.seen_ms - f.sent_ms, 0.05));
    assert_eq!(t.span_count(), 4);
    assert_eq!(t.dropped, 0);
    assert_eq!(t.extent(), (0.0, 21.0));
}

#[test]
fn malformed_records_are_counted_not_kept() {
    let mut t = Trace::new(BEGAN);
    let mut records = flat(&[
        [99.0, 1.0, 1.0, BEGAN, BEGAN + 1.0],
        [0.5, 1.0, 1.0, BEGAN, BEGAN + 1.0],
        [0.0, -1.0, 1.0, BEGAN, BEGAN + 1.0],
        [0.0, 1.0, 1.0, f64::NAN, BEGAN + 1.0],
        [0.0, 1.0, 1.0, BEGAN + 2.0, BEGAN + 1.0],
        record(Kind::Busy, 1, NO_ARG, 0.0, 1.0),
    ]);
    records.push(3.0);
    t.add(Thread::Worker(2), None, &records);
    assert_eq!(t.dropped, 6);
    assert_eq!(t.span_count(), 1);
}

#[test]
fn overlapping_spans_take_rows_of_their_own() {
    let t = sample();
    assert_eq!(t.lanes[0].rows(), [0, 0]);
    assert_eq!(t.lanes[1].rows(), [0, 1]);
    let mut many = Trace::new(BEGAN);
    let all: Vec<_> = (0..40)
        .map(|i| record(Kind::Queued, 1, NO_ARG, f64::from(i), 100.0))
        .collect();
    many.add(Thread::Queue, None, &flat(&all));
    many.settle();
    let rows = many.lanes[0].rows();
    assert_eq!(rows.iter().max(), Some(&(MAX_ROWS - 1)));
    assert_eq!(rows[..MAX_ROWS], (0..MAX_ROWS).collect::<Vec<_>>()[..]);
    assert_eq!(many.lanes[0].rows_within(usize::MAX)[39], 39);
}

#[test]
fn the_file_names_every_track_and_keeps_every_span() {
    let t = sample();
    let json = events::write(&t, &Catalog::new(Lang::En), "waitlab test");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let events = v["traceEvents"].as_array().unwrap();
    let of = |ph: &str| events.iter().filter(|e| e["ph"] == ph).collect::<Vec<_>>();
    let threads: Vec<_> = of("M")
        .into_iter()
        .filter(|e| e["name"] == "thread_name")
        .map(|e| e["tid"].as_u64().unwrap())
        .collect();
    // The main thread, the worker and the worker's second row.
    assert_eq!(threads, [1, 2, 3]);
    let spans = of("X");
    assert_eq!(spans.len(), t.span_count());
    assert_eq!(spans[0]["ts"], 0.0);
    assert!((spans[0]["dur"].as_f64().unwrap() - 10200.0).abs() < 1.0);
    assert_eq!(spans[0]["cat"], "free");
    // The worker's two overlapping spans are on two tracks.
    let worker: Vec<_> = spans
        .iter()
        .filter(|e| e["cat"] == "busy")
        .map(|e| e["tid"].as_u64().unwrap())
        .collect();
    assert_eq!(worker, [2, 3]);
    let (s, f) = (of("s"), of("f"));
    assert_eq!((s.len(), f.len()), (2, 2));
    assert_eq!(
        (s[0]["tid"].as_u64(), f[0]["tid"].as_u64()),
        (Some(1), Some(2))
    );
    assert_eq!(s[0]["id"], f[0]["id"]);
    assert_eq!(f[0]["bp"], "e");
    assert_eq!(of("i").len(), 2);
    assert_eq!(v["otherData"]["began_epoch_ms"], BEGAN);
}

#[test]
fn spans_that_touch_do_not_nest_in_the_file() {
    let mut t = Trace::new(BEGAN);
    t.add(
        Thread::Main,
        None,
        &flat(&[
            record(Kind::Free, 1, NO_ARG, 0.1, 0.2),
            record(Kind::Busy, 2, NO_ARG, 0.2, 0.3),
        ]),
    );
    t.settle();
    let json = events::write(&t, &Catalog::new(Lang::En), "x");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let x: Vec<(f64, f64)> = v["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["ph"] == "X")
        .map(|e| (e["ts"].as_f64().unwrap(), e["dur"].as_f64().unwrap()))
        .collect();
    assert_eq!(x.len(), 2);
    assert!(x[0].0 + x[0].1 < x[1].0, "{x:?}");
    assert!(x[1].0 - (x[0].0 + x[0].1) <= 0.0011, "{x:?}");
}

#[test]
fn a_hundred_thousand_spans_draw_as_a_few_bars_per_pixel() {
    let mut t = Trace::new(BEGAN);
    let all: Vec<_> = (0..100_000)
        .map(|i| {
            let s = f64::from(i) * 0.01;
            record(
                if i % 2 == 0 {
                    Kind::Free
                } else {
                    Kind::Holding
                },
                1,
                1,
                s,
                s + 0.004,
            )
        })
        .collect();
    t.add(Thread::Main, None, &flat(&all));
    t.settle();
    let layout = Layout::of(&t, 800.0);
    let whole = Window::whole(&t);
    let (_, marks) = draw::draw(&t, &layout, whole, &Catalog::new(Lang::En));
    // Two kinds alternate at 1,000 per pixel: bars stay per pixel, not per span.
    assert!(marks <= 2 * 800, "{marks} marks");
    // Zoomed in to 1 ms, each span is its own bar.
    let narrow = Window {
        start_ms: 500.0,
        end_ms: 501.0,
    };
    let (_, marks) = draw::draw(&t, &layout, narrow, &Catalog::new(Lang::En));
    assert!((99..=102).contains(&marks), "{marks} marks");
}

#[test]
fn windows_zoom_about_a_point_and_stay_within_the_trace() {
    let bounds = Window {
        start_ms: 0.0,
        end_ms: 100.0,
    };
    let w = bounds.zoom(0.5, 0.5, bounds);
    assert_eq!((w.start_ms, w.end_ms), (25.0, 75.0));
    let w = w.pan(-1.0, bounds);
    assert_eq!((w.start_ms, w.end_ms), (0.0, 50.0));
    let w = w.zoom(1e-9, 0.0, bounds);
    assert_eq!((w.start_ms, w.span_ms()), (0.0, draw::MIN_WINDOW_MS));
    let w = w.zoom(1e9, 1.0, bounds);
    assert_eq!(w, bounds);
}

#[test]
fn the_span_under_the_pointer_is_found() {
    let t = sample();
    let layout = Layout::of(&t, 800.0);
    let window = Window {
        start_ms: 0.0,
        end_ms: 21.0,
    };
    let (top, _) = layout.lanes[0];
    let x = layout.label + layout.plot_width() * 15.0 / 21.0;
    let (lane, span) = layout.hit(&t, window, x, top + 2.0).unwrap();
    assert_eq!((lane, span.kind), (0, Kind::Holding));
    assert!(layout.hit(&t, window, x, 1.0).is_none());
}

#[test]
fn missed_frames_are_the_long_gaps() {
    let frames = [0.0, 16.7, 33.3, 50.0, 150.0, 166.7, 183.3];
    assert_eq!(draw::frame_gaps(&frames), [(50.0, 150.0)]);
    assert!(draw::frame_gaps(&[1.0]).is_empty());
}

#[test]
fn long_frames_of_the_run_join_the_main_lane_with_their_scripts() {
    let mut t = sample();
    t.add_long_frames([
        (
            BEGAN + 2.0,
            BEGAN + 60.0,
            "TimerHandler:setTimeout app.js 55 ms".to_owned(),
        ),
        // Before the run began: not the run's.
        (BEGAN - 500.0, BEGAN - 400.0, String::new()),
    ]);
    assert_eq!(t.long_frames, LongFrames::Observed);
    let long: Vec<&Span> = t.lanes[0]
        .spans
        .iter()
        .filter(|s| s.kind == Kind::LongTask)
        .collect();
    assert_eq!(long.len(), 1);
    assert_eq!(
        t.note(long[0]),
        Some("TimerHandler:setTimeout app.js 55 ms")
    );
    let said = draw::describe(&t, &t.lanes[0], long[0], &Catalog::new(Lang::En));
    assert!(
        said.ends_with("(TimerHandler:setTimeout app.js 55 ms)"),
        "{said}"
    );
    // They draw in rows after the thread's own spans.
    let rows = t.lanes[0].rows();
    let at = t.lanes[0]
        .spans
        .iter()
        .position(|s| s.kind == Kind::LongTask)
        .unwrap();
    assert_eq!(rows[at], 1);
}

#[test]
fn labelled_lanes_are_native_threads_named_by_their_role() {
    let mut t = Trace::new(BEGAN);
    let (a, b) = (
        t.labelled("wake latency: setter"),
        t.labelled("wake latency: waiter"),
    );
    assert_eq!(t.labelled("wake latency: setter"), a);
    assert_eq!(
        (t.lanes[a].thread, t.lanes[b].thread),
        (Thread::Native(1), Thread::Native(2))
    );
    assert_eq!(
        t.lanes[b].name(&Catalog::new(Lang::En)),
        "wake latency: waiter"
    );
}
