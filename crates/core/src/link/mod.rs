//! Result links: a whole report in a URL fragment, short enough to paste in
//! a comment.
//!
//! A link's payload is `v1:` followed by the URL-safe base64 (no padding) of
//! a raw-DEFLATE-compressed binary body. The body holds the configuration,
//! a short environment and the results. Timed series are not stored sample
//! by sample but as a sketch: [`SKETCH_QUANTILES`] type-7 quantiles and the
//! mean, each value log-quantized to within ±[`RELATIVE_PRECISION`]/2
//! (values under [`FLOOR_MS`] in magnitude become 0), delta-coded as
//! LEB128 varints. Timelines keep every event: frames to 0.01 ms, job
//! spans to 0.1 ms. A decoded report has `from_link` set, its summaries
//! are the stored quantiles, and its samples are reconstructed from them
//! (inverse-CDF, piecewise linear), enough for histograms.
//!
//! This crate does no compression: a link is made by [`encode_body`],
//! deflated at the edge (the page through the browser's
//! `CompressionStream`, native code with any raw-DEFLATE library) and
//! wrapped by [`wrap`]; it is read by [`unwrap`], inflated at the edge to
//! at most [`MAX_BODY_BYTES`], and decoded by [`decode_body`]. Both
//! readers take untrusted input: they never panic, [`unwrap`] refuses
//! links longer than [`MAX_LINK_CHARS`], and [`decode_body`] refuses
//! bodies over [`MAX_BODY_BYTES`], caps every count it reads and the total
//! of reconstructed samples ([`MAX_TOTAL_SAMPLES`]), and validates every
//! configuration, so memory stays bounded on any input.
//!
//! Each section's writer and reader sit side by side, one module per
//! section (`env`, `timed`, `starvation`, `ladder`, `wake`); `wire` holds
//! the primitives both sides share.

mod env;
mod ladder;
mod starvation;
#[cfg(test)]
mod tests;
mod timed;
mod wake;
mod wire;

use crate::schema::Report;
use wire::{Reader, Writer, base64url};

/// The message for a body that cannot be inflated.
pub const NOT_INFLATABLE: LinkError = LinkError::Damaged("cannot be inflated");

/// The payload prefix of this version.
pub const PREFIX: &str = "v1:";
/// Longest payload accepted, characters.
pub const MAX_LINK_CHARS: usize = 16 * 1024;
/// Largest inflated body accepted, bytes.
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// Most samples a decoded report reconstructs in all.
pub const MAX_TOTAL_SAMPLES: usize = 250_000;
/// Relative width of one quantization step (values are kept to within
/// half of it).
pub const RELATIVE_PRECISION: f64 = 0.01;
/// Smallest magnitude kept, ms; anything smaller is stored as 0.
pub const FLOOR_MS: f64 = 1e-4;
/// The quantiles a sketch keeps.
pub const SKETCH_QUANTILES: [f64; 8] = [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1.0];
/// Largest quantization step read (about 10¹² ms), so every decoded value
/// is finite.
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

impl From<crate::bytes::Damaged> for LinkError {
    fn from(d: crate::bytes::Damaged) -> Self {
        LinkError::Damaged(d.0)
    }
}

pub(super) fn damaged<T>(what: &'static str) -> Result<T, LinkError> {
    Err(LinkError::Damaged(what))
}

/// The quantization code of `v`: 0 for magnitudes under [`FLOOR_MS`],
/// otherwise the signed index of its log step.
pub fn quantize(v: f64) -> i64 {
    if !v.is_finite() || v.abs() < FLOOR_MS {
        return 0;
    }
    let steps = ((v.abs() / FLOOR_MS).ln() / RELATIVE_PRECISION.ln_1p()).round() as i64;
    v.signum() as i64 * (steps + 1)
}

/// The value of a quantization code.
pub fn dequantize(code: i64) -> f64 {
    if code == 0 {
        return 0.0;
    }
    let steps = (code.unsigned_abs() - 1).min(MAX_STEPS) as f64;
    code.signum() as f64 * FLOOR_MS * (steps * RELATIVE_PRECISION.ln_1p()).exp()
}

/// The uncompressed body of `report`'s link.
pub fn encode_body(report: &Report) -> Vec<u8> {
    let mut w = Writer::default();
    w.env(&report.env);
    let present = [
        report.timed_waits.is_some(),
        report.main_starvation.is_some(),
        report.pool_starvation.is_some(),
        report.spin_ladder.is_some(),
        report.wake_latency.is_some(),
        report.failure.is_some(),
    ];
    w.byte(
        present
            .iter()
            .enumerate()
            .fold(0, |m, (i, &p)| m | (u8::from(p) << i)),
    );
    if let Some(tw) = &report.timed_waits {
        w.timed_waits(tw);
    }
    if let Some(m) = &report.main_starvation {
        w.main_starvation(m);
    }
    if let Some(p) = &report.pool_starvation {
        w.pool_starvation(p);
    }
    if let Some(l) = &report.spin_ladder {
        w.spin_ladder(l);
    }
    if let Some(wl) = &report.wake_latency {
        w.wake_latency(wl);
    }
    if let Some(f) = &report.failure {
        w.text(f);
    }
    w.0.0
}

/// The share payload (`v1:…`) of a raw-DEFLATE-compressed body.
pub fn wrap(deflated: &[u8]) -> String {
    format!("{PREFIX}{}", base64url::encode(deflated))
}

/// The compressed body of a share payload (the text after `#`), still to
/// be inflated (to at most [`MAX_BODY_BYTES`]). Never panics.
pub fn unwrap(payload: &str) -> Result<Vec<u8>, LinkError> {
    let payload = payload.trim();
    if payload.len() > MAX_LINK_CHARS {
        return Err(LinkError::TooLong(payload.len()));
    }
    let Some(body) = payload.strip_prefix(PREFIX) else {
        return match payload.split_once(':') {
            Some((v, _))
                if v.len() <= 8
                    && v.starts_with('v')
                    && v[1..].bytes().all(|b| b.is_ascii_digit()) =>
            {
                Err(LinkError::UnknownVersion(v.to_owned()))
            }
            _ => Err(LinkError::NotALink),
        };
    };
    base64url::decode(body).ok_or(LinkError::Damaged("not base64url"))
}

/// Decodes an inflated link body. Never panics.
pub fn decode_body(bytes: &[u8]) -> Result<Report, LinkError> {
    if bytes.len() > MAX_BODY_BYTES {
        return damaged("inflates to more than 64 KiB");
    }
    let mut r = Reader {
        r: crate::bytes::Reader::new(bytes),
        samples_left: MAX_TOTAL_SAMPLES,
    };
    let env = r.env()?;
    let present = r.byte()?;
    if present >> 6 != 0 {
        return damaged("unknown sections");
    }
    let has = |i: u8| present & (1 << i) != 0;
    let mut report = Report::new(env, None);
    report.from_link = true;
    if has(0) {
        report.timed_waits = Some(r.timed_waits()?);
    }
    if has(1) {
        report.main_starvation = Some(r.main_starvation()?);
    }
    if has(2) {
        report.pool_starvation = Some(r.pool_starvation()?);
    }
    if has(3) {
        report.spin_ladder = Some(r.spin_ladder()?);
    }
    if has(4) {
        report.wake_latency = Some(r.wake_latency()?);
    }
    if has(5) {
        report.failure = Some(r.text()?);
    }
    r.finish()?;
    Ok(report)
}

/// The payloads of a link or fragment: what follows `#` if there is one,
/// split at `;` (several runs opened side by side).
pub fn payloads(link: &str) -> Vec<&str> {
    let fragment = link.split_once('#').map_or(link, |(_, f)| f);
    fragment
        .split(';')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect()
}
