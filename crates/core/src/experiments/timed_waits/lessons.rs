//! Experiment 1's lessons: a timed wait is a minimum, not a promise; and
//! awaiting what is already done does not yield.

use super::{CellKey, Mechanism, NestedChain, TimedWaits};
use crate::clock::ClockInfo;
use crate::lesson::{Article, Minimum, Pair, Reading, lessons};

lessons! {
    TimedWaits {
        /// A timed wait is a minimum, not a promise.
        TIMED_WAIT_MINIMUM = "timed_wait_minimum", Article::Range("sleep_delay_overshoot") => minimum;
        /// Awaiting something already done does not yield (Task.Delay(0)).
        AWAIT_DONE_NO_YIELD = "await_done_no_yield", Article::Said("delay_zero") => no_yield;
    }
}

/// The ways a minimum shows, in order: a timer, then a sleep.
const WAYS: [Mechanism; 4] = [
    Mechanism::TimeoutFreshTask,
    Mechanism::WorkerAtomicsWait,
    Mechanism::ThreadSleep,
    Mechanism::TokioSleep,
];

/// What `timed` measured of its smallest requested wait.
fn minimum(timed: &TimedWaits, clock: Option<ClockInfo>) -> Option<Reading> {
    let tolerance = clock.map_or(0.001, |c| c.tolerance_ms());
    let requested = timed.config.durations_ms.iter().copied().find(|&d| d > 0)?;
    let took: Vec<_> = WAYS
        .into_iter()
        .filter_map(|mechanism| {
            let key = CellKey {
                mechanism,
                requested_ms: Some(requested),
            };
            let cell = timed.cells.iter().find(|c| c.key == key)?;
            Some((key.label(), cell.outcome.p50()?))
        })
        .collect();
    if took.is_empty() {
        return None;
    }
    let early = timed.cells.iter().any(|c| {
        let (Some(d), Some(s)) = (c.key.requested_ms, c.outcome.summary()) else {
            return false;
        };
        d > 0 && s.min < f64::from(d) - tolerance
    });
    Some(Reading::Minimum(Minimum {
        requested,
        took,
        early,
        clamp: timed
            .chain
            .clamp_onset(tolerance)
            .map(|level| (level, NestedChain::CLAMP_MS)),
    }))
}

/// The resolved-promise await against the quickest real yield of
/// `timed`, as a contrast whose "wrong" way is the yield: an await that
/// returns at once has let nothing else run.
fn no_yield(timed: &TimedWaits, _clock: Option<ClockInfo>) -> Option<Reading> {
    let p50 = |m: Mechanism| {
        timed
            .cells
            .iter()
            .find(|c| c.key.mechanism == m)
            .and_then(|c| c.outcome.p50())
    };
    let resolved = p50(Mechanism::ResolvedPromise)?;
    let (way, yielded) = [
        Mechanism::MessageChannel,
        Mechanism::SchedulerYield,
        Mechanism::SchedulerPostTask,
    ]
    .into_iter()
    .filter_map(|m| Some((m, p50(m)?)))
    .min_by(|a, b| a.1.total_cmp(&b.1))?;
    Some(Reading::Pair(Pair::ms(yielded, resolved).way(way.label())))
}
