//! What came of one measured cell: its samples and summary, or why there
//! are none. A leaf every experiment's results use.

use crate::stats::{Samples, SamplesError, Summary};
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
    /// A measured outcome from raw samples.
    pub fn measured(samples_ms: Vec<f64>) -> Result<Outcome, SamplesError> {
        let summary = Samples::new(samples_ms.clone())?.summary();
        Ok(Outcome::Measured {
            summary,
            samples_ms,
        })
    }

    /// The summary, if measured.
    pub fn summary(&self) -> Option<&Summary> {
        match self {
            Outcome::Measured { summary, .. } => Some(summary),
            _ => None,
        }
    }
}
