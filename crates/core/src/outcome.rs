//! What came of one measured cell: its samples and summary, or why there
//! are none. A leaf every experiment's results use.

use crate::key;
use crate::stats::{Samples, SamplesError, Summary};
use crate::text::Phrase;
use serde::{Deserialize, Serialize};

/// The outcome of one cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outcome {
    /// Measured: summary and (for runs made here) the samples.
    Measured {
        /// Statistics of the samples.
        summary: Summary,
        /// The samples, ms, in measurement order; empty when only the
        /// summary is known.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        samples_ms: Vec<f64>,
    },
    /// Not available here, with the reason shown to the reader.
    Unavailable {
        /// Why, and how to get it.
        reason: String,
    },
    /// The mechanism's own timeout never fired; a fallback ended the wait.
    TimeoutNeverFired {
        /// How long it waited before the fallback.
        waited_ms: f64,
    },
    /// The probe failed.
    Failed {
        /// What went wrong.
        message: String,
    },
}

impl Outcome {
    /// Reads every time below zero as zero: for times between two
    /// threads' stamps, which cannot end before they began
    /// ([`crate::clock::corrected_ms`]), where a link or file written before
    /// waitlab floored them still carries two clocks' disagreement (a
    /// handoff of -1 ms).
    pub fn floor_at_zero(&mut self) {
        if let Outcome::Measured {
            summary,
            samples_ms,
        } = self
        {
            for v in [
                &mut summary.min,
                &mut summary.p50,
                &mut summary.p90,
                &mut summary.p99,
                &mut summary.max,
                &mut summary.mean,
            ]
            .into_iter()
            .chain(samples_ms.iter_mut())
            {
                *v = v.max(0.0);
            }
        }
    }

    /// A measured outcome from raw samples.
    pub fn measured(samples_ms: Vec<f64>) -> Result<Outcome, SamplesError> {
        let summary = Samples::new(samples_ms.clone())?.summary();
        Ok(Outcome::Measured {
            summary,
            samples_ms,
        })
    }

    /// A probe's outcome from its raw samples: measured, or failed with
    /// why the samples were refused (none, or one not finite).
    pub fn of_samples(samples_ms: Vec<f64>) -> Outcome {
        Outcome::measured(samples_ms).unwrap_or_else(|e| Outcome::Failed {
            message: e.to_string(),
        })
    }

    /// The summary, if measured.
    pub fn summary(&self) -> Option<&Summary> {
        match self {
            Outcome::Measured { summary, .. } => Some(summary),
            _ => None,
        }
    }

    /// How far a rerun's median may lie from this one's, ms, if it was
    /// measured: as a link carried it, else from the samples in the order
    /// they were measured ([`crate::stats::rerun_spread`]); `None` for too
    /// few samples or none kept.
    pub fn spread_ms(&self) -> Option<f64> {
        match self {
            Outcome::Measured {
                summary,
                samples_ms,
            } => summary
                .spread_ms
                .or_else(|| crate::stats::rerun_spread(samples_ms)),
            _ => None,
        }
    }

    /// Its median, ms, if it was measured.
    pub fn p50(&self) -> Option<f64> {
        self.summary().map(|s| s.p50)
    }

    /// The samples a measured outcome kept (none for a run opened from a
    /// link, which carries only their sketch).
    pub fn samples(&self) -> Option<&[f64]> {
        match self {
            Outcome::Measured { samples_ms, .. } if !samples_ms.is_empty() => Some(samples_ms),
            _ => None,
        }
    }

    /// What to say of a cell that was not measured (`None` if it was).
    pub fn phrase(&self) -> Option<Phrase> {
        match self {
            Outcome::Measured { .. } => None,
            Outcome::Unavailable { reason } => Some(
                Phrase::new(key!("outcome.unavailable")).phrase("reason", reason::phrase(reason)),
            ),
            Outcome::TimeoutNeverFired { waited_ms } => {
                Some(Phrase::new(key!("outcome.never_fired")).ms("waited", *waited_ms))
            }
            Outcome::Failed { message } => {
                Some(Phrase::new(key!("outcome.failed")).phrase("message", reason::phrase(message)))
            }
        }
    }
}

/// Why a cell has no measurement: the codes an [`Outcome::Unavailable`] (or
/// a page-made [`Outcome::Failed`]) holds, which the page words
/// (`reason.*`). Data made before the codes holds English text, shown as it
/// is, as are the errors a browser gives.
pub mod reason {
    use crate::text::Key;
    use crate::text::Phrase;

    /// The page is not cross-origin isolated, so no browser lets it share
    /// memory.
    pub const NOT_ISOLATED: &str = "not_isolated";
    /// The page is isolated, yet the browser has no `SharedArrayBuffer`.
    pub const NO_SHARED_ARRAY_BUFFER: &str = "no_shared_array_buffer";
    /// A worker was asked to block without the run's shared memory.
    pub const NOT_SHARED: &str = "not_shared";
    /// The browser has no `Atomics.waitAsync`.
    pub const NO_WAIT_ASYNC: &str = "no_wait_async";
    /// The browser has no `scheduler.yield`.
    pub const NO_SCHEDULER_YIELD: &str = "no_scheduler_yield";
    /// The browser has no `scheduler.postTask`.
    pub const NO_SCHEDULER_POST_TASK: &str = "no_scheduler_post_task";
    /// A native probe asked of a browser.
    pub const NATIVE_ONLY: &str = "native_only";
    /// A cell the run did not get to.
    pub const NOT_MEASURED: &str = "not_measured";
    /// A cell the run did not get to, as it stopped first.
    pub const NOT_MEASURED_STOPPED: &str = "not_measured_stopped";
    /// The page stayed visible: nothing was measured hidden.
    pub const NOT_HIDDEN: &str = "not_hidden";
    /// Every code.
    pub const ALL: [&str; 10] = [
        NOT_ISOLATED,
        NO_SHARED_ARRAY_BUFFER,
        NOT_SHARED,
        NO_WAIT_ASYNC,
        NO_SCHEDULER_YIELD,
        NO_SCHEDULER_POST_TASK,
        NATIVE_ONLY,
        NOT_MEASURED,
        NOT_MEASURED_STOPPED,
        NOT_HIDDEN,
    ];

    /// The words for `reason`: its catalog entry if it is a code, else the
    /// text itself.
    pub fn phrase(reason: &str) -> Phrase {
        if ALL.contains(&reason) {
            Phrase::new(Key::of(&format!("reason.{reason}")))
        } else {
            Phrase::written(reason)
        }
    }
}

/// One way of waiting and what measuring it gave (experiments 4 and 6:
/// `WakeResult`, `CancelResult`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StrategyOutcome<S> {
    /// The way of waiting.
    pub strategy: S,
    /// Its times, or why there are none.
    pub outcome: Outcome,
}

#[cfg(test)]
mod tests {
    use super::Outcome;

    #[test]
    fn samples_are_the_kept_ones() {
        let measured = Outcome::measured(vec![1.0, 2.0]).unwrap();
        assert_eq!(measured.samples(), Some(&[1.0, 2.0][..]));
        let sketched = match measured {
            Outcome::Measured { summary, .. } => Outcome::Measured {
                summary,
                samples_ms: Vec::new(),
            },
            other => other,
        };
        assert_eq!(sketched.samples(), None);
        let never = Outcome::TimeoutNeverFired { waited_ms: 5.0 };
        assert_eq!(never.samples(), None);
    }
}
