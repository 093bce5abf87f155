//! Recording a run's timeline: this thread's recorder, and (in the page)
//! the run's trace that the workers' records join.
//!
//! The recorder is made once per thread with room for
//! [`waitlab_core::trace::CAPACITY`] records; recording writes five
//! numbers into it and never allocates, formats or posts: the probes
//! record right after a sample's second stamp, outside the measured wait.
//! A worker sends what it recorded ([`take`]) after a job, before its last
//! reply; the page adds it to the run's trace ([`add_worker`]).

use crate::clock::{now, time_origin};
use std::cell::RefCell;
use std::sync::Arc;
use waitlab_core::trace::{CAPACITY, DROPPED, Kind, NO_ARG, Name, RECORD, Thread, Trace};

/// This thread's records, epoch ms.
struct Recorder {
    records: Vec<f64>,
    /// Records not kept for want of room.
    dropped: u64,
}

/// The page's run: its trace so far and its workers' count.
struct Run {
    trace: Trace,
    workers: u32,
}

thread_local! {
    static RECORDER: RefCell<Recorder> = const {
        RefCell::new(Recorder { records: Vec::new(), dropped: 0 })
    };
    static RUN: RefCell<Option<Run>> = const { RefCell::new(None) };
}

/// Makes this thread's room for records, if it has none yet (before a
/// job that records: a worker that only runs pool jobs needs none).
pub fn ready() {
    RECORDER.with(|r| r.borrow_mut().records.reserve_exact(CAPACITY * RECORD));
}

/// Starts this thread's recording afresh, its room made.
pub fn begin() {
    RECORDER.with(|r| {
        let mut r = r.borrow_mut();
        r.records.clear();
        r.dropped = 0;
    });
    ready();
}

fn push(record: [f64; RECORD]) {
    RECORDER.with(|r| {
        let mut r = r.borrow_mut();
        if r.records.len() + RECORD <= r.records.capacity() {
            r.records.extend_from_slice(&record);
        } else {
            r.dropped += 1;
        }
    });
}

fn name_numbers(name: Name) -> (f64, f64) {
    (f64::from(name.key.hash()), f64::from(name.arg))
}

/// A span of this thread from `start` to `end`, `performance.now()` ms.
pub fn span(kind: Kind, name: Name, start: f64, end: f64) {
    let origin = time_origin();
    span_epoch(kind, name, origin + start, origin + end);
}

/// A span of this thread, epoch ms (`timeOrigin + now()`).
pub fn span_epoch(kind: Kind, name: Name, start: f64, end: f64) {
    let (key, arg) = name_numbers(name);
    push([kind.code(), key, arg, start, end]);
}

/// A flow to this thread from its peer: sent at `sent` (the peer's epoch
/// ms), noticed here at `seen` (this thread's).
pub fn flow(name: Name, sent: f64, seen: f64) {
    let (key, arg) = name_numbers(name);
    push([Kind::Flow.code(), key, arg, sent, seen]);
}

/// An animation frame that began at `at`, `performance.now()` ms.
pub fn frame(at: f64) {
    let at = time_origin() + at;
    push([Kind::Frame.code(), 0.0, f64::from(NO_ARG), at, at]);
}

/// What this thread recorded since its last `take`, ending with a
/// [`DROPPED`] record if some were not kept (then none are).
pub fn take() -> Vec<f64> {
    RECORDER.with(|r| {
        let mut r = r.borrow_mut();
        let mut out = r.records.clone();
        r.records.clear();
        if r.dropped > 0 {
            out.extend_from_slice(&[DROPPED, 0.0, r.dropped as f64, 0.0, 0.0]);
            r.dropped = 0;
        }
        out
    })
}

/// The page begins a run: a new trace, beginning now, and the main
/// thread's recording afresh.
pub fn begin_run() {
    begin();
    let mut trace = Trace::new(time_origin() + now());
    // The main thread's lane comes first, even when it only waits.
    trace.lane(Thread::Main);
    RUN.with(|r| *r.borrow_mut() = Some(Run { trace, workers: 0 }));
}

/// The thread of the run's next worker (`Worker(1)` for its first).
pub fn next_worker() -> Thread {
    RUN.with(|r| {
        let mut r = r.borrow_mut();
        match r.as_mut() {
            Some(run) => {
                run.workers += 1;
                let thread = Thread::Worker(run.workers);
                // Lanes in the order the workers started.
                run.trace.lane(thread);
                thread
            }
            None => Thread::Worker(0),
        }
    })
}

/// Adds a worker's records to the run's trace (see
/// [`Trace::add_shifted`]).
pub fn add_worker(thread: Thread, peer: Option<Thread>, records: &[f64], shift_ms: f64) {
    RUN.with(|r| {
        if let Some(run) = r.borrow_mut().as_mut() {
            run.trace.add_shifted(thread, peer, records, shift_ms);
        }
    });
}

/// Adds spans the page knows of another thread (a pool's jobs, from the
/// stamps their workers reported), epoch ms.
pub fn add_spans(thread: Thread, spans: impl IntoIterator<Item = (Kind, Name, f64, f64)>) {
    let records: Vec<f64> = spans
        .into_iter()
        .flat_map(|(kind, name, start, end)| {
            let (key, arg) = name_numbers(name);
            [kind.code(), key, arg, start, end]
        })
        .collect();
    add_worker(thread, None, &records, 0.0);
}

/// The run's trace, with the main thread's records; none if no run began.
pub fn finish_run() -> Option<Arc<Trace>> {
    let main = take();
    let mut run = RUN.with(|r| r.borrow_mut().take())?;
    run.trace.add(Thread::Main, None, &main);
    run.trace.settle();
    Some(Arc::new(run.trace))
}
