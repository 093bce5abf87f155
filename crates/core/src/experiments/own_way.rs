//! A reader's own way of waiting as a report keeps it (experiments 1 and
//! 4): the code, the built-in way it was judged against (a cell's key, a
//! strategy), the sandbox clock's step and its times, and (experiment 1's)
//! whether it held its thread while it waited; and how a link carries it,
//! which its experiment's section calls.

use crate::link::codec::{LinkError, damaged};
use crate::link::wire::{Reader, Writer};
use crate::outcome::Outcome;
use serde::{Deserialize, Serialize};

/// The most characters of code a way holds (the page sends, a link
/// carries).
pub const MOST_CODE_CHARS: usize = 8_000;

/// How many calls of a timed wait the sandbox makes, before the timed
/// ones, each asking for at least 10 ms with a task of its own queued
/// beside it (`www/own-wait.js`).
pub const TASK_PROBES: u32 = 5;

/// Whether a timed wait let its thread run other tasks while it waited:
/// of `of` calls, each with a task queued just before it, the task ran
/// before the call ended in `ran_in`. A busy wait holds its thread (0 of
/// 5); a wait on a timer or a message lets the task run (5 of 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct OtherTasks {
    /// The calls during which the queued task ran.
    pub ran_in: u32,
    /// The calls made so ([`TASK_PROBES`]).
    pub of: u32,
}

impl OtherTasks {
    /// `ran_in` of `of`, if a count the sandbox can give.
    pub fn new(ran_in: u32, of: u32) -> Option<OtherTasks> {
        (of == TASK_PROBES && ran_in <= of).then_some(OtherTasks { ran_in, of })
    }
}

/// A reader's own way of waiting, timed beside the built-in ways `K` of
/// a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OwnWay<K> {
    /// JavaScript, at most [`MOST_CODE_CHARS`] characters. Text to show,
    /// never markup.
    pub code: String,
    /// The built-in way it was judged against (one of the run's).
    pub against: K,
    /// The smallest step of the sandbox's clock, ms.
    pub step_ms: f64,
    /// Its times, in call order.
    pub outcome: Outcome,
    /// Whether other tasks ran while it waited (experiment 1's; `None`
    /// for a pair, and in links and reports made before it was counted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_tasks: Option<OtherTasks>,
}

impl<K: Copy + PartialEq> OwnWay<K> {
    /// Writes it: the code, `against` by `key`, the step and its times
    /// (a sketch, tagged against the run's `usual_n`), then the calls in
    /// which other tasks ran, if counted (its section's flag says so).
    pub(crate) fn write(&self, w: &mut Writer, usual_n: u32, key: impl FnOnce(&mut Writer, K)) {
        w.long_text(&self.code, MOST_CODE_CHARS);
        key(w, self.against);
        w.q(self.step_ms);
        w.outcome(&self.outcome, usual_n);
        if let Some(tasks) = self.other_tasks {
            w.uvar(u64::from(tasks.ran_in));
        }
    }

    /// Reads what [`OwnWay::write`] wrote, `against` by `key` and one of
    /// `ways` (the run's measured ones); its times never below zero and
    /// no more than `usual_n`; the calls in which other tasks ran where
    /// `counted`.
    pub(crate) fn read(
        r: &mut Reader<'_>,
        usual_n: u32,
        key: impl FnOnce(&mut Reader<'_>) -> Result<K, LinkError>,
        ways: impl IntoIterator<Item = K>,
        counted: bool,
    ) -> Result<OwnWay<K>, LinkError> {
        let code = r.long_text(MOST_CODE_CHARS)?;
        let against = key(r)?;
        if !ways.into_iter().any(|k| k == against) {
            return damaged("a way judged against no way of the run");
        }
        let step_ms = r.q()?;
        if !(0.0..=1.0).contains(&step_ms) {
            return damaged("an impossible clock step");
        }
        let mut outcome = r.outcome(usual_n)?;
        outcome.floor_at_zero();
        if outcome.summary().is_some_and(|s| s.n > usual_n) {
            return damaged("more calls than the run's count");
        }
        let other_tasks = if counted {
            let ran_in = r.upto(u64::from(TASK_PROBES))?;
            Some(OtherTasks {
                ran_in,
                of: TASK_PROBES,
            })
        } else {
            None
        };
        Ok(OwnWay {
            code,
            against,
            step_ms,
            outcome,
            other_tasks,
        })
    }
}
