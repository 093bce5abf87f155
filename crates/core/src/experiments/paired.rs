//! The shape experiments 4 and 6 share: two threads (workers in the
//! browser), one that sets or cancels and one that waits, measured round
//! by round for each way of waiting, on one time base (the clocks' skew
//! added to every raw time); and its link section.

use crate::bytes::Bytes;
use crate::link::codec::LinkError;
use crate::link::wire::{Reader, Section, Writer};
use crate::outcome::StrategyOutcome;
use crate::strategies::Way;
use serde::{Deserialize, Serialize};

/// A configuration of rounds, each way of waiting measured that many
/// times.
pub trait Rounds {
    /// Rounds per way of waiting.
    fn rounds(&self) -> u32;
}

/// Implements [`Rounds`] for configurations whose `rounds` field it is.
macro_rules! rounds {
    ($($config:ty),+) => {
        $(impl $crate::experiments::paired::Rounds for $config {
            fn rounds(&self) -> u32 {
                self.rounds
            }
        })+
    };
}

pub(crate) use rounds;

/// Results of a paired experiment: the configuration `C`, the skew, and
/// each way of waiting `S`'s times.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Paired<C, S> {
    /// The configuration that was run.
    pub config: C,
    /// Measured skew of the setting thread's clock against the waiting
    /// thread's, ms (added to every raw time); `None` when it could not
    /// be measured (no shared memory).
    pub skew_ms: Option<f64>,
    /// One result per way of waiting.
    pub results: Vec<StrategyOutcome<S>>,
}

impl<C, S: Way> Paired<C, S> {
    /// The median time of the first way `pick` chooses, ms, if measured.
    pub fn p50_of(&self, pick: impl Fn(S) -> bool) -> Option<f64> {
        let picked = self.results.iter().find(|r| pick(r.strategy));
        picked.and_then(|r| r.outcome.summary()).map(|s| s.p50)
    }
}

/// The configuration, the skew, and each way's sketch.
impl<C: Bytes + Rounds, S: Way> Section for Paired<C, S> {
    fn write(&self, w: &mut Writer) {
        self.config.write(w);
        w.maybe_q(self.skew_ms);
        let rounds = self.config.rounds();
        w.ways(
            &self.results,
            |r| r.strategy,
            |w, r| w.outcome(&r.outcome, rounds),
        );
    }

    fn read(r: &mut Reader<'_>) -> Result<Self, LinkError> {
        let config = C::read(r)?;
        let skew_ms = r.maybe_q()?;
        let results = r.ways(|r, strategy| {
            let outcome = r.latencies(config.rounds())?;
            Ok(StrategyOutcome { strategy, outcome })
        })?;
        Ok(Paired {
            config,
            skew_ms,
            results,
        })
    }
}
