//! `use_timed_waits`: run experiment 1 from a component, with progress,
//! cancel, the result and errors as signals.

use crate::runner::{Progress, run_timed_waits};
use futures::future::{AbortHandle, Abortable};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::rc::Rc;
use waitlab_core::probe::TimedWaitsConfig;
use waitlab_core::schema::Report;

/// How often the page repaints the progress bar at most, ms. Publishing
/// less often keeps rendering work out of the measured waits.
const PROGRESS_EVERY_MS: f64 = 100.0;

/// What [`use_timed_waits`] returns.
#[derive(Clone, Copy)]
pub struct UseTimedWaits {
    /// Progress of the run under way; `None` when idle.
    pub progress: ReadSignal<Option<Progress>>,
    /// The last finished run's report.
    pub report: RwSignal<Option<Report>>,
    /// A message about the last run (cancelled, failed).
    pub notice: ReadSignal<Option<String>>,
    /// Starts a run (cancelling one under way).
    pub run: Callback<TimedWaitsConfig>,
    /// Cancels the run under way: pending timers are cleared and the worker
    /// is terminated before this returns control to the browser.
    pub cancel: Callback<()>,
}

/// Experiment 1 as reactive state.
pub fn use_timed_waits() -> UseTimedWaits {
    let (progress, set_progress) = signal(None::<Progress>);
    let report = RwSignal::new(None::<Report>);
    let (notice, set_notice) = signal(None::<String>);
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
            set_notice.set(Some("Run cancelled: nothing is left running".to_owned()));
        }
    });
    let run = Callback::new(move |config: TimedWaitsConfig| {
        stop();
        let (abort, registration) = AbortHandle::new_pair();
        handle.set_value(Some(abort));
        set_notice.set(None);
        set_progress.set(Some(Progress::default()));
        let last = std::cell::Cell::new(f64::NEG_INFINITY);
        let publish = Rc::new(move |p: Progress| {
            let now = crate::browser::clock::now();
            let edge = p.done == 0 || p.done >= p.total;
            if edge || now - last.get() >= PROGRESS_EVERY_MS {
                last.set(now);
                set_progress.set(Some(p));
            }
        });
        spawn_local(async move {
            if let Ok(r) = Abortable::new(run_timed_waits(config, publish), registration).await {
                if r.env.hidden_during_run {
                    set_notice.set(Some(
                        "The page was hidden during this run: browsers throttle timers in \
                         background tabs, so these numbers are marked as throttled"
                            .to_owned(),
                    ));
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
    UseTimedWaits {
        progress,
        report,
        notice,
        run,
        cancel,
    }
}
