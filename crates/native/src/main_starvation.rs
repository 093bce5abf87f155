//! Experiment 2a natively: a current-thread runtime stands in for the
//! page's main thread: jobs that block it in `std::thread::sleep` versus
//! jobs awaiting tokio's timer, with a 60 Hz ticker task as the animation
//! and two probes queued behind the batch.
//!
//! Progress is reported once a run is done, never while its jobs are
//! timed, and the frame record is allocated before the batch starts.

use crate::{Native, Progress, ms_since, runtime, trace};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use waitlab_core::experiments::JobMode;
use waitlab_core::experiments::main_starvation::{MainConfig, MainRun, MainStarvation};
use waitlab_core::key;
use waitlab_core::trace::{Kind, Name};

/// The ticker's period: one frame at 60 Hz.
const FRAME: Duration = Duration::from_micros(16_667);
/// How long frames are recorded after the batch.
const AFTER_BATCH: Duration = Duration::from_millis(50);

/// One job: waits `wait` by `mode`.
pub(crate) async fn job(mode: JobMode, wait: Duration) {
    match mode {
        JobMode::Blocking => std::thread::sleep(wait),
        JobMode::Async => tokio::time::sleep(wait).await,
    }
}

fn main_run(config: &MainConfig, mode: JobMode) -> MainRun {
    let wait = Duration::from_millis(u64::from(config.wait_ms));
    let jobs = config.jobs;
    // Room for a frame every FRAME over the batch the article predicts and
    // the time after it, so recording a frame does not allocate.
    let frames_expected =
        (config.expected_batch_ms(mode) / 1000.0 + AFTER_BATCH.as_secs_f64()) / FRAME.as_secs_f64();
    let frames_room = frames_expected.ceil() as usize + 2;
    runtime::current_thread().block_on(async move {
        let start = Instant::now();
        let frames = Arc::new(Mutex::new(Vec::with_capacity(frames_room)));
        let ticker = tokio::spawn({
            let frames = Arc::clone(&frames);
            async move {
                let mut every = tokio::time::interval(FRAME);
                every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
                loop {
                    every.tick().await;
                    frames.lock().expect("frames lock").push(ms_since(start));
                }
            }
        });
        let handles: Vec<_> = (0..jobs)
            .map(|_| {
                tokio::spawn(async move {
                    let began = ms_since(start);
                    job(mode, wait).await;
                    (began, ms_since(start))
                })
            })
            .collect();
        let timer = tokio::spawn(async move {
            tokio::time::sleep(Duration::ZERO).await;
            ms_since(start)
        });
        let message = tokio::spawn(async move { ms_since(start) });
        let mut spans = Vec::with_capacity(jobs as usize);
        for h in handles {
            spans.push(h.await.expect("jobs do not panic"));
        }
        let batch_ms = spans.iter().map(|s| s.1).fold(0.0, f64::max);
        let timer_queue_wait_ms = timer.await.expect("the timer probe does not panic");
        let message_queue_wait_ms = message.await.expect("the task probe does not panic");
        tokio::time::sleep(AFTER_BATCH).await;
        ticker.abort();
        let frames_ms = std::mem::take(&mut *frames.lock().expect("frames lock"));
        on_timeline(
            mode,
            config,
            start,
            &spans,
            &frames_ms,
            [timer_queue_wait_ms, message_queue_wait_ms],
        );
        MainRun {
            mode,
            batch_ms,
            timer_queue_wait_ms,
            message_queue_wait_ms,
            frames_ms,
        }
    })
}

/// The thread that stands for the page's main thread, on the timeline.
const LANE: &str = "main thread starved: a current-thread runtime";

/// A batch on the timeline, once it is over: its jobs (holding the thread
/// or not), the two probes queued behind it, and the ticker's frames.
fn on_timeline(
    mode: JobMode,
    config: &MainConfig,
    start: Instant,
    jobs: &[(f64, f64)],
    frames_ms: &[f64],
    probes: [f64; 2],
) {
    let kind = Kind::waiting(!mode.is_async());
    let job = Name::ms(key!("timeline.name.job"), config.wait_ms);
    let probes = [
        key!("timeline.name.timer_probe"),
        key!("timeline.name.message_probe"),
    ]
    .into_iter()
    .zip(probes)
    .map(|(probe, at)| (Kind::Queued, Name::of(probe), 0.0, at));
    let jobs = jobs.iter().map(|&(from, to)| (kind, job, from, to));
    trace::spans_since(LANE, start, jobs.chain(probes));
    trace::frames(LANE, start, frames_ms);
}

impl Native for MainStarvation {
    /// Runs experiment 2a with `config`, blocking first.
    fn run(config: &MainConfig, tick: &Progress) -> MainStarvation {
        let name = |mode: JobMode| format!("current-thread runtime, {} jobs", mode.name());
        let runs = crate::each(&JobMode::ALL, tick, config.jobs, name, |mode| {
            main_run(config, mode)
        });
        MainStarvation {
            config: config.clone(),
            runs,
        }
    }

    /// Units of progress: each job of each mode.
    fn units(config: &MainConfig) -> u64 {
        2 * u64::from(config.jobs)
    }
}
