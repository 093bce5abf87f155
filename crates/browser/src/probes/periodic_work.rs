//! Periodic work (experiment 7): a loop of ticks, each busy for its seeded
//! work, scheduled by a `setTimeout` set after the work, one `setInterval`,
//! or a `setTimeout` aimed at the next tick's time on the schedule. The
//! same code runs on the main thread and in a worker (the global's timer
//! functions).
//!
//! One callback serves every tick: it stamps `performance.now()` first,
//! into a vector made with room for every tick, then works, then sets the
//! next timer. Nothing is allocated or parsed between a tick's due time
//! and its stamp.

use crate::clock::{busy_wait_until, now};
use crate::wait::{park, timer_function, wake};
use crate::{trace, worker_scope};
use js_sys::Function;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::task::{Poll, Waker};
use waitlab_core::experiments::periodic_work::job::WorkerLoop;
use waitlab_core::experiments::periodic_work::{Schedule, lateness_ms};
use waitlab_core::key;
use waitlab_core::protocol::{FromWorker, WorkerOutcome};
use waitlab_core::text::Key;
use waitlab_core::trace::{Kind, Name};

/// A tick's work, on the timeline.
const WORK: Key = key!("timeline.name.work");
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// What the loop's callback reads and writes.
struct Ticks {
    schedule: Schedule,
    interval_ms: f64,
    /// Each tick's work, ms.
    work_ms: Vec<f64>,
    /// When the loop started.
    start_ms: Cell<f64>,
    /// When each tick began (room for all of them from the start).
    began_ms: RefCell<Vec<f64>>,
    /// The pending timer's (or the interval's) id.
    id: Cell<Option<f64>>,
    set_timeout: Function,
    clear: Function,
    /// The callback as a function, to set the next timer with.
    callback: RefCell<Option<Function>>,
    waker: RefCell<Option<Waker>>,
}

impl Ticks {
    /// Sets a timer for the callback `delay_ms` from now.
    fn set(&self, delay_ms: f64) {
        let id = self.callback.borrow().as_ref().and_then(|f| {
            self.set_timeout
                .call2(&JsValue::UNDEFINED, f, &JsValue::from(delay_ms))
                .ok()
        });
        self.id.set(id.and_then(|id| id.as_f64()));
    }

    /// Clears the pending timer or the interval, if any (`clearTimeout`
    /// and `clearInterval` clear from one list of ids).
    fn clear(&self) {
        if let Some(id) = self.id.take() {
            let _ = self.clear.call1(&JsValue::UNDEFINED, &JsValue::from(id));
        }
    }

    /// One tick: stamp, work, then the next timer (none after the last).
    fn tick(&self) {
        let began = now();
        let i = {
            let mut stamps = self.began_ms.borrow_mut();
            stamps.push(began);
            stamps.len()
        };
        busy_wait_until(began + self.work_ms[i - 1]);
        if i == self.work_ms.len() {
            self.clear();
            wake(&self.waker);
            return;
        }
        match self.schedule {
            Schedule::Chained => self.set(self.interval_ms),
            Schedule::Interval => {}
            Schedule::Corrected => {
                // A timeout is whole milliseconds (WebIDL truncates it):
                // rounded down, the tick would come before its time.
                let due = self.start_ms.get() + (i + 1) as f64 * self.interval_ms;
                self.set((due - now()).max(0.0).ceil());
            }
        }
    }
}

/// A running loop; dropping it (a cancelled run) clears its timer.
struct Loop {
    ticks: Rc<Ticks>,
    _closure: Closure<dyn FnMut()>,
}

impl Drop for Loop {
    fn drop(&mut self) {
        self.ticks.clear();
        self.ticks.callback.borrow_mut().take();
    }
}

/// Runs one loop of `work_us.len()` ticks every `interval_ms` by
/// `schedule`; returns each tick's lateness against the ideal schedule,
/// ms. Blocks the thread for each tick's work. Once done, puts each tick's
/// work and each wait between ticks (`wait`) on the timeline, from the
/// ticks' stamps.
pub async fn run(
    schedule: Schedule,
    interval_ms: u32,
    work_us: &[u32],
    wait: (Kind, Name),
) -> Vec<f64> {
    if work_us.is_empty() {
        return Vec::new();
    }
    let ticks = Rc::new(Ticks {
        schedule,
        interval_ms: f64::from(interval_ms),
        work_ms: work_us.iter().map(|&us| f64::from(us) / 1000.0).collect(),
        start_ms: Cell::new(0.0),
        began_ms: RefCell::new(Vec::with_capacity(work_us.len())),
        id: Cell::new(None),
        set_timeout: timer_function("setTimeout"),
        clear: timer_function("clearTimeout"),
        callback: RefCell::new(None),
        waker: RefCell::new(None),
    });
    let closure = {
        let ticks = ticks.clone();
        Closure::<dyn FnMut()>::new(move || ticks.tick())
    };
    let function: Function = closure.as_ref().unchecked_ref::<Function>().clone();
    *ticks.callback.borrow_mut() = Some(function.clone());
    let running = Loop {
        ticks: ticks.clone(),
        _closure: closure,
    };
    ticks.start_ms.set(now());
    if schedule == Schedule::Interval {
        let id = timer_function("setInterval")
            .call2(&JsValue::UNDEFINED, &function, &JsValue::from(interval_ms))
            .ok()
            .and_then(|id| id.as_f64());
        ticks.id.set(id);
    } else {
        ticks.set(f64::from(interval_ms));
    }
    std::future::poll_fn(|cx| {
        if ticks.began_ms.borrow().len() == work_us.len() {
            Poll::Ready(())
        } else {
            park(&ticks.waker, cx)
        }
    })
    .await;
    drop(running);
    let began = ticks.began_ms.take();
    let start = ticks.start_ms.get();
    let mut free_from = start;
    for (&at, &work) in began.iter().zip(&ticks.work_ms) {
        trace::span(wait.0, wait.1, free_from, at);
        trace::span(Kind::Busy, Name::of(WORK), at, at + work);
        free_from = at + work;
    }
    lateness_ms(start, interval_ms, &began)
}

/// Serves experiment 7's worker job: the loop, answered with `Done` and
/// each tick's lateness as samples.
pub(crate) fn serve(job: WorkerLoop) {
    trace::ready();
    wasm_bindgen_futures::spawn_local(async move {
        let outcome = match job.scheduler.schedule() {
            Some(schedule) => WorkerOutcome::Samples {
                samples_ms: run(
                    schedule,
                    job.interval_ms,
                    &job.work_us,
                    job.scheduler.timeline(),
                )
                .await,
            },
            None => WorkerOutcome::Failed {
                message: format!("{} does not run in a worker", job.scheduler.id()),
            },
        };
        worker_scope::post(&FromWorker::Done { job: 0, outcome });
    });
}
