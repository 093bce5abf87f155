//! `--trace FILE`: the native run's timeline, in the Trace Event Format the
//! page writes (`waitlab_core::trace::events`), so a native run and a
//! browser run open side by side in Perfetto UI or speedscope.
//!
//! Nothing is recorded while a probe times: each experiment puts its
//! spans and flows on the timeline once a cell is measured, from the
//! stamps it keeps anyway (or, where it kept only durations, the start
//! of each sample in a buffer made before the first). One lane per thread
//! an experiment runs, named after its role ("wake latency: waiter"); the
//! experiments run one after another, so their lanes follow in time.

use std::sync::Mutex;
use std::time::{Instant, SystemTime, UNIX_EPOCH};
use waitlab_core::trace::{Flow, Kind, Name, Span, Trace};

/// The run's trace and the instant its times count from.
struct Recording {
    trace: Trace,
    zero: Instant,
}

static RECORDING: Mutex<Option<Recording>> = Mutex::new(None);

fn with(f: impl FnOnce(&mut Recording)) {
    if let Some(r) = RECORDING.lock().unwrap_or_else(|p| p.into_inner()).as_mut() {
        f(r);
    }
}

/// Starts recording (`--trace`): until then nothing is kept.
pub fn begin() {
    let epoch_ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0);
    *RECORDING.lock().unwrap_or_else(|p| p.into_inner()) = Some(Recording {
        trace: Trace::new(epoch_ms),
        zero: Instant::now(),
    });
}

/// Whether a trace is being recorded (experiments keep extra stamps only
/// then).
pub fn on() -> bool {
    RECORDING
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .is_some()
}

fn ms(zero: Instant, t: Instant) -> f64 {
    t.saturating_duration_since(zero).as_secs_f64() * 1000.0
}

/// Spans of the thread `lane` names, each from and to an instant.
pub fn spans(lane: &str, spans: impl IntoIterator<Item = (Kind, Name, Instant, Instant)>) {
    with(|r| {
        let l = r.trace.labelled(lane);
        for (kind, name, from, to) in spans {
            let span = Span {
                kind,
                name,
                start_ms: ms(r.zero, from),
                end_ms: ms(r.zero, to).max(ms(r.zero, from)),
            };
            r.trace.push_span(l, span);
        }
    });
}

/// Spans of `lane` given in ms since `start`.
pub fn spans_since(
    lane: &str,
    start: Instant,
    spans: impl IntoIterator<Item = (Kind, Name, f64, f64)>,
) {
    let at = |ms: f64| start + std::time::Duration::from_secs_f64(ms.max(0.0) / 1000.0);
    self::spans(
        lane,
        spans
            .into_iter()
            .map(|(kind, name, from, to)| (kind, name, at(from), at(to))),
    );
}

/// Flows from the thread `from` names to `to`'s: each sent and noticed.
pub fn flows(
    from: &str,
    to: &str,
    name: Name,
    pairs: impl IntoIterator<Item = (Instant, Instant)>,
) {
    with(|r| {
        let (a, b) = (r.trace.labelled(from), r.trace.labelled(to));
        for (sent, seen) in pairs {
            let (sent_ms, seen_ms) = (ms(r.zero, sent), ms(r.zero, seen));
            r.trace.flows.push(Flow {
                from: a,
                to: b,
                name,
                sent_ms,
                seen_ms: seen_ms.max(sent_ms),
            });
        }
    });
}

/// Runs a pair's rounds (experiments 4 and 6) on two threads: `waiter`,
/// and `setter` (given the waiter's thread, which it may unpark), each
/// giving the instant of every round's notice or signal; puts them on the
/// timeline (`lanes`: the setter's, the waiter's; [`rounds`]) and gives
/// each round's signal → notice time, ms.
pub fn pair_rounds<W, S>(
    lanes: (&str, &str),
    way: (Kind, Name),
    delays_us: &[u32],
    waiter: W,
    setter: S,
) -> Vec<f64>
where
    W: FnOnce() -> Vec<Instant> + Send,
    S: FnOnce(std::thread::Thread) -> Vec<Instant> + Send,
{
    std::thread::scope(|s| {
        let waiter = s.spawn(waiter);
        let thread = waiter.thread().clone();
        let setter = s.spawn(move || setter(thread));
        let seen = waiter.join().expect("the waiter does not panic");
        let set = setter.join().expect("the setter does not panic");
        rounds(lanes, way, delays_us, &set, &seen);
        crate::ms_between(&set, &seen)
    })
}

/// A pair's rounds (experiments 4 and 6), once they are over: the thread
/// `setter` names busy for each round's delay (µs) until it signalled at
/// `set`, the `waiter` waiting by `way` from the barrier they both left
/// (the delay's start) until it noticed at `seen`, and each signal.
pub fn rounds(
    (setter, waiter): (&str, &str),
    (kind, name): (Kind, Name),
    delays_us: &[u32],
    set: &[Instant],
    seen: &[Instant],
) {
    let delay = Name::of(waitlab_core::key!("timeline.name.delay"));
    let began: Vec<Instant> = set
        .iter()
        .zip(delays_us)
        .map(|(&t, &us)| t - std::time::Duration::from_micros(u64::from(us)))
        .collect();
    spans(
        setter,
        began
            .iter()
            .zip(set)
            .map(|(&b, &t)| (Kind::Busy, delay, b, t)),
    );
    spans(
        waiter,
        began.iter().zip(seen).map(|(&b, &t)| (kind, name, b, t)),
    );
    flows(
        setter,
        waiter,
        name,
        set.iter().copied().zip(seen.iter().copied()),
    );
}

/// Frames of `lane`, ms since `start`.
pub fn frames(lane: &str, start: Instant, frames_ms: &[f64]) {
    with(|r| {
        let l = r.trace.labelled(lane);
        let offset = ms(r.zero, start);
        r.trace.lanes[l]
            .frames
            .extend(frames_ms.iter().map(|f| f + offset));
    });
}

/// The trace recorded, in time order, if one was.
pub fn finish() -> Option<Trace> {
    let mut trace = RECORDING
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .take()?
        .trace;
    trace.settle();
    Some(trace)
}
