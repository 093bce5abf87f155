//! What a link's body is written with, below every section: why a link
//! cannot be read ([`LinkError`]) and how values are quantized
//! (`Scale`). A leaf of the link layer: it names no experiment, so the
//! experiments' sections can use it (through `wire`) while `link` itself
//! lists them.

use crate::key;
use crate::text::Phrase;

/// Relative width of one quantization step (values are kept to within
/// half of it).
pub const RELATIVE_PRECISION: f64 = 0.01;
/// Smallest magnitude kept, ms; anything smaller is stored as 0.
pub const FLOOR_MS: f64 = 1e-4;
/// The quantiles a sketch keeps.
pub const SKETCH_QUANTILES: [f64; 8] = [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1.0];
/// Largest quantization step a link reads (about 10¹² ms), so every
/// decoded value is finite.
const MAX_STEPS: u64 = 3700;

/// Why a link could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    /// Not a waitlab payload at all.
    #[error("this link does not hold a waitlab result")]
    NotALink,
    /// A payload of another version.
    #[error(
        "this link was made by a newer or unknown waitlab (format \"{0}\"); this page reads v1"
    )]
    UnknownVersion(String),
    /// Longer than any link waitlab makes.
    #[error("this link is too long ({0} characters) to be a waitlab result")]
    TooLong(usize),
    /// Damaged: bad characters, truncated, or inconsistent content.
    #[error("this link is damaged ({0}); ask for a fresh one")]
    Damaged(&'static str),
}

impl LinkError {
    /// What to tell the reader.
    pub fn phrase(&self) -> Phrase {
        match self {
            LinkError::NotALink => Phrase::new(key!("link.not_a_link")),
            LinkError::UnknownVersion(v) => {
                Phrase::new(key!("link.unknown_version")).data("version", v.clone())
            }
            LinkError::TooLong(n) => Phrase::new(key!("link.too_long")).count("count", *n as u64),
            LinkError::Damaged(why) => Phrase::new(key!("link.damaged")).code("why", why),
        }
    }
}

impl From<crate::bytes::Damaged> for LinkError {
    fn from(d: crate::bytes::Damaged) -> Self {
        LinkError::Damaged(d.0)
    }
}

pub(crate) fn damaged<T>(what: &'static str) -> Result<T, LinkError> {
    Err(LinkError::Damaged(what))
}

/// How a body quantizes its values: the smallest magnitude it keeps and
/// its largest step (about 10¹² ms either way, so every decoded value is
/// finite).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scale {
    floor_ms: f64,
    max_steps: u64,
}

/// Links: values down to [`FLOOR_MS`] (a browser's clock steps 5 µs at
/// best).
pub(crate) const LINK_SCALE: Scale = Scale {
    floor_ms: FLOOR_MS,
    max_steps: MAX_STEPS,
};

/// Bundled sets: values down to a femtosecond, since native clocks step in
/// tens of nanoseconds and spins last a few.
pub(crate) const SET_SCALE: Scale = Scale {
    floor_ms: 1e-12,
    max_steps: 5600,
};

impl Default for Scale {
    fn default() -> Self {
        LINK_SCALE
    }
}

impl Scale {
    /// The quantization code of `v`: 0 for magnitudes under the floor,
    /// otherwise the signed index of its log step.
    pub(crate) fn quantize(self, v: f64) -> i64 {
        if !v.is_finite() || v.abs() < self.floor_ms {
            return 0;
        }
        let steps = ((v.abs() / self.floor_ms).ln() / RELATIVE_PRECISION.ln_1p()).round() as i64;
        v.signum() as i64 * (steps + 1)
    }

    /// The value of a quantization code.
    pub(crate) fn dequantize(self, code: i64) -> f64 {
        if code == 0 {
            return 0.0;
        }
        let steps = (code.unsigned_abs() - 1).min(self.max_steps) as f64;
        code.signum() as f64 * self.floor_ms * (steps * RELATIVE_PRECISION.ln_1p()).exp()
    }
}
