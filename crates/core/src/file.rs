//! Result files a reader opens on the page (the JSON the page exports):
//! untrusted input, checked whole before anything draws it. A file keeps
//! every sample it was saved with, so it can hold far more than a link:
//! up to [`MAX_SAMPLES`] numbers, each within [`MAX_MAGNITUDE_MS`].

use crate::compare::check_stated;
use crate::experiment::Experiment;
use crate::key;
use crate::schema::{Report, SchemaError};
use crate::text::{Arg, Phrase};

/// The largest file the page reads, bytes (the page checks the size before
/// it reads a byte).
pub const MAX_BYTES: f64 = 32.0 * 1024.0 * 1024.0;

/// The most numbers a file may hold, every sample of every series
/// together (a series of 100,000 samples saved from an export is about
/// 2 MB).
pub const MAX_SAMPLES: usize = 1_000_000;

/// The largest magnitude of any number in a file (ms, for a time): over
/// three centuries, past every Unix time in ms a run has (under 2·10¹²),
/// and it keeps a log axis to a few dozen decades, never hundreds.
pub const MAX_MAGNITUDE_MS: f64 = 1e13;

/// Why a file could not be opened.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FileError {
    /// Over [`MAX_BYTES`].
    #[error("{0} bytes is over the limit")]
    TooLarge(f64),
    /// Not JSON, not a waitlab result, or a version this build cannot read.
    #[error("not a waitlab result: {0}")]
    Unreadable(String),
    /// Over [`MAX_SAMPLES`] numbers.
    #[error("{0} numbers is over the limit")]
    TooManySamples(usize),
    /// A number beyond [`MAX_MAGNITUDE_MS`].
    #[error("a number out of range: {0}")]
    OutOfRange(f64),
    /// A result of no experiment.
    #[error("no results")]
    Empty,
}

impl FileError {
    /// What went wrong with the file `name`, in the reader's words.
    pub fn phrase(&self, name: &str) -> Phrase {
        let named = |key| Phrase::new(key).data("name", name.chars().take(80).collect::<String>());
        match self {
            FileError::TooLarge(bytes) => named(key!("file.too_large"))
                .arg("size", Arg::Fixed(bytes / 1024.0 / 1024.0, 1))
                .arg("limit", Arg::Fixed(MAX_BYTES / 1024.0 / 1024.0, 0)),
            FileError::Unreadable(why) => named(key!("file.unreadable")).data("why", why.clone()),
            FileError::TooManySamples(count) => named(key!("file.too_many_samples"))
                .count("count", *count as u64)
                .count("limit", MAX_SAMPLES as u64),
            FileError::OutOfRange(v) => named(key!("file.unreadable")).data(
                "why",
                format!("{} out of range", crate::number::fixed(*v, 0)),
            ),
            FileError::Empty => named(key!("file.empty")),
        }
    }
}

/// Checks a file of `bytes` before it is read.
pub fn check_size(bytes: f64) -> Result<(), FileError> {
    if bytes > MAX_BYTES {
        Err(FileError::TooLarge(bytes))
    } else {
        Ok(())
    }
}

/// Every number of `value` and how many there are, or the first beyond
/// [`MAX_MAGNITUDE_MS`].
fn count_numbers(value: &serde_json::Value) -> Result<usize, FileError> {
    let mut count = 0;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            serde_json::Value::Number(n) => {
                let x = n.as_f64().unwrap_or(f64::INFINITY);
                if x.is_nan() || x.abs() > MAX_MAGNITUDE_MS {
                    return Err(FileError::OutOfRange(x));
                }
                count += 1;
                if count > MAX_SAMPLES {
                    return Err(FileError::TooManySamples(count));
                }
            }
            serde_json::Value::Array(items) => stack.extend(items),
            serde_json::Value::Object(fields) => stack.extend(fields.values()),
            _ => {}
        }
    }
    Ok(count)
}

/// Reads the result file `name` holding `text`: a run opened on the page,
/// not measured there (`from_link`, with `file` naming it).
pub fn open(name: &str, text: &str) -> Result<Report, FileError> {
    check_size(text.len() as f64)?;
    let unreadable = |e: SchemaError| FileError::Unreadable(e.to_string());
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| unreadable(SchemaError::Malformed(e)))?;
    count_numbers(&value)?;
    let mut report = Report::from_value(value).map_err(unreadable)?;
    check_stated(&report).map_err(|e| FileError::Unreadable(e.to_string()))?;
    if !Experiment::ALL.iter().any(|&e| report.has(e)) {
        return Err(FileError::Empty);
    }
    report.from_link = true;
    report.file = Some(name.chars().take(80).collect());
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn saved() -> String {
        include_str!("../tests/data/native_report.json").to_owned()
    }

    #[test]
    fn a_saved_result_opens_as_a_run_from_elsewhere_with_its_samples() {
        let text = saved();
        let report = open("waitlab-timed-waits.json", &text).unwrap();
        assert!(report.from_link);
        assert_eq!(report.file.as_deref(), Some("waitlab-timed-waits.json"));
        let again = Report::from_json(&text).unwrap();
        assert_eq!(report.timed_waits, again.timed_waits, "every sample kept");
    }

    #[test]
    fn hostile_files_are_refused_with_a_reason() {
        assert_eq!(
            check_size(MAX_BYTES + 1.0),
            Err(FileError::TooLarge(MAX_BYTES + 1.0))
        );
        assert!(check_size(MAX_BYTES).is_ok());
        for text in ["", "{", "[1, 2]", "{\"schema\": \"other\", \"version\": 1}"] {
            assert!(
                matches!(open("x.json", text), Err(FileError::Unreadable(_))),
                "{text}"
            );
        }
        let huge = saved().replacen("\"samples_ms\": [", "\"samples_ms\": [1e300, ", 1);
        assert_eq!(open("x.json", &huge), Err(FileError::OutOfRange(1e300)));
        let many = format!("[{}]", vec!["1"; MAX_SAMPLES + 1].join(","));
        assert_eq!(
            open("x.json", &many),
            Err(FileError::TooManySamples(MAX_SAMPLES + 1))
        );
        let mut empty: serde_json::Value = serde_json::from_str(&saved()).unwrap();
        for part in [
            "timed_waits",
            "main_starvation",
            "pool_starvation",
            "spin_ladder",
            "wake_latency",
        ] {
            empty.as_object_mut().unwrap().remove(part);
        }
        empty["timed_waits"] = serde_json::Value::Null;
        assert_eq!(open("x.json", &empty.to_string()), Err(FileError::Empty));
    }

    #[test]
    fn every_refusal_names_the_file() {
        let en = crate::text::Catalog::english();
        for e in [
            FileError::TooLarge(40.0 * 1024.0 * 1024.0),
            FileError::Unreadable("expected value".into()),
            FileError::TooManySamples(MAX_SAMPLES + 1),
            FileError::OutOfRange(1e300),
            FileError::Empty,
        ] {
            let text = en.render(&e.phrase("run.json"));
            assert!(text.contains("run.json"), "{text}");
        }
    }
}
