//! Experiment 1 natively: `std::thread::sleep`, tokio's timer and the two
//! yields, each timed back to back.
//!
//! Between a sample's two clock readings runs the wait alone: the samples
//! go into a buffer allocated before the first one, and progress is
//! reported once a cell is done.

use crate::{Cli, Native, Progress, ms_since, runtime, trace};
use std::time::{Duration, Instant};
use waitlab_core::experiments::Config;
use waitlab_core::experiments::timed_waits::{Cell, NestedChain, TimedWaits};
use waitlab_core::experiments::timed_waits::{CellKey, Mechanism, TimedWaitsConfig};
use waitlab_core::outcome::Outcome;
use waitlab_core::sampling::Sampling;

/// Samples, ms, and when each began (for the timeline).
type Timed = (Vec<f64>, Vec<Instant>);

/// `samples` back-to-back timings of `wait` on this thread, ms.
fn time_each(samples: usize, wait: impl Fn()) -> Timed {
    let (mut out, mut began) = (Vec::with_capacity(samples), Vec::with_capacity(samples));
    for _ in 0..samples {
        let t = Instant::now();
        wait();
        out.push(ms_since(t));
        began.push(t);
    }
    (out, began)
}

/// Every sample of `key`, ms. Tokio probes run inside a task on the
/// multi-thread runtime, as awaited code would.
fn sample_all(key: CellKey, samples: u32, rt: &tokio::runtime::Runtime) -> Timed {
    let d = Duration::from_millis(u64::from(key.requested_ms.unwrap_or(0)));
    let n = samples as usize;
    match key.mechanism {
        Mechanism::ThreadSleep => time_each(n, || std::thread::sleep(d)),
        Mechanism::ThreadYield => time_each(n, std::thread::yield_now),
        Mechanism::TokioSleep | Mechanism::TokioYield => {
            let sleep = key.mechanism == Mechanism::TokioSleep;
            rt.block_on(async move {
                tokio::spawn(async move {
                    let (mut out, mut began) = (Vec::with_capacity(n), Vec::with_capacity(n));
                    for _ in 0..n {
                        let t = Instant::now();
                        if sleep {
                            tokio::time::sleep(d).await;
                        } else {
                            tokio::task::yield_now().await;
                        }
                        out.push(ms_since(t));
                        began.push(t);
                    }
                    (out, began)
                })
                .await
                .expect("the probe task does not panic")
            })
        }
        other => unreachable!("{} is not a native probe", other.id()),
    }
}

impl Native for TimedWaits {
    fn config(cli: &Cli) -> TimedWaitsConfig {
        // The native probe takes a fixed count of each of its own
        // mechanisms (`std` and tokio).
        let c = TimedWaitsConfig {
            mechanisms: Mechanism::NATIVE.to_vec(),
            sampling: Sampling::Fixed,
            ..TimedWaitsConfig::default()
        };
        if cli.quick { c.quick() } else { c }
    }

    /// Runs experiment 1 with `config`.
    fn run(config: &TimedWaitsConfig, tick: &Progress) -> TimedWaits {
        let rt = runtime::multi_thread(crate::env::cores());
        let cells = config
            .cells()
            .into_iter()
            .map(|key| {
                tick.set_message(crate::words(&key.label()));
                let (samples, began) = sample_all(key, config.samples, &rt);
                let lane = match key.mechanism {
                    Mechanism::TokioSleep | Mechanism::TokioYield => "timed waits: a tokio task",
                    _ => "timed waits: the main thread",
                };
                let (kind, name) = key.mechanism.timeline(key.requested_ms);
                trace::spans(
                    lane,
                    began
                        .iter()
                        .zip(&samples)
                        .map(|(&t, &ms)| (kind, name, t, t + Duration::from_secs_f64(ms / 1000.0))),
                );
                tick.inc(u64::from(config.samples));
                let outcome = Outcome::of_samples(samples);
                Cell { key, outcome }
            })
            .collect();
        TimedWaits {
            config: config.clone(),
            cells,
            chain: NestedChain { levels: Vec::new() },
            own: None,
        }
    }

    /// Units of progress of a run.
    fn units(config: &TimedWaitsConfig) -> u64 {
        config.cells().len() as u64 * u64::from(config.samples)
    }
}
