//! Runs experiment 2a: a batch of jobs on the page's main thread, blocking
//! versus awaiting a timer, while animation frames are recorded.
//!
//! Jobs are queued the way a pool's work items are: each blocking job is a
//! `setTimeout(0)` task that busy-waits T ms; each async job is a spawned
//! future that awaits `setTimeout(T)`. Right after the batch a probe
//! `setTimeout(0)` and a probe `MessageChannel` message are queued; their
//! waits are the article's "a new item waited 17 s". If the run is
//! cancelled, jobs not yet started see the flag and return at once.

use crate::runner::{Publish, Reporter, RunScope};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use waitlab_browser::clock::{busy_wait_until, now};
use waitlab_browser::page::AnimationLoop;
use waitlab_browser::{trace, wait};
use waitlab_core::experiments::JobMode;
use waitlab_core::experiments::main_starvation::{MainConfig, MainRun, MainStarvation};
use waitlab_core::key;
use waitlab_core::schema::Report;
use waitlab_core::text::Phrase;
use waitlab_core::trace::{Kind, Name};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;

/// How long the page watches frames before and after a batch, ms.
const SETTLE_MS: u32 = 150;

/// Sets the flag when the run's future is dropped (cancelled or done), so
/// queued blocking jobs do not run on after the run.
struct StopOnDrop(Rc<Cell<bool>>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.set(true);
    }
}

/// What the batch's jobs and probes record.
#[derive(Default)]
struct Batch {
    finished: Cell<u32>,
    last_end: Cell<f64>,
    timer_probe: Cell<Option<f64>>,
    message_probe: Cell<Option<f64>>,
}

fn queue_message_probe(batch: &Rc<Batch>) {
    let channel = web_sys::MessageChannel::new().expect("MessageChannel exists everywhere");
    let b = batch.clone();
    let port = channel.port1();
    let on_message = Closure::once_into_js(move || b.message_probe.set(Some(now())));
    port.set_onmessage(Some(on_message.unchecked_ref()));
    let _ = channel.port2().post_message(&wasm_bindgen::JsValue::NULL);
}

async fn run_mode(
    mode: JobMode,
    config: &MainConfig,
    stop: &Rc<Cell<bool>>,
    frames: &RefCell<Vec<f64>>,
) -> MainRun {
    wait::fresh_task().await;
    wait::timeout(SETTLE_MS).await;
    let batch = Rc::new(Batch::default());
    // The frames since the last batch began go on the timeline now, before
    // this batch is timed (each frame once; the run's last, after it).
    frames_on_timeline(frames);
    let t0 = now();
    let job = Name::ms(key!("timeline.name.job"), config.wait_ms);
    for _ in 0..config.jobs {
        let (b, stop, wait_ms) = (batch.clone(), stop.clone(), config.wait_ms);
        match mode {
            JobMode::Blocking => {
                gloo_timers::callback::Timeout::new(0, move || {
                    let start = now();
                    if !stop.get() {
                        busy_wait_until(start + f64::from(wait_ms));
                    }
                    let end = now();
                    b.last_end.set(end);
                    b.finished.set(b.finished.get() + 1);
                    trace::span(Kind::Holding, job, start, end);
                })
                .forget();
            }
            JobMode::Async => wasm_bindgen_futures::spawn_local(async move {
                let start = now();
                wait::timeout(wait_ms).await;
                let end = now();
                b.last_end.set(end);
                b.finished.set(b.finished.get() + 1);
                trace::span(Kind::Free, job, start, end);
            }),
        }
    }
    let queued = now();
    let b = batch.clone();
    gloo_timers::callback::Timeout::new(0, move || b.timer_probe.set(Some(now()))).forget();
    queue_message_probe(&batch);
    while batch.finished.get() < config.jobs
        || batch.timer_probe.get().is_none()
        || batch.message_probe.get().is_none()
    {
        wait::timeout(5).await;
    }
    wait::timeout(SETTLE_MS).await;
    // On the timeline, once the batch is over: how long the two probes
    // queued behind it, and the frames the page drew.
    for (probe, at) in [
        (key!("timeline.name.timer_probe"), batch.timer_probe.get()),
        (
            key!("timeline.name.message_probe"),
            batch.message_probe.get(),
        ),
    ] {
        trace::span(Kind::Queued, Name::of(probe), queued, at.unwrap_or(queued));
    }
    let frames_ms = frames
        .borrow()
        .iter()
        .map(|f| f - t0)
        .filter(|&f| f >= 0.0)
        .collect();
    MainRun {
        mode,
        batch_ms: batch.last_end.get() - t0,
        timer_queue_wait_ms: batch.timer_probe.get().unwrap_or(queued) - queued,
        message_queue_wait_ms: batch.message_probe.get().unwrap_or(queued) - queued,
        frames_ms,
    }
}

/// Puts the frames drawn so far on the timeline, and forgets them.
fn frames_on_timeline(frames: &RefCell<Vec<f64>>) {
    for f in frames.borrow_mut().drain(..) {
        trace::frame(f);
    }
}

/// Runs experiment 2a with `config`, blocking mode first.
async fn run_main_starvation(config: MainConfig, publish: Publish) -> Report {
    let scope = RunScope::begin();
    let stop = Rc::new(Cell::new(false));
    let _stop_on_drop = StopOnDrop(stop.clone());
    let frames = Rc::new(RefCell::new(Vec::new()));
    let _frames = AnimationLoop::start({
        let frames = frames.clone();
        move |t| frames.borrow_mut().push(t)
    });
    let reporter = Reporter::new(publish, JobMode::ALL.len() as u32);
    let mut runs = Vec::new();
    for mode in JobMode::ALL {
        reporter.update(|p| {
            p.main = Some(
                Phrase::new(key!("main_starvation.progress"))
                    .count("jobs", config.jobs)
                    .phrase("mode", mode.label())
                    .count("wait", config.wait_ms),
            )
        });
        runs.push(run_mode(mode, &config, &stop, &frames).await);
        reporter.update(|p| p.done += 1);
    }
    frames_on_timeline(&frames);
    scope.finish(|r| r.main_starvation = Some(MainStarvation { config, runs }))
}

crate::runner::chunks::runner!(MainConfig, main_starvation, run_main_starvation);
