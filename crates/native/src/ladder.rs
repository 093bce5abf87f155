//! Experiment 3 natively: the `SpinOnce` ladder on an OS thread, with
//! `std::hint::spin_loop` spins, `std::thread::yield_now` for both yield
//! and `Sleep(0)` (a zero `std::thread::sleep` returns without a system
//! call on Unix), and `std::thread::sleep(1 ms)` for `Sleep(1)`.

use crate::{Progress, ms_since};
use std::convert::Infallible;
use std::time::{Duration, Instant};
use waitlab_core::ladder::{self, LadderConfig, SpinLadder, Step};

fn perform(step: Step) -> Result<(), Infallible> {
    match step {
        Step::Spin { units } => ladder::spin(units),
        Step::Yield | Step::Sleep0 => std::thread::yield_now(),
        Step::Sleep1 => std::thread::sleep(Duration::from_millis(1)),
    }
    Ok(())
}

/// Units of progress of a run.
pub fn units(config: &LadderConfig) -> u64 {
    u64::from(config.repeats)
}

/// Runs experiment 3 with `config`.
pub fn run(config: &LadderConfig, tick: &Progress) -> SpinLadder {
    tick.set_message(format!(
        "{} ladders of {} SpinOnce calls, then two spin-untils of {} ms",
        config.repeats, config.steps, config.spin_until_ms
    ));
    let origin = Instant::now();
    let resolution = crate::env::clock().map_or(0.001, |c| c.resolution_ms());
    let result = ladder::measure(config, &|| ms_since(origin), resolution, &perform);
    tick.inc(units(config));
    match result {
        Ok(ladder) => ladder,
        Err(never) => match never {},
    }
}
