//! Experiment 3's probe: the `SpinOnce` ladder in a worker.

use crate::{clock::now, memory, trace};
use waitlab_core::experiments::spin_ladder::{self, LadderConfig, SpinLadder, Step};
use waitlab_core::key;
use waitlab_core::protocol::shared_slots;
use waitlab_core::trace::{Kind, Name};

/// Performs one `SpinOnce` yield or sleep in a worker (the core does the
/// spins, with its calibrated busy loop).
fn ladder_rest(step: Step, memory: &js_sys::Int32Array) -> Result<(), String> {
    let ms = if step == Step::Sleep1 { 1.0 } else { 0.0 };
    memory::wait(memory, shared_slots::SLEEP, 0, ms).map(drop)
}

/// Walks the `SpinOnce` ladder `config.repeats` times and runs the two
/// spin-untils, in a worker with shared memory, each spin's turn an
/// `Atomics.pause()` where the browser has it. Blocks the worker
/// throughout.
pub fn measure_ladder(
    config: &LadderConfig,
    memory: Option<&js_sys::Int32Array>,
) -> Result<SpinLadder, String> {
    let memory = memory.ok_or(memory::NOT_SHARED)?;
    // The worker's own clock decides how many calls a timed block needs.
    let resolution = crate::clock::measure_granularity(10.0).map_or(0.1, |c| c.resolution_ms());
    let began = now();
    let rest = |s| ladder_rest(s, memory);
    let ladder = spin_ladder::measure(config, &now, resolution, &rest, memory::pause_hint());
    let name = Name::of(key!("timeline.name.ladder"));
    trace::span(Kind::Busy, name, began, now());
    ladder
}

/// Serves experiment 3's worker job: the ladder, answered with a reply of
/// the measured [`SpinLadder`] (or why it could not run).
pub(crate) fn serve(config: LadderConfig) {
    trace::ready();
    let result = measure_ladder(&config, crate::worker_scope::memory().as_ref());
    crate::worker_scope::post(&waitlab_core::protocol::FromWorker::reply(&result));
}
