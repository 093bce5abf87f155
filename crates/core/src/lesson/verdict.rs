//! Whether a run bears a lesson out, and the rule's threshold, which a
//! lesson's figures read their verdicts into.

use crate::text::{Key, Phrase};

/// How many times the right way must beat the wrong one for the lesson
/// to hold.
pub const HOLDS_RATIO: f64 = 1.5;

/// Whether a run bears the lesson out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The right way won by [`HOLDS_RATIO`] or more, beyond the clock (a
    /// timed wait: none ended early, and each overshot beyond the clock).
    Holds,
    /// It won, but by less.
    Barely,
    /// The wrong way did as well or better (a timed wait ended early).
    Opposite,
    /// The clock cannot tell the two apart.
    BelowClock,
    /// Its experiment ran, but could not measure both ways here (the
    /// line says why).
    Unavailable,
    /// Not run yet.
    NotMeasured,
}

impl Verdict {
    /// Every verdict.
    pub const ALL: [Verdict; 6] = [
        Verdict::Holds,
        Verdict::Barely,
        Verdict::Opposite,
        Verdict::BelowClock,
        Verdict::Unavailable,
        Verdict::NotMeasured,
    ];

    /// Its stable name (test ids, styles).
    pub fn id(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::Barely => "barely",
            Verdict::Opposite => "opposite",
            Verdict::BelowClock => "below_clock",
            Verdict::Unavailable => "unavailable",
            Verdict::NotMeasured => "not_measured",
        }
    }

    /// The verdict in a word or two.
    pub fn phrase(self) -> Phrase {
        Phrase::new(Key::of(&format!("summary.verdict.{}", self.id())))
    }
}
