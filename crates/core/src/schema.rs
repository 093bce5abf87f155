//! The versioned result schema: what a run produces, what the page exports
//! as JSON, and (later) what share links and native probes carry.
//!
//! The schema is a public boundary. Any change to these shapes bumps
//! [`SCHEMA_VERSION`]; [`Report::from_json`] refuses other versions with a
//! message instead of misreading them. Version 2 added the native
//! environment and the stated figures; a version-1 file is a valid version-2
//! file without them, so both are read. Version 3 structured the native
//! provenance (the CPU's model apart from its cores, where the numbers
//! come from as an article or a command, so the page words it in the
//! reader's language); an older file's provenance text is kept as written.
//! Version 4 keeps a run's failure as a phrase, said in the language of
//! whoever reads the report; an older file's failure sentence is kept as
//! written.
//! Golden files in `tests/data/` pin the
//! wire format.

use crate::experiments::timed_waits::Mechanism;
use crate::experiments::timed_waits::TimedWaits;
use crate::experiments::{Experiment, Registered, Visit};
use crate::outcome::Outcome;
use serde::Deserialize;

pub use crate::environment::{Environment, Failure, NativeEnv, Source};
pub use crate::experiments::{Report, Stored};

/// The tag every report carries in its `schema` field.
pub const SCHEMA_NAME: &str = "waitlab.result";
/// The current schema version.
pub const SCHEMA_VERSION: u32 = 4;
/// The oldest version this build still reads.
pub const OLDEST_READABLE_VERSION: u32 = 1;

/// Why a report could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SchemaError {
    /// Not JSON, or not this shape.
    #[error("not a waitlab result: {0}")]
    Malformed(#[from] serde_json::Error),
    /// Another schema altogether.
    #[error("not a waitlab result (schema \"{0}\")")]
    ForeignSchema(String),
    /// A version this build does not know.
    #[error(
        "result schema version {found} is not supported (this build reads versions 1 to {supported})"
    )]
    UnsupportedVersion {
        /// Version in the file.
        found: u32,
        /// Version this build reads.
        supported: u32,
    },
}

impl Report {
    /// Whether it has results of `experiment`.
    pub fn has(&self, experiment: Experiment) -> bool {
        struct Has<'a>(&'a Report);
        impl Visit for Has<'_> {
            type Out = bool;
            fn visit<E: Registered>(self) -> bool {
                E::of(self.0).is_some()
            }
        }
        experiment.visit(Has(self))
    }

    /// Whether it measured anything of `experiment`: one outcome with
    /// samples. A run without one (every row unavailable here) is no
    /// result to show, only the reasons.
    pub fn measured_anything(&self, experiment: Experiment) -> bool {
        struct Measured<'a>(&'a Report);
        impl Visit for Measured<'_> {
            type Out = bool;
            fn visit<E: Registered>(self) -> bool {
                E::of(self.0).is_some_and(E::measured_anything)
            }
        }
        experiment.visit(Measured(self))
    }

    /// The shared-memory reason (`outcome::reason::NOT_ISOLATED` or
    /// `NO_SHARED_ARRAY_BUFFER`) for which a way of `experiment` was not
    /// available in this run, if one was not.
    pub(crate) fn lacked_shared_memory(&self, experiment: Experiment) -> Option<&'static str> {
        use crate::outcome::reason::{NO_SHARED_ARRAY_BUFFER, NOT_ISOLATED};
        struct Lacked<'a>(&'a Report);
        impl Visit for Lacked<'_> {
            type Out = Option<&'static str>;
            fn visit<E: Registered>(self) -> Option<&'static str> {
                E::of(self.0)?.tried().iter().find_map(|t| match t.outcome {
                    Outcome::Unavailable { reason } => [NOT_ISOLATED, NO_SHARED_ARRAY_BUFFER]
                        .into_iter()
                        .find(|r| r == reason),
                    _ => None,
                })
            }
        }
        experiment.visit(Lacked(self))
    }

    /// A report of the current version with `self`'s environment and its
    /// results of `experiment` alone.
    pub fn only(&self, experiment: Experiment) -> Report {
        let mut part = Report::new(self.env.clone(), None);
        experiment.visit(Copy(self, &mut part));
        part.trace = self.trace.clone();
        part
    }

    /// A report of the current version.
    pub fn new(env: Environment, timed_waits: Option<TimedWaits>) -> Report {
        Report {
            timed_waits,
            ..Report::empty(SCHEMA_NAME.to_owned(), SCHEMA_VERSION, env)
        }
    }

    /// One report holding every experiment of `parts` (the first part
    /// that has an experiment gives it), with the first part's
    /// environment, marked hidden if any part was; `None` without parts.
    pub fn combine(parts: &[Report]) -> Option<Report> {
        let first = parts.first()?;
        let mut env = first.env.clone();
        env.hidden_during_run = parts.iter().any(|p| p.env.hidden_during_run);
        let mut all = Report::new(env, None);
        for e in Experiment::ALL {
            if let Some(part) = parts.iter().find(|p| p.has(e)) {
                e.visit(Copy(part, &mut all));
            }
        }
        Some(all)
    }

    /// Pretty JSON, as exported by the page.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report always serializes")
    }

    /// Parses a report, checking the schema name and version first so a
    /// future file gets a version message rather than a field error.
    pub fn from_json(s: &str) -> Result<Report, SchemaError> {
        #[derive(Deserialize)]
        struct Header {
            schema: String,
            version: u32,
        }
        let header: Header = serde_json::from_str(s)?;
        if header.schema != SCHEMA_NAME {
            return Err(SchemaError::ForeignSchema(
                header.schema.chars().take(40).collect(),
            ));
        }
        if !(OLDEST_READABLE_VERSION..=SCHEMA_VERSION).contains(&header.version) {
            return Err(SchemaError::UnsupportedVersion {
                found: header.version,
                supported: SCHEMA_VERSION,
            });
        }
        let mut report: Report = serde_json::from_str(s)?;
        // What a run measured is what its cells name (files written before
        // runs could pick their mechanisms do not say).
        if let Some(tw) = &mut report.timed_waits {
            tw.config.mechanisms = Mechanism::named_by(tw.cells.iter().map(|c| c.key));
        }
        // Times between two threads' stamps, none below zero (files
        // written before waitlab floored them).
        let wake = report.wake_latency.iter_mut().flat_map(|w| &mut w.results);
        let cancel = report.cancel_waits.iter_mut().flat_map(|c| &mut c.results);
        let handoffs = report
            .producer_consumer
            .iter_mut()
            .flat_map(|p| &mut p.runs);
        wake.map(|r| &mut r.outcome)
            .chain(cancel.map(|r| &mut r.outcome))
            .chain(handoffs.map(|r| &mut r.outcome))
            .for_each(Outcome::floor_at_zero);
        Ok(report)
    }
}

/// Copies one experiment's results from the first report to the second.
struct Copy<'a>(&'a Report, &'a mut Report);

impl Visit for Copy<'_> {
    type Out = ();
    fn visit<E: Registered>(self) {
        *E::slot(self.1) = E::of(self.0).cloned();
    }
}

#[cfg(test)]
mod tests;
