//! Form fields: a whole number within limits, and why one was refused,
//! as a [`Phrase`] the page words in the reader's language.

use crate::key;
use crate::text::Key;
use crate::text::Phrase;

/// One field of a configuration's form: its label, its test id (which
/// end-to-end tests and the embed's first screen use) and the value a
/// configuration gives it.
pub struct FormField<C> {
    /// The label's catalog key.
    pub label: Key,
    /// `data-testid` of its input.
    pub testid: &'static str,
    /// Its value in a configuration (the form starts from the defaults').
    pub value: fn(&C) -> u32,
    /// The smallest value it accepts.
    pub min: u32,
    /// The largest value it accepts.
    pub max: u32,
}

/// A configuration the page edits in a form of whole-number fields: the
/// fields in order, how their texts make a configuration (or why they do
/// not), and the hint beside Run.
pub trait Form: Sized + 'static {
    /// The fields, in the form's order.
    const FIELDS: &'static [FormField<Self>];

    /// The configuration of the fields' texts, in [`Form::FIELDS`]'s order.
    fn from_fields(texts: &[&str]) -> Result<Self, FieldError>;

    /// What a run of it takes, said beside Run.
    fn hint(&self) -> Phrase;
}

/// The usual hint: about how many seconds a run of `estimated_ms` takes.
pub fn about_seconds(estimated_ms: f64) -> Phrase {
    Phrase::new(key!("form.about")).ms("seconds", estimated_ms / 1000.0)
}

/// Why a field (or the configuration it makes) was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FieldError {
    /// A field that is not a whole number.
    #[error("{field}: \"{text}\" is not a whole number")]
    NotANumber {
        /// Which field (its catalog name, `field.*`).
        field: &'static str,
        /// What was given (cut to 20 characters).
        text: String,
    },
    /// A field out of its range.
    #[error("{field} must be between {min} and {max} (got {got})")]
    OutOfRange {
        /// Which field.
        field: &'static str,
        /// Smallest allowed.
        min: u32,
        /// Largest allowed.
        max: u32,
        /// Given.
        got: u32,
    },
    /// The blocking batch would take too long.
    #[error("the blocking batch would take {seconds} s; keep it under {limit} s")]
    TooLong {
        /// Expected seconds.
        seconds: u32,
        /// Limit.
        limit: u32,
    },
}

impl FieldError {
    /// What to tell the reader.
    pub fn phrase(&self) -> Phrase {
        match self {
            FieldError::NotANumber { field, text } => Phrase::new(key!("error.field.not_a_number"))
                .phrase("field", Phrase::new(Key::of(&format!("field.{field}"))))
                .data("text", text.clone()),
            FieldError::OutOfRange {
                field,
                min,
                max,
                got,
            } => Phrase::new(key!("error.field.out_of_range"))
                .phrase("field", Phrase::new(Key::of(&format!("field.{field}"))))
                .count("min", *min)
                .count("max", *max)
                .count("got", *got),
            FieldError::TooLong { seconds, limit } => {
                Phrase::new(key!("error.field.batch_too_long"))
                    .count("seconds", *seconds)
                    .count("limit", *limit)
            }
        }
    }
}

/// The longest blocking batch an experiment accepts, ms.
const MAX_BLOCKING_MS: f64 = 20_000.0;

/// Refuses a configuration whose blocking waits would take longer than
/// 20 s together.
pub fn check_blocking_ms(blocking_ms: f64) -> Result<(), FieldError> {
    if blocking_ms > MAX_BLOCKING_MS {
        return Err(FieldError::TooLong {
            seconds: (blocking_ms / 1000.0).ceil() as u32,
            limit: (MAX_BLOCKING_MS / 1000.0) as u32,
        });
    }
    Ok(())
}

/// The fields' catalog names, for the test that keeps catalogs complete.
pub const FIELDS: [&str; 14] = [
    "jobs",
    "wait",
    "workers",
    "ladders",
    "spin_until",
    "rounds",
    "ticks",
    "interval",
    "work",
    "limit",
    "items",
    "gap",
    "burst",
    "seconds",
];

/// `text` as a whole number in `min..=max`, or why not.
pub fn parse(field: &'static str, text: &str, min: u32, max: u32) -> Result<u32, FieldError> {
    let got = text
        .trim()
        .parse::<u32>()
        .map_err(|_| FieldError::NotANumber {
            field,
            text: text.trim().chars().take(20).collect(),
        })?;
    if got < min || got > max {
        return Err(FieldError::OutOfRange {
            field,
            min,
            max,
            got,
        });
    }
    Ok(got)
}

/// Checks a form (each `config!` has a test that calls it): its
/// defaults, written into its fields, read back as themselves; its test
/// ids are distinct; a missing field is refused, and so is each field's
/// text that is not a number or is out of its limits.
#[cfg(test)]
pub(crate) fn check_form<C: Form + Clone + PartialEq + std::fmt::Debug>(defaults: C) {
    let texts: Vec<String> = C::FIELDS
        .iter()
        .map(|f| (f.value)(&defaults).to_string())
        .collect();
    let with = |i: usize, text: &str| {
        let mut texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        texts[i] = text;
        C::from_fields(&texts)
    };
    // A refusal names its field in words the page always has (the
    // first load's catalog), never as a raw key.
    let en = crate::text::Catalog::english();
    let refused = |i: usize, text: &str| match with(i, text) {
        Err(e @ FieldError::OutOfRange { min, max, .. }) => {
            let said = en.render(&e.phrase());
            assert!(!said.contains('⟦'), "{}: {said}", C::FIELDS[i].testid);
            (min, max)
        }
        other => panic!("{}: {text}: {other:?}", C::FIELDS[i].testid),
    };
    for (i, f) in C::FIELDS.iter().enumerate() {
        assert_eq!(
            with(i, &format!(" {} ", (f.value)(&defaults))),
            Ok(defaults.clone())
        );
        assert!(matches!(with(i, "x"), Err(FieldError::NotANumber { .. })));
        assert_eq!(refused(i, &(f.max + 1).to_string()), (f.min, f.max));
        if f.min > 0 {
            assert_eq!(refused(i, &(f.min - 1).to_string()), (f.min, f.max));
        }
    }
    let mut ids: Vec<&str> = C::FIELDS.iter().map(|f| f.testid).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), C::FIELDS.len());
    assert!(C::from_fields(&[]).is_err());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_parse_within_limits() {
        assert_eq!(parse("jobs", " 8 ", 1, 64), Ok(8));
        assert_eq!(
            parse("jobs", "x<b>", 1, 64),
            Err(FieldError::NotANumber {
                field: "jobs",
                text: "x<b>".into()
            })
        );
        assert_eq!(
            parse("wait", "0", 1, 2000),
            Err(FieldError::OutOfRange {
                field: "wait",
                min: 1,
                max: 2000,
                got: 0
            })
        );
        let p = parse("rounds", "9999", 1, 2000).unwrap_err().phrase();
        assert_eq!(
            p.keys(),
            [key!("error.field.out_of_range"), key!("field.rounds")]
        );
    }
}
