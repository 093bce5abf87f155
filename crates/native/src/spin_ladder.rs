//! Experiment 3 natively: the `SpinOnce` ladder on an OS thread, with the
//! core's calibrated spins (`std::hint::spin_loop`, the CPU's pause
//! instruction), `std::thread::yield_now` for both yield
//! and `Sleep(0)` (a zero `std::thread::sleep` returns without a system
//! call on Unix), and `std::thread::sleep(1 ms)` for `Sleep(1)`.

use crate::{Native, Progress, ms_since, trace};
use std::convert::Infallible;
use std::time::{Duration, Instant};
use waitlab_core::experiments::spin_ladder::{self, LadderConfig, SpinLadder, Step};
use waitlab_core::key;
use waitlab_core::trace::{Kind, Name};

/// One yield or sleep of the ladder (the core does the spins).
fn rest(step: Step) -> Result<(), Infallible> {
    if step == Step::Sleep1 {
        std::thread::sleep(Duration::from_millis(1));
    } else {
        std::thread::yield_now();
    }
    Ok(())
}

impl Native for SpinLadder {
    /// Runs experiment 3 with `config`.
    fn run(config: &LadderConfig, tick: &Progress) -> SpinLadder {
        tick.set_message(format!(
            "{} ladders of {} SpinOnce calls, then two spin-untils of {} ms",
            config.repeats, config.steps, config.spin_until_ms
        ));
        let origin = Instant::now();
        let resolution = crate::env::clock().map_or(0.001, |c| c.resolution_ms());
        let result = spin_ladder::measure(config, &|| ms_since(origin), resolution, &rest, None);
        let ladder = Name::of(key!("timeline.name.ladder"));
        trace::spans(
            "spin ladder: the main thread",
            [(Kind::Busy, ladder, origin, Instant::now())],
        );
        tick.inc(Self::units(config));
        match result {
            Ok(ladder) => ladder,
            Err(never) => match never {},
        }
    }

    /// Units of progress of a run.
    fn units(config: &LadderConfig) -> u64 {
        u64::from(config.repeats)
    }
}
