//! `use_experiment`: run an experiment from a component, with progress,
//! cancel, the report and notices as signals.

use crate::runner::{Progress, Publish};
use futures::future::{AbortHandle, Abortable};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::future::Future;
use std::rc::Rc;
use waitlab_core::schema::Report;

/// How often the page repaints the progress bar at most, ms. Publishing
/// less often keeps rendering work out of the measured waits.
const PROGRESS_EVERY_MS: f64 = 100.0;

/// A message about the last run.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    /// What to say.
    pub text: String,
    /// Whether the run failed (an alert) rather than a note about it.
    pub failed: bool,
}

impl Notice {
    fn note(text: &str) -> Self {
        Self {
            text: text.to_owned(),
            failed: false,
        }
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

impl<C> Clone for UseExperiment<C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<C> Copy for UseExperiment<C> {}

/// An experiment as reactive state: `runner` measures one run.
pub fn use_experiment<C, F, Fut>(runner: F) -> UseExperiment<C>
where
    C: Send + Sync + 'static,
    F: Fn(C, Publish) -> Fut + Copy + Send + Sync + 'static,
    Fut: Future<Output = Report> + 'static,
{
    let (progress, set_progress) = signal(None::<Progress>);
    let report = RwSignal::new(None::<Report>);
    let (notice, set_notice) = signal(None::<Notice>);
    let handle = StoredValue::new(None::<AbortHandle>);

    let stop = move || {
        if let Some(h) = handle.try_update_value(Option::take).flatten() {
            h.abort();
            true
        } else {
            false
        }
    };
    let cancel = Callback::new(move |()| {
        if stop() {
            set_progress.set(None);
            set_notice.set(Some(Notice::note("Run cancelled: nothing is left running")));
        }
    });
    let run = Callback::new(move |config: C| {
        stop();
        let (abort, registration) = AbortHandle::new_pair();
        handle.set_value(Some(abort));
        set_notice.set(None);
        set_progress.set(Some(Progress::default()));
        let last = std::cell::Cell::new(f64::NEG_INFINITY);
        let publish: Publish = Rc::new(move |p: Progress| {
            let now = waitlab_browser::clock::now();
            let edge = p.done == 0 || p.done >= p.total;
            if edge || now - last.get() >= PROGRESS_EVERY_MS {
                last.set(now);
                set_progress.set(Some(p));
            }
        });
        spawn_local(async move {
            if let Ok(r) = Abortable::new(runner(config, publish), registration).await {
                if let Some(failure) = &r.failure {
                    set_notice.set(Some(Notice {
                        text: failure.clone(),
                        failed: true,
                    }));
                } else if r.env.hidden_during_run {
                    set_notice.set(Some(Notice::note(
                        "The page was hidden during this run: browsers throttle timers in \
                         background tabs, so these numbers are marked as throttled",
                    )));
                }
                report.set(Some(r));
                handle.set_value(None);
                set_progress.set(None);
            }
        });
    });
    on_cleanup(move || {
        stop();
    });
    UseExperiment {
        progress,
        report,
        notice,
        run,
        cancel,
    }
}
