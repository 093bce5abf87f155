//! A hidden tab (experiment 10): ways of ticking every interval, all at
//! once while the reader looks away. On the page: a `setTimeout` chain set
//! in its own callback, one set from a fresh task (a message) each tick,
//! `setInterval`, `requestAnimationFrame`, a `setTimeout` aimed at the
//! clock's next due time (running every tick that came due at once), and
//! the page woken by a worker's message; in a worker, a `setTimeout` chain
//! (which may wake the page through its port) or `Atomics.wait` with a
//! timeout.
//!
//! Each way's callback stamps the clock first into a vector made with
//! room for every tick before the window opens; a tick past the room is
//! dropped, never allocated. The page stamps `performance.now()`; a
//! worker `timeOrigin + now()`, which the page moves onto its own clock.

use crate::clock::{epoch_now, now};
use crate::memory::{self, Slots, WaitEnd};
use crate::wait::timer_function;
use crate::worker_scope;
use js_sys::Function;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use waitlab_core::experiments::hidden_tab::Keeper;
use waitlab_core::experiments::hidden_tab::job::Ticking;
use waitlab_core::protocol::{FromWorker, WorkerOutcome};
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::MessagePort;

/// One way's ticks: their times, the pending timer's (or frame's) id, its
/// callback, and whether it was told to stop.
struct Ticker {
    stamps: RefCell<Vec<f64>>,
    id: Cell<Option<f64>>,
    callback: RefCell<Option<Function>>,
    stopped: Cell<bool>,
}

impl Ticker {
    /// A ticker with room for `room` ticks whose callback does `tick`;
    /// the closure must live as long as it ticks.
    fn new(room: usize, tick: impl Fn(&Ticker) + 'static) -> (Rc<Ticker>, Closure<dyn FnMut()>) {
        let ticker = Rc::new(Ticker {
            stamps: RefCell::new(Vec::with_capacity(room)),
            id: Cell::new(None),
            callback: RefCell::new(None),
            stopped: Cell::new(false),
        });
        let closure = {
            let ticker = ticker.clone();
            Closure::<dyn FnMut()>::new(move || tick(&ticker))
        };
        let function = closure.as_ref().unchecked_ref::<Function>().clone();
        *ticker.callback.borrow_mut() = Some(function);
        (ticker, closure)
    }

    /// Records a tick at `at`, if there is room.
    fn stamp(&self, at: f64) {
        let mut stamps = self.stamps.borrow_mut();
        if stamps.len() < stamps.capacity() {
            stamps.push(at);
        }
    }

    /// Calls `schedule` (`setTimeout`, `setInterval`) with the callback
    /// and `delay_ms`, keeping the id, unless it was told to stop.
    fn set(&self, schedule: &Function, delay_ms: f64) {
        if self.stopped.get() {
            return;
        }
        let id = self.callback.borrow().as_ref().and_then(|f| {
            schedule
                .call2(&JsValue::UNDEFINED, f, &JsValue::from(delay_ms))
                .ok()
        });
        self.id.set(id.and_then(|id| id.as_f64()));
    }

    /// Asks for the next animation frame, unless it was told to stop.
    fn next_frame(&self) {
        if self.stopped.get() {
            return;
        }
        let window = web_sys::window().expect("frames need a window");
        let id = self
            .callback
            .borrow()
            .as_ref()
            .and_then(|f| window.request_animation_frame(f).ok());
        self.id.set(id.map(f64::from));
    }

    /// Stops it and clears what is pending with `clear`.
    fn stop(&self, clear: &Function) {
        self.stopped.set(true);
        if let Some(id) = self.id.take() {
            let _ = clear.call1(&JsValue::UNDEFINED, &JsValue::from(id));
        }
    }
}

/// The page's ways, ticking; [`PageWays::finish`] stops them and gives
/// their ticks. Dropping it (a cancelled run) stops them too.
pub struct PageWays {
    ways: Vec<(Keeper, Rc<Ticker>, Function)>,
    fresh: web_sys::MessageChannel,
    worker_port: MessagePort,
    _closures: Vec<Closure<dyn FnMut()>>,
}

impl PageWays {
    /// Starts every way of the page, aiming at `interval_ms`, each with
    /// room for `room` ticks; `worker_port` is the channel's end on which
    /// a worker's ticks wake the page.
    pub fn start(
        interval_ms: u32,
        room: usize,
        worker_port: MessagePort,
    ) -> Result<PageWays, JsValue> {
        let interval = f64::from(interval_ms);
        let set_timeout = timer_function("setTimeout");
        let clear_timeout = timer_function("clearTimeout");
        let window = web_sys::window().expect("the page has a window");
        let cancel_frame: Function =
            js_sys::Reflect::get(&window, &"cancelAnimationFrame".into())?.dyn_into()?;
        let mut closures = Vec::new();
        let mut ways = Vec::new();

        let nested = {
            let set = set_timeout.clone();
            Ticker::new(room, move |t| {
                t.stamp(now());
                t.set(&set, interval);
            })
        };

        // The fresh task's message sets the next timer, from nesting 0.
        let fresh = web_sys::MessageChannel::new()?;
        let fresh_ticks = {
            let sender = fresh.port1();
            Ticker::new(room, move |t| {
                t.stamp(now());
                if !t.stopped.get() {
                    let _ = sender.post_message(&JsValue::NULL);
                }
            })
        };
        let on_fresh = {
            let (ticker, set) = (fresh_ticks.0.clone(), set_timeout.clone());
            Closure::<dyn FnMut()>::new(move || ticker.set(&set, interval))
        };
        fresh
            .port2()
            .set_onmessage(Some(on_fresh.as_ref().unchecked_ref()));

        let interval_ticks = Ticker::new(room, |t| t.stamp(now()));

        let frames = Ticker::new(room, |t| {
            t.stamp(now());
            t.next_frame();
        });

        // Every tick the clock says is due runs, then the timer aims at
        // the next due time (whole ms, rounded up: never early).
        let start = now();
        let due = Rc::new(Cell::new(1u32));
        let clock = {
            let set = set_timeout.clone();
            Ticker::new(room, move |t| {
                let at = now();
                while start + f64::from(due.get()) * interval <= at {
                    t.stamp(at);
                    due.set(due.get() + 1);
                }
                let next = start + f64::from(due.get()) * interval;
                t.set(&set, (next - now()).max(0.0).ceil());
            })
        };

        let message = Ticker::new(room, |t| t.stamp(now()));
        worker_port.set_onmessage(Some(message.1.as_ref().unchecked_ref()));
        worker_port.start();

        nested.0.set(&set_timeout, interval);
        fresh_ticks.0.set(&set_timeout, interval);
        interval_ticks
            .0
            .set(&timer_function("setInterval"), interval);
        frames.0.next_frame();
        clock.0.set(&set_timeout, interval);

        for (way, (ticker, closure), clear) in [
            (Keeper::PageNested, nested, &clear_timeout),
            (Keeper::PageFresh, fresh_ticks, &clear_timeout),
            (Keeper::PageInterval, interval_ticks, &clear_timeout),
            (Keeper::PageFrame, frames, &cancel_frame),
            (Keeper::PageClock, clock, &clear_timeout),
            (Keeper::PageMessage, message, &clear_timeout),
        ] {
            ways.push((way, ticker, clear.clone()));
            closures.push(closure);
        }
        closures.push(on_fresh);
        Ok(PageWays {
            ways,
            fresh,
            worker_port,
            _closures: closures,
        })
    }

    /// Stops every way and gives each one's ticks, `performance.now()`.
    pub fn finish(self) -> Vec<(Keeper, Vec<f64>)> {
        self.stop();
        self.ways
            .iter()
            .map(|(way, ticker, _)| (*way, ticker.stamps.take()))
            .collect()
    }

    fn stop(&self) {
        for (_, ticker, clear) in &self.ways {
            ticker.stop(clear);
        }
        self.fresh.port2().set_onmessage(None);
        self.worker_port.set_onmessage(None);
    }
}

impl Drop for PageWays {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Tells a worker's `setTimeout` chain through its port to end its window
/// now.
pub fn stop_worker_chain(port: &MessagePort) {
    let _ = port.post_message(&JsValue::TRUE);
}

/// Tells a worker blocking in `Atomics.wait` on `slots` to end its window
/// now.
pub fn stop_worker_wait(slots: &Slots) {
    slots.store_and_notify(0, 1);
}

/// Serves experiment 10's worker job: ticks until the window closes (or
/// the page ends it), answered with `Done` and the ticks' times.
pub(crate) fn serve(job: Ticking) {
    match job.way {
        Keeper::WorkerTimeout => chain(job),
        Keeper::WorkerAtomics => {
            let samples_ms = blocking(&job);
            finish(samples_ms);
        }
        other => worker_scope::post(&FromWorker::Done {
            job: 0,
            outcome: WorkerOutcome::Failed {
                message: format!("{} does not run in a worker", other.id()),
            },
        }),
    }
}

/// The job's one reply: its ticks' times, or why there are none.
fn finish(ticks: Result<Vec<f64>, String>) {
    let outcome = match ticks {
        Ok(samples_ms) => WorkerOutcome::Samples { samples_ms },
        Err(message) => WorkerOutcome::Failed { message },
    };
    worker_scope::post(&FromWorker::Done { job: 0, outcome });
}

/// A `setTimeout` chain in the worker until the window closes or a
/// message on its port ends it; each tick posts on the port first when
/// the page asked to be woken.
fn chain(job: Ticking) {
    let port = worker_scope::port();
    let set = timer_function("setTimeout");
    let interval = f64::from(job.interval_ms);
    let (wake, until) = (job.wake_page.then(|| port.clone()).flatten(), job.until_ms);
    let (ticker, closure) = Ticker::new(job.most as usize, move |t| {
        let at = epoch_now();
        t.stamp(at);
        if let Some(port) = &wake {
            let _ = port.post_message(&JsValue::NULL);
        }
        if t.stopped.get() || at >= until {
            t.stopped.set(true);
            finish(Ok(t.stamps.take()));
        } else {
            t.set(&set, interval);
        }
    });
    if let Some(port) = port {
        let stop = ticker.clone();
        let on_stop = Closure::<dyn FnMut()>::new(move || stop.stopped.set(true));
        port.set_onmessage(Some(on_stop.as_ref().unchecked_ref()));
        // The worker is ended with its run; so are these.
        on_stop.forget();
    }
    ticker.set(&timer_function("setTimeout"), interval);
    closure.forget();
}

/// `Atomics.wait` for the interval, over and over, until the window
/// closes or the page stores a stop in slot 0.
fn blocking(job: &Ticking) -> Result<Vec<f64>, String> {
    let slots = worker_scope::needed_slots()?;
    let mut ticks = Vec::with_capacity(job.most as usize);
    let interval = f64::from(job.interval_ms);
    loop {
        if memory::wait(slots.ints(), 0, 0, interval)? == WaitEnd::NotEqual {
            return Ok(ticks);
        }
        let at = epoch_now();
        if ticks.len() < ticks.capacity() {
            ticks.push(at);
        }
        if at >= job.until_ms || slots.load(0) != 0 {
            return Ok(ticks);
        }
    }
}
