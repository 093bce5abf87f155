//! A reader's own way of waiting as a report keeps it (experiments 1 and
//! 4): the code, the built-in way it was judged against (a cell's key, a
//! strategy), the sandbox clock's step and its times; and how a link
//! carries it, which its experiment's section calls.

use crate::link::codec::{LinkError, damaged};
use crate::link::wire::{Reader, Writer};
use crate::outcome::Outcome;
use serde::{Deserialize, Serialize};

/// The most characters of code a way holds (the page sends, a link
/// carries).
pub const MOST_CODE_CHARS: usize = 8_000;

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
}

impl<K: Copy + PartialEq> OwnWay<K> {
    /// Writes it: the code, `against` by `key`, the step and its times
    /// (a sketch, tagged against the run's `usual_n`).
    pub(crate) fn write(&self, w: &mut Writer, usual_n: u32, key: impl FnOnce(&mut Writer, K)) {
        w.long_text(&self.code, MOST_CODE_CHARS);
        key(w, self.against);
        w.q(self.step_ms);
        w.outcome(&self.outcome, usual_n);
    }

    /// Reads what [`OwnWay::write`] wrote, `against` by `key` and one of
    /// `ways` (the run's measured ones); its times never below zero and
    /// no more than `usual_n`.
    pub(crate) fn read(
        r: &mut Reader<'_>,
        usual_n: u32,
        key: impl FnOnce(&mut Reader<'_>) -> Result<K, LinkError>,
        ways: impl IntoIterator<Item = K>,
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
        Ok(OwnWay {
            code,
            against,
            step_ms,
            outcome,
        })
    }
}
