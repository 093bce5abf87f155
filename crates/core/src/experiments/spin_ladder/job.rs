//! Experiment 3's worker job: walk the `SpinOnce` ladder and run the
//! spin-untils (its [`LadderConfig`]), answered with a `Reply` of the
//! measured [`SpinLadder`].

use super::{LadderConfig, SpinCalibration, SpinLadder, SpinUntil, Step, StepCost, Turn};
use crate::protocol::job::{Job, message};

impl Job for LadderConfig {
    const OF: &'static str = "spin_ladder";

    fn longest_silence_ms(&self) -> u32 {
        self.longest_ms()
    }
}

message! {
    struct SpinLadder { config, steps, spin_until, calibration, bare }
}

message! {
    struct StepCost { count, step, p50_ms, max_ms, block }
}

message! {
    enum Step else "an unknown step" {
        0 => Spin { units },
        1 => Yield {},
        2 => Sleep0 {},
        3 => Sleep1 {},
    }
}

message! {
    struct SpinUntil { sleep_stage, wall_ms, busy_ms, calls }
}

message! {
    struct SpinCalibration { turns_per_unit, unit_ns, turn }
}

message! {
    enum Turn else "an unknown turn" {
        0 => Loop {},
        1 => Pause {},
    }
}
