//! Running experiments: what every experiment's runner shares (progress,
//! the environment, the two workers of a pair, the chunks). Each
//! experiment's runner is `crate::experiments::<slug>::runner`: a `run_*`
//! that measures it end to end and returns a [`Report`] holding the
//! environment and that experiment's results, a wasm chunk of its own
//! (`runner!`) started through [`Runner`].
//!
//! Cancelling a run is dropping its future: pending timers are cleared, and
//! workers are terminated by `ProbeWorker`'s `Drop`.

pub(crate) mod chunks;
pub(crate) mod pair;

pub use chunks::Runner;

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use waitlab_browser::timeline::{self, TrackEntry};
use waitlab_browser::{clock, page, trace};
use waitlab_core::key;
use waitlab_core::schema::{Environment, Failure, Report, Stored};
use waitlab_core::text::{Key, Phrase};
use waitlab_core::trace::{Kind, Name, Trace};

/// Where a run stands.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Progress {
    /// Samples (and chain runs) measured so far.
    pub done: u32,
    /// Samples (and chain runs) the run will measure.
    pub total: u32,
    /// What the main thread is measuring.
    pub main: Option<Phrase>,
    /// What the worker(s) are measuring.
    pub worker: Option<Phrase>,
    /// What the run asks of the reader now (the hidden tab's "switch to
    /// another tab"), shown above the bar.
    pub ask: Option<Phrase>,
}

impl Progress {
    /// Completed fraction in `[0, 1]`.
    pub fn fraction(&self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            (f64::from(self.done) / f64::from(self.total)).min(1.0)
        }
    }
}

/// Publishes progress to whoever shows it.
pub type Publish = Rc<dyn Fn(Progress)>;

/// The failure of a run that got a message it did not expect from `from`
/// (a catalog key).
pub(crate) fn unexpected(from: Key, message: &waitlab_core::protocol::FromWorker) -> Phrase {
    Phrase::new(key!("error.unexpected_message"))
        .phrase("from", Phrase::new(from))
        .code("message", message.name())
}

/// `message` from `from` (a catalog key) read as an experiment's own reply
/// to its job (`FromWorker::Reply`, its folder's `job.rs`), or why not.
pub(crate) fn reply<T: waitlab_core::bytes::Bytes>(
    from: Key,
    message: waitlab_core::protocol::FromWorker,
) -> Result<T, Phrase> {
    match message {
        waitlab_core::protocol::FromWorker::Reply { body } => {
            waitlab_core::protocol::read_body(&body)
                .map_err(|e| Phrase::new(key!("worker.unreadable")).code("detail", e.0))
        }
        other => Err(unexpected(from, &other)),
    }
}

/// How often a main-thread probe pauses to let the page show its
/// progress, ms of sampling (each pause costs two frames, and the drawing
/// it lets happen is work the machine does beside the next samples).
pub(crate) const PACE_MS: f64 = 500.0;

/// Shared progress state plus the callback that publishes it.
#[derive(Clone)]
pub(crate) struct Reporter {
    state: Rc<RefCell<Progress>>,
    publish: Publish,
    /// When progress was last published, `performance.now()`.
    published: Rc<Cell<f64>>,
}

impl Reporter {
    pub(crate) fn new(publish: Publish, total: u32) -> Self {
        Self {
            state: Rc::new(RefCell::new(Progress {
                total,
                ..Progress::default()
            })),
            publish,
            published: Rc::new(Cell::new(clock::now())),
        }
    }

    /// Counts one main-thread sample without publishing (a render now would
    /// land in the next sample); every [`PACE_MS`] publishes and returns
    /// true: the probe then lets the page render before it goes on.
    pub(crate) fn count(&self) -> bool {
        self.state.borrow_mut().done += 1;
        let due = clock::now() - self.published.get() >= PACE_MS;
        if due {
            self.update(|_| {});
        }
        due
    }

    pub(crate) fn update(&self, f: impl FnOnce(&mut Progress)) {
        let snapshot = {
            let mut state = self.state.borrow_mut();
            f(&mut state);
            state.clone()
        };
        self.published.set(clock::now());
        (self.publish)(snapshot);
    }
}

/// The run's spans as DevTools tracks, a track per thread in a "waitlab"
/// group, worded in the reader's language: a Performance recording of the
/// run shows them beside the browser's own.
fn devtools_tracks(t: &Trace) {
    crate::i18n::with_catalog(|c| {
        let tracks: Vec<String> = t.lanes.iter().map(|l| l.name(c)).collect();
        let mut names: HashMap<Name, String> = HashMap::new();
        for s in t.lanes.iter().flat_map(|l| &l.spans) {
            names.entry(s.name).or_insert_with(|| s.name.render(c));
        }
        let entries = t.lanes.iter().zip(&tracks).flat_map(|(lane, track)| {
            lane.spans.iter().map(|s| TrackEntry {
                track,
                color: match s.kind {
                    Kind::Holding => "error",
                    Kind::Free => "primary",
                    Kind::Busy => "tertiary",
                    Kind::Queued => "secondary-light",
                    _ => "secondary-dark",
                },
                name: &names[&s.name],
                start: t.began_epoch_ms + s.start_ms,
                end: t.began_epoch_ms + s.end_ms,
            })
        });
        timeline::devtools_tracks(entries);
    });
}

/// The environment block (experiment 5), measured now.
pub fn environment() -> Environment {
    Environment {
        user_agent: page::user_agent(),
        hardware_concurrency: page::hardware_concurrency(),
        cross_origin_isolated: clock::cross_origin_isolated(),
        clock: clock::measure_granularity(30.0),
        started_at_unix_ms: clock::time_origin() + clock::now(),
        hidden_during_run: page::is_hidden(),
        native: None,
    }
}

/// The environment, and whether the page was hidden or scrolled out of
/// view (an embed), over one run.
pub(crate) struct RunScope {
    env: Environment,
    hidden: Rc<Cell<bool>>,
    _listener: page::EventListener,
    _view: page::ViewListener,
}

impl RunScope {
    /// Measures the environment, starts watching visibility and begins
    /// the run's timeline.
    pub(crate) fn begin() -> Self {
        trace::begin_run();
        let hidden = Rc::new(Cell::new(page::is_hidden()));
        let mark = {
            let hidden = hidden.clone();
            move |now_hidden: bool| hidden.set(hidden.get() || now_hidden)
        };
        Self {
            env: environment(),
            hidden,
            _listener: page::EventListener::visibility(mark.clone()),
            _view: page::ViewListener::new(mark),
        }
    }

    /// One step of the clock the run reads, ms (0 if it could not be
    /// measured).
    pub(crate) fn step_ms(&self) -> f64 {
        self.env.clock.map_or(0.0, |c| c.tolerance_ms())
    }

    /// The report of the run: the environment, marked if the page was
    /// hidden or out of view at any time, and what `fill` adds.
    pub(crate) fn finish(self, fill: impl FnOnce(&mut Report)) -> Report {
        let mut env = self.env;
        env.hidden_during_run = self.hidden.get();
        let mut report = Report::new(env, None);
        fill(&mut report);
        report.trace = trace::finish_run();
        if let Some(t) = &report.trace {
            devtools_tracks(t);
        }
        report
    }

    /// The report of a run that measured `result`, or failed because of
    /// `why` ("The run failed: why").
    pub(crate) fn finish_with<E: Stored>(self, result: Result<E, Phrase>) -> Report {
        self.finish(|r| match result {
            Ok(e) => *E::slot(r) = Some(e),
            Err(why) => {
                let failed = Phrase::new(key!("run.failed")).phrase("why", why);
                r.failure = Some(Failure::Said(failed));
            }
        })
    }
}
