//! A run's timeline: what each thread did and when, as the probes recorded
//! it, for the page's timeline view and the Trace Event Format file
//! (`events`) that Perfetto UI, chrome://tracing and speedscope open.
//!
//! Each thread records into memory made before the run: flat `f64`
//! records of [`RECORD`] numbers (`[kind, name's key, name's argument,
//! start, end]`, times in epoch ms, `timeOrigin + now()`), which the
//! browser glue and the native probe fill and a worker sends after a job.
//! [`Trace::add`] reads one thread's records (untrusted: a worker's bytes)
//! into a lane; times become ms since the run began. A flow is recorded
//! by the thread that received it, from the lane of its peer.
//!
//! A trace is a run's alone: reports keep it beside their results
//! (`Report::trace`), never in their JSON or links.

pub mod draw;
pub mod events;
#[cfg(test)]
mod tests;

use crate::text::{Catalog, Key, Phrase};

/// Numbers per record: kind, the name's key and argument, start, end.
pub const RECORD: usize = 5;

/// The kind code of a record that says how many records its thread
/// could not keep (in its argument's place).
pub const DROPPED: f64 = 255.0;

/// A name's argument when it has none.
pub const NO_ARG: u32 = u32::MAX;

/// Records one thread keeps at most in a run (five `f64`s each: 5.2 MB,
/// made once per thread that records); the rest are counted, not kept
/// ([`Trace::dropped`]).
pub const CAPACITY: usize = 131_072;

/// Rows a lane draws its overlapping spans in at most; later overlaps
/// share the last row.
pub const MAX_ROWS: usize = 16;

/// What a span or mark is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Waiting while holding the thread (`Atomics.wait`, a busy-wait, a
    /// blocked main thread): nothing else runs on it.
    Holding,
    /// Waiting without holding it (a timer, an `await`): it runs other work.
    Free,
    /// Working (a job's or tick's work, spinning on purpose).
    Busy,
    /// A job waiting for a thread to take it.
    Queued,
    /// A message or signal from one thread to another: its end is when the
    /// receiver noticed it.
    Flow,
    /// An animation frame the page drew (an instant, at the frame's start).
    Frame,
    /// A long animation frame the browser reported (its start and end).
    LongTask,
}

impl Kind {
    /// Every kind, in record-code order.
    pub const ALL: [Kind; 7] = [
        Kind::Holding,
        Kind::Free,
        Kind::Busy,
        Kind::Queued,
        Kind::Flow,
        Kind::Frame,
        Kind::LongTask,
    ];

    /// Its place in [`Kind::ALL`].
    pub fn index(self) -> usize {
        Kind::ALL.iter().position(|&k| k == self).unwrap_or(0)
    }

    /// Its code in a record (its index).
    pub fn code(self) -> f64 {
        self.index() as f64
    }

    /// The kind of a record's code, if it is one.
    fn from_code(code: f64) -> Option<Kind> {
        (code >= 0.0 && code.fract() == 0.0)
            .then(|| Kind::ALL.get(code as usize).copied())
            .flatten()
    }

    /// Stable identifier: CSS class suffix and the file's category.
    pub fn id(self) -> &'static str {
        match self {
            Kind::Holding => "holding",
            Kind::Free => "free",
            Kind::Busy => "busy",
            Kind::Queued => "queued",
            Kind::Flow => "flow",
            Kind::Frame => "frame",
            Kind::LongTask => "long_task",
        }
    }

    /// What it is, in the catalogs.
    pub fn label(self) -> Phrase {
        Phrase::new(Key::of(&format!("timeline.kind.{}", self.id())))
    }

    /// A wait that holds its thread, or one that does not.
    pub fn waiting(holds_thread: bool) -> Kind {
        if holds_thread {
            Kind::Holding
        } else {
            Kind::Free
        }
    }

    /// Whether it is drawn as a span of a lane (not a flow or an instant).
    pub fn is_span(self) -> bool {
        !matches!(self, Kind::Flow | Kind::Frame)
    }
}

/// A span's name: a catalog key (a way of waiting's label, or a
/// `timeline.name.*` entry) and a requested time in ms, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Name {
    /// What it is.
    pub key: Key,
    /// Requested ms, or [`NO_ARG`].
    pub arg: u32,
}

impl Name {
    /// `key` with no argument.
    pub fn of(key: Key) -> Name {
        Name { key, arg: NO_ARG }
    }

    /// `key` asked for `ms`.
    pub fn ms(key: Key, ms: u32) -> Name {
        Name { key, arg: ms }
    }

    /// It in `catalog`'s language: the label, its `{d}` the requested
    /// time ("Atomics.wait(10) in a worker").
    pub fn render(&self, catalog: &Catalog) -> String {
        let phrase = Phrase::new(self.key);
        catalog.render(&if self.arg == NO_ARG {
            phrase.code("d", "d")
        } else {
            phrase.digits("d", self.arg)
        })
    }
}

/// One thing a thread did, in ms since the run began.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Span {
    /// What kind.
    pub kind: Kind,
    /// Its name.
    pub name: Name,
    /// When it began.
    pub start_ms: f64,
    /// When it ended (≥ start).
    pub end_ms: f64,
}

impl Span {
    /// How long it lasted, ms.
    pub fn duration_ms(&self) -> f64 {
        self.end_ms - self.start_ms
    }
}

/// A message or signal from one lane to another.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Flow {
    /// The sender's lane.
    pub from: usize,
    /// The receiver's lane.
    pub to: usize,
    /// Its name (how it travelled).
    pub name: Name,
    /// When it was sent, ms since the run began.
    pub sent_ms: f64,
    /// When the receiver noticed it.
    pub seen_ms: f64,
}

/// Which thread a lane is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Thread {
    /// The page's main thread.
    Main,
    /// The run's worker `n` (from 1), in the order it started.
    Worker(u32),
    /// The jobs a pool has not started yet (their queue).
    Queue,
    /// A native OS thread `n` (from 1), or the runtime's.
    Native(u32),
}

impl Thread {
    /// Its name, in `catalog`'s language.
    pub fn render(self, catalog: &Catalog) -> String {
        let phrase = match self {
            Thread::Main => Phrase::new(crate::key!("timeline.thread.main")),
            Thread::Worker(n) => Phrase::new(crate::key!("timeline.thread.worker")).digits("n", n),
            Thread::Queue => Phrase::new(crate::key!("timeline.thread.queue")),
            Thread::Native(n) => Phrase::new(crate::key!("timeline.thread.native")).digits("n", n),
        };
        catalog.render(&phrase)
    }
}

/// One thread's spans and frames.
#[derive(Debug, Clone, PartialEq)]
pub struct Lane {
    /// Which thread.
    pub thread: Thread,
    /// Its name when the thread's own will not do (the native probe's,
    /// which says whose it is: "wake latency: setter").
    pub label: Option<String>,
    /// Its spans, by start.
    pub spans: Vec<Span>,
    /// Its animation frames' starts, ms since the run began, in order.
    pub frames: Vec<f64>,
}

impl Lane {
    /// Its name, in `catalog`'s language (its label, if it has one).
    pub fn name(&self, catalog: &Catalog) -> String {
        self.label
            .clone()
            .unwrap_or_else(|| self.thread.render(catalog))
    }

    /// The row of each span (in order) as drawn: the first row free at
    /// its start, so spans that overlap sit in rows of their own, at most
    /// [`MAX_ROWS`] a group (the rest share its last). The thread's own
    /// waits and work come first, then the jobs queued for it, then the
    /// browser's long animation frames, each group in rows of its own.
    pub fn rows(&self) -> Vec<usize> {
        self.rows_within(MAX_ROWS)
    }

    /// As [`Lane::rows`], with at most `most` rows a group (at least one).
    pub fn rows_within(&self, most: usize) -> Vec<usize> {
        let most = most.max(1);
        let group = |k: Kind| match k {
            Kind::Queued => 1,
            Kind::LongTask => 2,
            _ => 0,
        };
        let mut rows = vec![0; self.spans.len()];
        let mut offset = 0;
        for g in 0..3 {
            let mut ends: Vec<f64> = Vec::new();
            for (i, s) in self
                .spans
                .iter()
                .enumerate()
                .filter(|(_, s)| group(s.kind) == g)
            {
                let row = match ends.iter().position(|&e| e <= s.start_ms) {
                    Some(r) => r,
                    None if ends.len() < most => {
                        ends.push(f64::NEG_INFINITY);
                        ends.len() - 1
                    }
                    None => most - 1,
                };
                ends[row] = ends[row].max(s.end_ms);
                rows[i] = offset + row;
            }
            offset += ends.len();
        }
        rows
    }
}

/// Whether the browser reported long animation frames during the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LongFrames {
    /// It can (Long Animation Frames API); any it saw are the lanes'
    /// [`Kind::LongTask`] spans.
    Observed,
    /// It cannot, so none are shown.
    #[default]
    NotReported,
}

/// A run's timeline.
#[derive(Debug, Clone, PartialEq)]
pub struct Trace {
    /// When the run began, epoch ms (`timeOrigin + now()`).
    pub began_epoch_ms: f64,
    /// One lane per thread, in the order they were added.
    pub lanes: Vec<Lane>,
    /// Flows between lanes, by send time.
    pub flows: Vec<Flow>,
    /// Records a thread could not keep ([`CAPACITY`]) or that were not
    /// records (a malformed worker message).
    pub dropped: u64,
    /// Whether long animation frames were observed.
    pub long_frames: LongFrames,
    /// What ran in each long animation frame (the browser's script
    /// attribution), by the index its span's name carries.
    pub notes: Vec<String>,
}

impl Trace {
    /// An empty trace of a run that began at `began_epoch_ms`.
    pub fn new(began_epoch_ms: f64) -> Trace {
        Trace {
            began_epoch_ms,
            lanes: Vec::new(),
            flows: Vec::new(),
            dropped: 0,
            long_frames: LongFrames::default(),
            notes: Vec::new(),
        }
    }

    /// The lane of `thread`, made if it has none yet.
    pub fn lane(&mut self, thread: Thread) -> usize {
        match self.lanes.iter().position(|l| l.thread == thread) {
            Some(i) => i,
            None => {
                self.lanes.push(Lane {
                    thread,
                    label: None,
                    spans: Vec::new(),
                    frames: Vec::new(),
                });
                self.lanes.len() - 1
            }
        }
    }

    /// Reads `records` (flat, [`RECORD`] numbers each, epoch ms) of
    /// `thread`, whose flows came from `peer`'s lane (or its own, if none);
    /// records that are not ones are counted as dropped, and a
    /// [`DROPPED`] record adds its count.
    pub fn add(&mut self, thread: Thread, peer: Option<Thread>, records: &[f64]) {
        self.add_shifted(thread, peer, records, 0.0);
    }

    /// As [`Trace::add`], `thread`'s clock being `shift_ms` behind the
    /// page's (its measured skew): its own times move by it, its flows'
    /// send times (its peer's clock) do not.
    pub fn add_shifted(
        &mut self,
        thread: Thread,
        peer: Option<Thread>,
        records: &[f64],
        shift_ms: f64,
    ) {
        let lane = self.lane(thread);
        let from = peer.map_or(lane, |p| self.lane(p));
        let chunks = records.chunks_exact(RECORD);
        self.dropped += (!chunks.remainder().is_empty()) as u64;
        for r in chunks {
            if r[0] == DROPPED {
                self.dropped += r[2].clamp(0.0, 1e12) as u64;
                continue;
            }
            let (kind, start, end) = (Kind::from_code(r[0]), r[3], r[4]);
            let key = (r[1] >= 0.0 && r[1] <= f64::from(u32::MAX)).then_some(r[1] as u32);
            let arg = (r[2] >= 0.0 && r[2] <= f64::from(u32::MAX)).then_some(r[2] as u32);
            let (Some(kind), Some(key), Some(arg)) = (kind, key, arg) else {
                self.dropped += 1;
                continue;
            };
            // A flow's ends are two threads' clocks: one quicker than the
            // clocks resolve may seem to end first (it is drawn as none).
            let backwards = end < start && kind != Kind::Flow;
            if !start.is_finite() || !end.is_finite() || backwards || !shift_ms.is_finite() {
                self.dropped += 1;
                continue;
            }
            let name = Name {
                key: Key::from_hash(key),
                arg,
            };
            let began = self.began_epoch_ms;
            let (start_ms, end_ms) = (start - began + shift_ms, end - began + shift_ms);
            match kind {
                Kind::Flow => self.flows.push(Flow {
                    from,
                    to: lane,
                    name,
                    sent_ms: start - began,
                    seen_ms: end_ms.max(start - began),
                }),
                Kind::Frame => self.lanes[lane].frames.push(start_ms),
                _ => self.lanes[lane].spans.push(Span {
                    kind,
                    name,
                    start_ms,
                    end_ms,
                }),
            }
        }
    }

    /// Adds the long animation frames the browser reported, `(start, end,
    /// scripts)` in epoch ms, to the main thread's lane (those of the run
    /// alone), and marks them observed.
    pub fn add_long_frames(&mut self, frames: impl IntoIterator<Item = (f64, f64, String)>) {
        let (lo, hi) = self.extent();
        let main = self.lane(Thread::Main);
        for (start, end, scripts) in frames {
            let (start_ms, end_ms) = (start - self.began_epoch_ms, end - self.began_epoch_ms);
            if !(end_ms >= lo && start_ms <= hi && start_ms <= end_ms) {
                continue;
            }
            let arg = self.notes.len() as u32;
            self.notes.push(scripts);
            self.lanes[main].spans.push(Span {
                kind: Kind::LongTask,
                name: Name::ms(crate::key!("timeline.name.long_frame"), arg),
                start_ms,
                end_ms,
            });
        }
        self.long_frames = LongFrames::Observed;
        self.settle();
    }

    /// What ran in `span`, if it is a long animation frame the browser
    /// named scripts of.
    pub fn note(&self, span: &Span) -> Option<&str> {
        (span.kind == Kind::LongTask)
            .then(|| self.notes.get(span.name.arg as usize))
            .flatten()
            .map(String::as_str)
            .filter(|n| !n.is_empty())
    }

    /// The lane labelled `label` (a native thread's, numbered in the order
    /// they come), made if it has none yet.
    pub fn labelled(&mut self, label: &str) -> usize {
        if let Some(i) = self
            .lanes
            .iter()
            .position(|l| l.label.as_deref() == Some(label))
        {
            return i;
        }
        let n = self
            .lanes
            .iter()
            .filter(|l| matches!(l.thread, Thread::Native(_)))
            .count();
        let i = self.lane(Thread::Native(n as u32 + 1));
        self.lanes[i].label = Some(label.to_owned());
        i
    }

    /// Adds `span` (ms since the run began) to lane `lane`.
    pub fn push_span(&mut self, lane: usize, span: Span) {
        if let Some(l) = self.lanes.get_mut(lane) {
            l.spans.push(span);
        }
    }

    /// Puts everything in time order (after the last [`Trace::add`]).
    pub fn settle(&mut self) {
        for lane in &mut self.lanes {
            lane.spans.sort_by(|a, b| {
                a.start_ms
                    .total_cmp(&b.start_ms)
                    .then(a.end_ms.total_cmp(&b.end_ms))
            });
            lane.frames.sort_by(f64::total_cmp);
        }
        self.flows.sort_by(|a, b| a.sent_ms.total_cmp(&b.sent_ms));
    }

    /// Spans in every lane.
    pub fn span_count(&self) -> usize {
        self.lanes.iter().map(|l| l.spans.len()).sum()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.span_count() == 0
            && self.flows.is_empty()
            && self.lanes.iter().all(|l| l.frames.is_empty())
    }

    /// The time the trace covers, ms since the run began: from its first
    /// thing to its last (`(0, 1)` when empty).
    pub fn extent(&self) -> (f64, f64) {
        let times = self.lanes.iter().flat_map(|l| {
            l.spans
                .iter()
                .flat_map(|s| [s.start_ms, s.end_ms])
                .chain(l.frames.iter().copied())
        });
        let flows = self.flows.iter().flat_map(|f| [f.sent_ms, f.seen_ms]);
        let (lo, hi) = times
            .chain(flows)
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), t| {
                (lo.min(t), hi.max(t))
            });
        if lo < hi {
            (lo, hi)
        } else if lo.is_finite() {
            (lo, lo + 1.0)
        } else {
            (0.0, 1.0)
        }
    }

    /// Per lane, the time each span kind covered (overlaps counted once per
    /// span), ms, in [`Kind::ALL`] order: the view's text summary.
    pub fn totals(&self) -> Vec<(&Lane, [f64; 7])> {
        self.lanes
            .iter()
            .map(|l| {
                let mut t = [0.0; 7];
                for s in &l.spans {
                    t[s.kind.index()] += s.duration_ms();
                }
                (l, t)
            })
            .collect()
    }
}
