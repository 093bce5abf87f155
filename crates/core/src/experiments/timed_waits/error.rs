//! Why experiment 1's configuration was refused ([`ConfigError`]), in
//! the reader's words.

use crate::key;
use crate::text::{Key, Phrase};

/// Why a configuration was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// A duration list entry that is not a whole number of ms.
    #[error("\"{0}\" is not a whole number of milliseconds")]
    NotANumber(String),
    /// No durations.
    #[error("give at least one duration, for example 0, 1, 10, 15")]
    NoDurations,
    /// Too many durations.
    #[error("at most {max} durations per run (got {got})")]
    TooManyDurations {
        /// Allowed maximum.
        max: usize,
        /// Given.
        got: usize,
    },
    /// A duration outside the allowed range.
    #[error("durations must be between 0 and {max} ms (got {got})")]
    DurationOutOfRange {
        /// Allowed maximum.
        max: u32,
        /// Given.
        got: u32,
    },
    /// A sample count outside the allowed range.
    #[error("samples per cell must be between 1 and {max} (got {got})")]
    SamplesOutOfRange {
        /// Allowed maximum.
        max: u32,
        /// Given.
        got: u32,
    },
    /// No mechanism picked.
    #[error("pick at least one mechanism")]
    NoMechanisms,
    /// More samples in all than one run may take.
    #[error("at most {max} samples in one run (got {got}: cells × samples per cell)")]
    TooManySamples {
        /// Allowed maximum.
        max: u32,
        /// Given.
        got: u64,
    },
    /// The run would take longer than the limit.
    #[error(
        "this run would take about {minutes} minutes; keep it under {limit} (fewer samples or shorter durations)"
    )]
    TooLong {
        /// Estimated minutes.
        minutes: u32,
        /// Limit in minutes.
        limit: u32,
    },
}

impl ConfigError {
    /// What to tell the reader.
    pub fn phrase(&self) -> Phrase {
        // A number over its limit: the limit, then what the reader gave.
        let over =
            |key: Key, max: u64, got: u64| Phrase::new(key).count("max", max).count("got", got);
        match self {
            ConfigError::NotANumber(text) => {
                Phrase::new(key!("timed_waits.error.not_a_number")).data("text", text.clone())
            }
            ConfigError::NoDurations => Phrase::new(key!("timed_waits.error.no_durations")),
            ConfigError::TooManyDurations { max, got } => {
                over(key!("timed_waits.error.too_many"), *max as u64, *got as u64)
            }
            ConfigError::DurationOutOfRange { max, got } => over(
                key!("timed_waits.error.duration_range"),
                (*max).into(),
                (*got).into(),
            ),
            ConfigError::SamplesOutOfRange { max, got } => over(
                key!("timed_waits.error.samples_range"),
                (*max).into(),
                (*got).into(),
            ),
            ConfigError::NoMechanisms => Phrase::new(key!("timed_waits.error.no_mechanisms")),
            ConfigError::TooManySamples { max, got } => over(
                key!("timed_waits.error.too_many_samples"),
                (*max).into(),
                *got,
            ),
            ConfigError::TooLong { minutes, limit } => {
                Phrase::new(key!("timed_waits.error.too_long"))
                    .count("minutes", *minutes)
                    .count("limit", *limit)
            }
        }
    }
}
