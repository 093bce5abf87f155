//! The shape experiments 4 and 6 share: two threads (workers in the
//! browser), one that sets or cancels and one that waits, measured round
//! by round for each way of waiting, on one time base (the clocks' skew
//! added to every raw time); and its link section.

use crate::bytes::Bytes;
use crate::experiments::own_way::OwnWay;
use crate::link::codec::{LinkError, damaged};
use crate::link::wire::{Reader, Section, Writer};
use crate::outcome::StrategyOutcome;
use crate::strategies::Way;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

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
    /// A reader's own pair of waiter and setter, timed beside the ways in
    /// the reader's browser (experiment 4's), shared when cloned.
    #[serde(default = "Option::default", skip_serializing_if = "Option::is_none")]
    pub own: Option<Arc<OwnWay<S>>>,
}

impl<C, S: Way> Paired<C, S> {
    /// The median time of the first way `pick` chooses, ms, if measured.
    pub fn p50_of(&self, pick: impl Fn(S) -> bool) -> Option<f64> {
        let picked = self.results.iter().find(|r| pick(r.strategy));
        picked.and_then(|r| r.outcome.summary()).map(|s| s.p50)
    }
}

/// The skew's byte: whether a skew follows, and (since a reader's own
/// pair came) whether an own way ends the section; links made before
/// read as they did.
const SKEW: u8 = 1;
const OWN: u8 = 2;

/// The configuration, the skew, each way's sketch, and the reader's own
/// way if there is one.
impl<C: Bytes + Rounds, S: Way + PartialEq> Section for Paired<C, S> {
    fn write(&self, w: &mut Writer) {
        self.config.write(w);
        let own = if self.own.is_some() { OWN } else { 0 };
        w.byte(if self.skew_ms.is_some() { SKEW } else { 0 } | own);
        if let Some(skew) = self.skew_ms {
            w.q(skew);
        }
        let rounds = self.config.rounds();
        w.ways(
            &self.results,
            |r| r.strategy,
            |w, r| w.outcome(&r.outcome, rounds),
        );
        if let Some(own) = &self.own {
            own.write(w, rounds, |w, s| w.byte(s.code()));
        }
    }

    fn read(r: &mut Reader<'_>) -> Result<Self, LinkError> {
        let config = C::read(r)?;
        let flags = r.byte()?;
        if flags & !(SKEW | OWN) != 0 {
            return damaged("a bad flag");
        }
        let skew_ms = if flags & SKEW != 0 {
            Some(r.q()?)
        } else {
            None
        };
        let results = r.ways(|r, strategy| {
            let outcome = r.latencies(config.rounds())?;
            Ok(StrategyOutcome { strategy, outcome })
        })?;
        let own = if flags & OWN != 0 {
            let key = |r: &mut Reader<'_>| {
                S::from_code(r.byte()?).ok_or(LinkError::Damaged("an unknown way of waiting"))
            };
            let ways = results.iter().map(|r| r.strategy);
            Some(Arc::new(OwnWay::read(
                r,
                config.rounds(),
                key,
                ways,
                false,
            )?))
        } else {
            None
        };
        Ok(Paired {
            config,
            skew_ms,
            results,
            own,
        })
    }
}
