//! Experiment 1 natively: `std::thread::sleep`, tokio's timer and the two
//! yields, each timed back to back.

use crate::{Progress, ms_since, runtime};
use std::time::{Duration, Instant};
use waitlab_core::probe::{CellKey, Mechanism, TimedWaitsConfig};
use waitlab_core::schema::{Cell, NestedChain, Outcome, TimedWaits};

/// One sample of `key`, ms. Tokio probes run inside a task on the
/// multi-thread runtime, as awaited code would.
fn sample_all(
    key: CellKey,
    samples: u32,
    rt: &tokio::runtime::Runtime,
    tick: &Progress,
) -> Vec<f64> {
    let d = Duration::from_millis(u64::from(key.requested_ms.unwrap_or(0)));
    let n = samples as usize;
    let on_this_thread = |wait: &dyn Fn()| {
        (0..n)
            .map(|_| {
                let t = Instant::now();
                wait();
                tick.inc(1);
                ms_since(t)
            })
            .collect()
    };
    match key.mechanism {
        Mechanism::ThreadSleep => on_this_thread(&|| std::thread::sleep(d)),
        Mechanism::ThreadYield => on_this_thread(&std::thread::yield_now),
        Mechanism::TokioSleep | Mechanism::TokioYield => {
            let sleep = key.mechanism == Mechanism::TokioSleep;
            let tick = tick.clone();
            rt.block_on(async move {
                tokio::spawn(async move {
                    let mut out = Vec::with_capacity(n);
                    for _ in 0..n {
                        let t = Instant::now();
                        if sleep {
                            tokio::time::sleep(d).await;
                        } else {
                            tokio::task::yield_now().await;
                        }
                        out.push(ms_since(t));
                        tick.inc(1);
                    }
                    out
                })
                .await
                .expect("the probe task does not panic")
            })
        }
        other => unreachable!("{} is not a native probe", other.id()),
    }
}

/// Units of progress of a run.
pub fn units(config: &TimedWaitsConfig) -> u64 {
    config.cells_of(&Mechanism::NATIVE).len() as u64 * u64::from(config.samples)
}

/// Runs experiment 1 with `config`.
pub fn run(config: &TimedWaitsConfig, tick: &Progress) -> TimedWaits {
    let rt = runtime::multi_thread(crate::env::cores());
    let cells = config
        .cells_of(&Mechanism::NATIVE)
        .into_iter()
        .map(|key| {
            tick.set_message(key.label());
            let outcome = Outcome::measured(sample_all(key, config.samples, &rt, tick))
                .unwrap_or_else(|e| Outcome::Failed {
                    message: e.to_string(),
                });
            Cell { key, outcome }
        })
        .collect();
    TimedWaits {
        config: config.clone(),
        cells,
        chain: NestedChain { levels: Vec::new() },
    }
}
