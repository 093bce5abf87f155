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
//! section (`env`, `timed`, `starvation`, `ladder`, `wake`, `cancel`,
//! `periodic`, `limit`, `handoff`); `wire` holds
//! the primitives both sides share.

pub mod codec;
mod env;
pub mod set;
#[cfg(test)]
mod tests;
pub mod wire;

use crate::experiments::{Experiment, Registered, Visit};
use crate::schema::{Failure, Report};
use crate::stats::Summary;
use wire::{Reader, Writer, base64url};

pub use codec::{FLOOR_MS, LinkError, RELATIVE_PRECISION, SKETCH_QUANTILES};
pub(crate) use codec::{LINK_SCALE, SET_SCALE, damaged};
pub use wire::Section;

/// The bit that says a body ends with a failure.
const FAILURE_BIT: u8 = 5;
/// The bit that says the failure is a phrase, not an older link's
/// sentence.
const FAILURE_PHRASE_BIT: u8 = 11;

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
/// What an embedding host appends to a frame's address: WordPress adds
/// `#?secret=` and ten letters or digits, the key of its embed protocol
/// (after the fragment the address had, if any).
pub const HOST_SECRET: &str = "?secret=";

/// A frame's fragment (without its `#`) as the runs it carries and the
/// secret its host appended ([`HOST_SECRET`]), if any: a secret is one or
/// more ASCII letters or digits to the end, and a `#` before it belongs
/// to neither. A fragment without one is all runs.
pub fn host_secret(fragment: &str) -> (&str, Option<&str>) {
    let split = fragment.find(HOST_SECRET).and_then(|at| {
        let secret = &fragment[at + HOST_SECRET.len()..];
        let valid = !secret.is_empty() && secret.bytes().all(|b| b.is_ascii_alphanumeric());
        valid.then(|| {
            (
                fragment[..at].strip_suffix('#').unwrap_or(&fragment[..at]),
                secret,
            )
        })
    });
    match split {
        Some((runs, secret)) => (runs, Some(secret)),
        None => (fragment, None),
    }
}

/// A link's quantization code of `v`: 0 for magnitudes under
/// [`FLOOR_MS`], otherwise the signed index of its log step.
pub fn quantize(v: f64) -> i64 {
    LINK_SCALE.quantize(v)
}

/// The first figure of `original` that `read` (a summary read back from a
/// link) does not keep, as `(original, read)`: a link keeps each figure to
/// within half a quantization step, figures under [`FLOOR_MS`] as 0, and
/// the count exactly.
pub fn not_kept(original: &Summary, read: &Summary) -> Option<(f64, f64)> {
    let kept = |a: f64, b: f64| {
        (a.abs() < FLOOR_MS && b.abs() < FLOOR_MS)
            || ((a - b) / a).abs() <= RELATIVE_PRECISION / 2.0 + 1e-9
    };
    let (a, b) = (original, read);
    let figures = [a.min, a.p50, a.p90, a.p99, a.max, a.mean];
    let read = [b.min, b.p50, b.p90, b.p99, b.max, b.mean];
    let counts = (f64::from(a.n), f64::from(b.n));
    let mut pairs = figures.into_iter().zip(read);
    (a.n != b.n)
        .then_some(counts)
        .or_else(|| pairs.find(|&(u, v)| !kept(u, v)))
}

/// The value of a link's quantization code.
pub fn dequantize(code: i64) -> f64 {
    LINK_SCALE.dequantize(code)
}

/// The uncompressed body of `report`'s link.
pub fn encode_body(report: &Report) -> Vec<u8> {
    let mut w = Writer::default();
    w.body(report);
    w.0.0
}

impl Writer {
    /// A report: the environment, which sections follow, and each, in
    /// page order. Each experiment's section has its own bit
    /// ([`Meta::link_bit`](crate::experiments::Meta)); bits 0-6 are the
    /// first byte's, where bit 5 is the failure's, so experiment 6's
    /// came after it (bit 6, its section still written before the
    /// failure) and links made before it read as they did. Bit 7 says a
    /// second byte (bits 8-15) follows, written only when one of its bits
    /// is set: experiments 7, 8 and 9 (bits 8-10) and the failure kept as
    /// a phrase (bit 11).
    fn body(&mut self, report: &Report) {
        self.env(&report.env);
        let mut present: u16 = 0;
        for e in Experiment::ALL.into_iter().filter(|&e| report.has(e)) {
            present |= 1 << e.meta().link_bit;
        }
        if report.failure.is_some() {
            present |= 1 << FAILURE_BIT;
        }
        if matches!(report.failure, Some(Failure::Said(_))) {
            present |= 1 << FAILURE_PHRASE_BIT;
        }
        let more = (present >> 8) as u8;
        self.byte((present & 0x7f) as u8 | u8::from(more != 0) << 7);
        if more != 0 {
            self.byte(more);
        }
        struct Write<'a>(&'a Report, &'a mut Writer);
        impl Visit for Write<'_> {
            type Out = ();
            fn visit<E: Registered>(self) {
                if let Some(e) = E::of(self.0) {
                    e.write(self.1);
                }
            }
        }
        for e in Experiment::ALL {
            e.visit(Write(report, self));
        }
        match &report.failure {
            Some(Failure::Said(p)) => self.phrase(p),
            Some(Failure::Written(text)) => self.text(text),
            None => {}
        }
    }
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
        scale: LINK_SCALE,
    };
    let report = r.body()?;
    r.finish()?;
    Ok(report)
}

impl Reader<'_> {
    /// A report written by [`Writer::body`], marked as decoded.
    fn body(&mut self) -> Result<Report, LinkError> {
        let env = self.env()?;
        let first = self.byte()?;
        let more = if first >> 7 != 0 { self.byte()? } else { 0 };
        let present = u16::from(first & 0x7f) | u16::from(more) << 8;
        let known = Experiment::ALL
            .into_iter()
            .fold(1 << FAILURE_BIT | 1 << FAILURE_PHRASE_BIT, |k, e| {
                k | 1 << e.meta().link_bit
            });
        if present & !known != 0 {
            return damaged("unknown sections");
        }
        let has = |i: u8| present & (1 << i) != 0;
        if has(FAILURE_PHRASE_BIT) && !has(FAILURE_BIT) {
            return damaged("a failure's phrase without a failure");
        }
        let mut report = Report::new(env, None);
        report.from_link = true;
        struct Read<'a, 'b>(&'a mut Reader<'b>, &'a mut Report);
        impl Visit for Read<'_, '_> {
            type Out = Result<(), LinkError>;
            fn visit<E: Registered>(self) -> Result<(), LinkError> {
                *E::slot(self.1) = Some(E::read(self.0)?);
                Ok(())
            }
        }
        for e in Experiment::ALL {
            if has(e.meta().link_bit) {
                e.visit(Read(self, &mut report))?;
            }
        }
        if has(FAILURE_BIT) {
            // A phrase since bit 3 of the second byte; a sentence before.
            report.failure = Some(if has(FAILURE_PHRASE_BIT) {
                Failure::Said(self.phrase()?)
            } else {
                Failure::Written(self.text()?)
            });
        }
        Ok(report)
    }
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
