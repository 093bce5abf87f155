//! `use_experiment`: run an experiment from a component, with progress,
//! cancel, the report and notices as signals.

use crate::experiments::{OnPage, Visit, visit};
use crate::runner::{Progress, Publish, Runner};
use futures::future::{AbortHandle, Abortable};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::any::Any;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use waitlab_core::experiments::Experiment;
use waitlab_core::key;
use waitlab_core::schema::Report;
use waitlab_core::text::Key;
use waitlab_core::text::{Part, Phrase};

/// How often the page repaints the progress bar at most, ms. Publishing
/// less often keeps rendering work out of the measured waits.
const PROGRESS_EVERY_MS: f64 = 100.0;

/// A message about the last run.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    /// What to say.
    pub text: Phrase,
    /// Whether the run failed (an alert) rather than a note about it.
    pub failed: bool,
}

impl Notice {
    fn note(key: Key) -> Self {
        Self {
            text: Phrase::new(key),
            failed: false,
        }
    }
}

/// Every experiment's state, made once for the page (above what it
/// renders, so a page rendered anew in another language keeps its runs).
#[derive(Clone, Copy)]
pub struct Experiments {
    /// Each experiment's [`UseExperiment`], in [`Experiment::ALL`]'s
    /// order, each of its own configuration's type ([`Experiments::of`]).
    states: StoredValue<Vec<Box<dyn Any + Send + Sync>>>,
    /// Page work in flight whose promises land on the main thread (result
    /// links the browser is compressing, chunks of the page being
    /// fetched): nothing starts a run while one is.
    pub in_flight: RwSignal<u32>,
}

impl Experiments {
    /// Whether any experiment is running (tracked: a reader re-runs when
    /// one starts or ends). Work the page could do at any time waits for
    /// this to be false, so it never lands inside a measured interval.
    pub fn running(&self) -> bool {
        Experiment::ALL
            .into_iter()
            .any(|e| self.progress(e).with(Option::is_some))
    }

    /// Does `work`, counted in [`Experiments::in_flight`] until it is done
    /// or dropped (a view disposed while its chunk loads), so no run starts
    /// to measure while it may still land, and none waits for work that
    /// will never land.
    pub async fn outside_runs<T>(&self, work: impl Future<Output = T>) -> T {
        /// Counts one piece of page work until it is dropped.
        struct Counted(RwSignal<u32>);
        impl Drop for Counted {
            fn drop(&mut self) {
                self.0.try_update(|n| *n = n.saturating_sub(1));
            }
        }
        self.in_flight.update(|n| *n += 1);
        let _counted = Counted(self.in_flight);
        work.await
    }

    /// `E`'s state.
    pub fn of<E: OnPage>(&self) -> UseExperiment<E::Config> {
        let at = Experiment::ALL
            .iter()
            .position(|&e| e == E::EXPERIMENT)
            .expect("every experiment has a state");
        self.states.with_value(|states| {
            *states[at]
                .downcast_ref::<UseExperiment<E::Config>>()
                .expect("a state of its own configuration")
        })
    }

    /// `experiment`'s run, whatever its configuration.
    pub fn state(&self, experiment: Experiment) -> RunState {
        struct StateOf<'a>(&'a Experiments);
        impl Visit for StateOf<'_> {
            type Out = RunState;
            fn visit<E: OnPage>(self) -> RunState {
                self.0.of::<E>().state()
            }
        }
        visit(experiment, StateOf(self))
    }

    /// `experiment`'s progress signal.
    pub fn progress(&self, experiment: Experiment) -> ReadSignal<Option<Progress>> {
        self.state(experiment).progress
    }
}

/// Every experiment as reactive state.
pub fn use_experiments() -> Experiments {
    struct Make(RwSignal<u32>);
    impl Visit for Make {
        type Out = Box<dyn Any + Send + Sync>;
        fn visit<E: OnPage>(self) -> Self::Out {
            Box::new(use_experiment::<E::Config>(self.0))
        }
    }
    let in_flight = RwSignal::new(0);
    let states = Experiment::ALL
        .into_iter()
        .map(|e| visit(e, Make(in_flight)))
        .collect();
    Experiments {
        states: StoredValue::new(states),
        in_flight,
    }
}

/// What [`use_experiment`] returns.
pub struct UseExperiment<C: 'static> {
    /// Progress of the run under way; `None` when idle.
    pub progress: ReadSignal<Option<Progress>>,
    /// The last finished run's report.
    pub report: RwSignal<Option<Report>>,
    /// A message about the last run (cancelled, failed).
    pub notice: ReadSignal<Option<Notice>>,
    /// Starts a run (cancelling one under way).
    pub run: Callback<C>,
    /// Cancels the run under way: pending timers are cleared and the worker
    /// is terminated before this returns control to the browser.
    pub cancel: Callback<()>,
}

/// An experiment's run as the page shows it, whatever its configuration:
/// [`UseExperiment`] without the way to start one.
#[derive(Clone, Copy)]
pub struct RunState {
    /// Progress of the run under way; `None` when idle.
    pub progress: ReadSignal<Option<Progress>>,
    /// The last finished run's report.
    pub report: RwSignal<Option<Report>>,
    /// A message about the last run (cancelled, failed).
    pub notice: ReadSignal<Option<Notice>>,
    /// Cancels the run under way.
    pub cancel: Callback<()>,
}

impl<C> UseExperiment<C> {
    /// Its run, without the way to start one.
    pub fn state(&self) -> RunState {
        RunState {
            progress: self.progress,
            report: self.report,
            notice: self.notice,
            cancel: self.cancel,
        }
    }
}

impl<C> Clone for UseExperiment<C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<C> Copy for UseExperiment<C> {}

/// A run under way, type-erased so one copy of the machinery below serves
/// every experiment.
type RunFuture = Pin<Box<dyn Future<Output = Result<Report, Phrase>>>>;

/// An experiment as reactive state: its runner measures one run, once no
/// page work is in flight (`in_flight` counts it).
pub fn use_experiment<C: Runner + Send + Sync>(in_flight: RwSignal<u32>) -> UseExperiment<C> {
    let state = State::new(in_flight);
    let run = Callback::new(move |config: C| {
        state.start(Box::new(move |publish| {
            Box::pin(async move { Ok(config.start(publish).await?.await) })
        }));
    });
    UseExperiment {
        progress: state.progress.read_only(),
        report: state.report,
        notice: state.notice.read_only(),
        run,
        cancel: Callback::new(move |()| state.cancel()),
    }
}

/// The signals of one experiment and the handle of its run under way.
#[derive(Clone, Copy)]
struct State {
    progress: RwSignal<Option<Progress>>,
    report: RwSignal<Option<Report>>,
    notice: RwSignal<Option<Notice>>,
    handle: StoredValue<Option<AbortHandle>>,
    in_flight: RwSignal<u32>,
}

/// Resolves once `count` is zero, at once if it is: an effect watches it,
/// no timer polls (a timer would fire inside the first measured waits).
async fn settled(count: RwSignal<u32>, owner: Option<Owner>) {
    if count.get_untracked() == 0 {
        return;
    }
    let (tx, rx) = futures::channel::oneshot::channel::<()>();
    let tx = std::cell::RefCell::new(Some(tx));
    let watch = move || {
        Effect::new(move |_| {
            if count.get() == 0
                && let Some(tx) = tx.borrow_mut().take()
            {
                let _ = tx.send(());
            }
        })
    };
    let effect = match owner {
        Some(owner) => owner.with(watch),
        None => watch(),
    };
    let _ = rx.await;
    effect.stop();
}

/// Shows a finished run with `show` and measures how long the page takes
/// to draw it: from the report to the page laid out with it (the reactive
/// updates run before the next task), as `performance.measure`
/// "waitlab-render", which `cargo xtask bench` reads. It runs after the
/// run, never inside a measured wait.
fn drawn(show: impl FnOnce()) {
    waitlab_browser::clock::mark("waitlab-report");
    show();
    spawn_local(async {
        waitlab_browser::wait::fresh_task().await;
        waitlab_browser::page::force_layout();
        waitlab_browser::clock::measure_since("waitlab-render", "waitlab-report");
    });
}

impl State {
    fn new(in_flight: RwSignal<u32>) -> Self {
        let state = State {
            progress: RwSignal::new(None),
            report: RwSignal::new(None),
            notice: RwSignal::new(None),
            handle: StoredValue::new(None),
            in_flight,
        };
        on_cleanup(move || {
            state.stop();
        });
        state
    }

    /// Drops the run under way, if any; whether there was one.
    fn stop(self) -> bool {
        if let Some(h) = self.handle.try_update_value(Option::take).flatten() {
            h.abort();
            true
        } else {
            false
        }
    }

    fn cancel(self) {
        if self.stop() {
            self.progress.set(None);
            self.notice.set(Some(Notice::note(key!("run.cancelled"))));
        }
    }

    /// Starts the run `make` builds (cancelling one under way); it loads
    /// its runner's chunk and measures once the texts of runs are in and no
    /// page work is in flight (a result link being compressed, a chunk being
    /// fetched; the progress bar and Cancel show meanwhile: their words are
    /// the page's).
    fn start(self, make: Box<dyn FnOnce(Publish) -> RunFuture>) {
        self.stop();
        let (abort, registration) = AbortHandle::new_pair();
        self.handle.set_value(Some(abort));
        self.notice.set(None);
        self.progress.set(Some(Progress::default()));
        let last = std::cell::Cell::new(f64::NEG_INFINITY);
        let progress = self.progress;
        let publish: Publish = Rc::new(move |p: Progress| {
            let now = waitlab_browser::clock::now();
            let edge = p.done == 0 || p.done >= p.total;
            if edge || now - last.get() >= PROGRESS_EVERY_MS {
                last.set(now);
                progress.set(Some(p));
            }
        });
        let (in_flight, owner) = (self.in_flight, Owner::current());
        let run = async move {
            crate::i18n::part_ready(Part::Runs).await?;
            // A result link the browser is still compressing, or a chunk
            // still coming (started just before Run), would land inside the
            // first measured waits.
            settled(in_flight, owner).await;
            make(publish).await
        };
        spawn_local(async move {
            let Ok(outcome) = Abortable::new(run, registration).await else {
                return;
            };
            self.handle.set_value(None);
            self.progress.set(None);
            match outcome {
                Ok(r) => {
                    if let Some(failure) = &r.failure {
                        self.notice.set(Some(Notice {
                            text: failure.phrase(),
                            failed: true,
                        }));
                    } else if r.env.hidden_during_run {
                        self.notice.set(Some(Notice::note(key!("run.hidden"))));
                    }
                    drawn(move || self.report.set(Some(r)));
                }
                Err(text) => self.notice.set(Some(Notice { text, failed: true })),
            }
        });
    }
}
