//! Bundled reference sets: native results and the article's stated figures,
//! kept as JSON in `www/data/native/` and listed in an index, so adding a
//! machine is adding a file and a line (and `cargo xtask packs`).
//!
//! The page reads neither: it loads the packs `cargo xtask packs` makes of
//! them (`crate::link::set`). This module reads the sources for the tools
//! that write packs and check sets, validating them (schema name, version,
//! file names, stated columns), every refusal a message, never a panic.

use crate::compare::check_stated;
use crate::schema::Report;
use serde::{Deserialize, Serialize};

/// The tag of the index file's `schema` field.
pub const INDEX_SCHEMA: &str = "waitlab.reference-index";
/// The index version this build reads and writes.
pub const INDEX_VERSION: u32 = 1;

/// The list of bundled sets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReferenceIndex {
    /// Always [`INDEX_SCHEMA`].
    pub schema: String,
    /// Always [`INDEX_VERSION`].
    pub version: u32,
    /// The sets, in display order.
    pub sets: Vec<IndexEntry>,
}

/// One set in the index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IndexEntry {
    /// File name beside the index, such as `rust-linux-x86_64.json`.
    pub file: String,
    /// Whether the page shows it before the reader chooses.
    #[serde(default = "shown_by_default")]
    pub shown: bool,
}

fn shown_by_default() -> bool {
    true
}

/// Why an index or a set was refused.
#[derive(Debug, thiserror::Error)]
pub enum ReferenceError {
    /// Not JSON of the right shape.
    #[error("the index is not valid: {0}")]
    Malformed(#[from] serde_json::Error),
    /// Another schema or version.
    #[error(
        "the index is \"{schema}\" version {version}; this page reads {INDEX_SCHEMA} version {INDEX_VERSION}"
    )]
    Unsupported {
        /// Its schema tag.
        schema: String,
        /// Its version.
        version: u32,
    },
    /// A file name that is not a plain `*.json` name.
    #[error("the index names \"{0}\", which is not a plain .json file name")]
    BadFileName(String),
    /// A set that is not a valid result file.
    #[error("{0}")]
    BadSet(String),
}

impl ReferenceIndex {
    /// Parses and validates an index.
    pub fn from_json(s: &str) -> Result<Self, ReferenceError> {
        let index: ReferenceIndex = serde_json::from_str(s)?;
        if index.schema != INDEX_SCHEMA || index.version != INDEX_VERSION {
            return Err(ReferenceError::Unsupported {
                schema: index.schema.chars().take(40).collect(),
                version: index.version,
            });
        }
        if let Some(bad) = index.sets.iter().find(|e| !is_plain_json_name(&e.file)) {
            return Err(ReferenceError::BadFileName(
                bad.file.chars().take(60).collect(),
            ));
        }
        Ok(index)
    }
}

fn is_plain_json_name(name: &str) -> bool {
    let stem = name.strip_suffix(".json").unwrap_or("");
    !stem.is_empty()
        && stem.len() <= 80
        && stem
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
        && !stem.starts_with('.')
}

/// Parses a bundled set: a result file of a supported version that says
/// where its numbers come from and whose stated figures all fit their
/// tables.
pub fn parse_set(s: &str) -> Result<Report, ReferenceError> {
    let report = Report::from_json(s).map_err(|e| ReferenceError::BadSet(e.to_string()))?;
    if report.env.native.is_none() {
        return Err(ReferenceError::BadSet(
            "it has no native provenance (env.native)".to_owned(),
        ));
    }
    check_stated(&report).map_err(|e| ReferenceError::BadSet(e.to_string()))?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_is_validated() {
        let ok = r#"{"schema":"waitlab.reference-index","version":1,"sets":[{"file":"a-b_1.json"},{"file":"c.json","shown":false}]}"#;
        let index = ReferenceIndex::from_json(ok).unwrap();
        assert!(index.sets[0].shown && !index.sets[1].shown);
        for bad in [
            r#"{"schema":"waitlab.reference-index","version":2,"sets":[]}"#,
            r#"{"schema":"other","version":1,"sets":[]}"#,
            r#"{"schema":"waitlab.reference-index","version":1,"sets":[{"file":"../x.json"}]}"#,
            r#"{"schema":"waitlab.reference-index","version":1,"sets":[{"file":"x.js"}]}"#,
            r#"{"schema":"waitlab.reference-index","version":1,"sets":[{"file":".json"}]}"#,
            "<html>",
        ] {
            assert!(ReferenceIndex::from_json(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_set_needs_provenance() {
        let browser = include_str!("../tests/data/report_v1.json");
        let err = parse_set(browser).unwrap_err().to_string();
        assert!(err.contains("provenance"), "{err}");
        assert!(parse_set("{}").is_err());
    }
}
