//! The body's wire format: varints, log-quantized numbers, texts, sketches
//! of a series and the outcomes of cells, written by [`Writer`] and read
//! back by [`Reader`], which checks every count against a limit; and the
//! URL-safe base64 around the deflated body.

use super::{LinkError, SKETCH_QUANTILES, damaged, dequantize, quantize};
use crate::outcome::Outcome;
use crate::starvation::JobMode;
use crate::stats::{Samples, Summary};
use crate::timed::{Mechanism, TimedWaitsConfig};
use crate::wake::{Strategy, WakeConfig};

/// The median's index in [`SKETCH_QUANTILES`].
pub(super) const MEDIAN: usize = 3;
/// Longest string kept (reasons, messages, names), characters.
const MAX_TEXT: usize = 240;

/// URL-safe base64 without padding (RFC 4648 §5).
pub(super) mod base64url {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

    pub fn encode(bytes: &[u8]) -> String {
        let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
        for chunk in bytes.chunks(3) {
            let n = chunk
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
            for i in 0..=chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            }
        }
        out
    }

    pub fn decode(text: &str) -> Option<Vec<u8>> {
        if text.len() % 4 == 1 {
            return None;
        }
        let mut out = Vec::with_capacity(text.len() / 4 * 3 + 2);
        for chunk in text.as_bytes().chunks(4) {
            let mut n = 0u32;
            for (i, &c) in chunk.iter().enumerate() {
                let v = ALPHABET.iter().position(|&a| a == c)? as u32;
                n |= v << (18 - 6 * i);
            }
            for i in 0..chunk.len() - 1 {
                out.push((n >> (16 - 8 * i)) as u8);
            }
        }
        Some(out)
    }
}

/// Every mechanism and strategy has a one-byte code: its index in the
/// browser list followed by the native list.
pub(super) fn mechanism_code(m: Mechanism) -> u8 {
    Mechanism::every().position(|x| x == m).unwrap_or(0) as u8
}

pub(super) fn strategy_code(s: Strategy) -> u8 {
    Strategy::every().position(|x| x == s).unwrap_or(0) as u8
}

pub(super) fn mode_code(m: JobMode) -> u8 {
    match m {
        JobMode::Blocking => 0,
        JobMode::Async => 1,
    }
}

/// `ms` in whole `tick`s.
pub(super) fn ticks(ms: f64, tick: f64) -> i64 {
    if ms.is_finite() {
        (ms / tick).round() as i64
    } else {
        0
    }
}

#[derive(Default)]
pub(super) struct Writer(pub(super) Vec<u8>);

impl Writer {
    pub(super) fn byte(&mut self, b: u8) {
        self.0.push(b);
    }

    pub(super) fn uvar(&mut self, mut v: u64) {
        loop {
            let low = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                self.0.push(low);
                return;
            }
            self.0.push(low | 0x80);
        }
    }

    pub(super) fn ivar(&mut self, v: i64) {
        self.uvar(((v << 1) ^ (v >> 63)) as u64);
    }

    pub(super) fn q(&mut self, v: f64) {
        self.ivar(quantize(v));
    }

    pub(super) fn len(&mut self, n: usize) {
        self.uvar(n as u64);
    }

    pub(super) fn text(&mut self, s: &str) {
        let s: String = s.chars().take(MAX_TEXT).collect();
        self.len(s.len());
        self.0.extend_from_slice(s.as_bytes());
    }

    /// Values as codes, each after the first as the difference to the
    /// previous one (small for sorted values).
    pub(super) fn deltas(&mut self, codes: impl IntoIterator<Item = i64>) {
        let mut prev = 0;
        for c in codes {
            self.ivar(c - prev);
            prev = c;
        }
    }

    /// A summary: count, the five quantiles, and the mean as a difference
    /// to the median's code (usually one byte).
    pub(super) fn summary(&mut self, s: &Summary) {
        self.uvar(u64::from(s.n));
        self.deltas([s.min, s.p50, s.p90, s.p99, s.max].map(quantize));
        self.ivar(quantize(s.mean) - quantize(s.p50));
    }

    /// An outcome. A sketch whose sample count is `usual_n` (the configured
    /// count) is tagged 0 and omits it; other counts are tagged 5.
    pub(super) fn outcome(&mut self, o: &Outcome, usual_n: u32) {
        match o {
            Outcome::Measured {
                summary,
                samples_ms,
            } => match Samples::new(samples_ms.clone()) {
                Ok(samples) => {
                    let n = samples.len() as u64;
                    if n == u64::from(usual_n) {
                        self.byte(0);
                    } else {
                        self.byte(5);
                        self.uvar(n);
                    }
                    let codes = SKETCH_QUANTILES.map(|q| quantize(samples.quantile(q)));
                    self.deltas(codes);
                    self.ivar(quantize(summary.mean) - codes[MEDIAN]);
                }
                Err(_) => {
                    self.byte(1);
                    self.summary(summary);
                }
            },
            Outcome::Unavailable { reason } => {
                self.byte(2);
                self.text(reason);
            }
            Outcome::TimeoutNeverFired { waited_ms } => {
                self.byte(3);
                self.q(*waited_ms);
            }
            Outcome::Failed { message } => {
                self.byte(4);
                self.text(message);
            }
        }
    }
}

pub(super) struct Reader<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) pos: usize,
    pub(super) samples_left: usize,
}

impl Reader<'_> {
    pub(super) fn byte(&mut self) -> Result<u8, LinkError> {
        let b = *self
            .bytes
            .get(self.pos)
            .ok_or(LinkError::Damaged("truncated"))?;
        self.pos += 1;
        Ok(b)
    }

    pub(super) fn uvar(&mut self) -> Result<u64, LinkError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f).checked_shl(shift).unwrap_or(0);
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        damaged("overlong number")
    }

    pub(super) fn ivar(&mut self) -> Result<i64, LinkError> {
        let u = self.uvar()?;
        Ok((u >> 1) as i64 ^ -((u & 1) as i64))
    }

    /// A number no larger than `max`.
    pub(super) fn upto(&mut self, max: u64) -> Result<u32, LinkError> {
        match self.uvar()? {
            v if v <= max => Ok(v as u32),
            _ => damaged("a number out of range"),
        }
    }

    pub(super) fn q(&mut self) -> Result<f64, LinkError> {
        Ok(dequantize(self.ivar()?))
    }

    pub(super) fn flag(&mut self) -> Result<bool, LinkError> {
        match self.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => damaged("a bad flag"),
        }
    }

    pub(super) fn text(&mut self) -> Result<String, LinkError> {
        let n = self.upto(MAX_TEXT as u64 * 4)? as usize;
        let end = self.pos.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(LinkError::Damaged("truncated"))?;
        let s = std::str::from_utf8(&self.bytes[self.pos..end])
            .map_err(|_| LinkError::Damaged("bad text"))?;
        self.pos = end;
        Ok(s.to_owned())
    }

    /// `n` delta-coded codes as values.
    pub(super) fn deltas(&mut self, n: usize) -> Result<Vec<i64>, LinkError> {
        let mut prev = 0i64;
        (0..n)
            .map(|_| {
                prev = prev.saturating_add(self.ivar()?);
                Ok(prev)
            })
            .collect()
    }

    pub(super) fn summary(&mut self) -> Result<Summary, LinkError> {
        let n = self.upto(u64::from(u32::MAX))?;
        let codes = self.deltas(5)?;
        let mean = dequantize(codes[1].saturating_add(self.ivar()?));
        let v: Vec<f64> = codes.into_iter().map(dequantize).collect();
        if n == 0 || v.windows(2).any(|p| p[0] > p[1]) {
            return damaged("an impossible summary");
        }
        Ok(Summary {
            n,
            min: v[0],
            p50: v[1],
            p90: v[2],
            p99: v[3],
            max: v[4],
            mean,
        })
    }

    /// An outcome written with `usual_n` (see [`Writer::outcome`]).
    pub(super) fn outcome(&mut self, usual_n: u32) -> Result<Outcome, LinkError> {
        match self.byte()? {
            tag @ (0 | 5) => {
                let most = TimedWaitsConfig::MAX_SAMPLES.max(WakeConfig::MAX_ROUNDS);
                let n = if tag == 0 {
                    usual_n as usize
                } else {
                    self.upto(u64::from(most))? as usize
                };
                let codes = self.deltas(SKETCH_QUANTILES.len())?;
                let mean = dequantize(codes[MEDIAN].saturating_add(self.ivar()?));
                let q: Vec<f64> = codes.into_iter().map(dequantize).collect();
                if n == 0 || q.windows(2).any(|p| p[0] > p[1]) {
                    return damaged("an impossible sketch");
                }
                self.samples_left = self
                    .samples_left
                    .checked_sub(n)
                    .ok_or(LinkError::Damaged("too many samples"))?;
                let samples_ms = reconstruct(&q, n);
                let at = |p: f64| quantile_of_sketch(&q, p);
                Ok(Outcome::Measured {
                    summary: Summary {
                        n: n as u32,
                        min: q[0],
                        p50: at(0.5),
                        p90: at(0.9),
                        p99: at(0.99),
                        max: q[q.len() - 1],
                        mean,
                    },
                    samples_ms,
                })
            }
            1 => Ok(Outcome::Measured {
                summary: self.summary()?,
                samples_ms: Vec::new(),
            }),
            2 => Ok(Outcome::Unavailable {
                reason: self.text()?,
            }),
            3 => Ok(Outcome::TimeoutNeverFired {
                waited_ms: self.q()?,
            }),
            4 => Ok(Outcome::Failed {
                message: self.text()?,
            }),
            _ => damaged("an unknown outcome"),
        }
    }

    pub(super) fn mechanism(&mut self) -> Result<Mechanism, LinkError> {
        let i = self.byte()? as usize;
        Mechanism::every()
            .nth(i)
            .ok_or(LinkError::Damaged("an unknown mechanism"))
    }

    pub(super) fn strategy(&mut self) -> Result<Strategy, LinkError> {
        let i = self.byte()? as usize;
        Strategy::every()
            .nth(i)
            .ok_or(LinkError::Damaged("an unknown strategy"))
    }

    pub(super) fn mode(&mut self) -> Result<JobMode, LinkError> {
        Ok(if self.flag()? {
            JobMode::Async
        } else {
            JobMode::Blocking
        })
    }
}

/// The sketch's quantile function at `p`: piecewise linear between the
/// stored quantiles.
pub(super) fn quantile_of_sketch(q: &[f64], p: f64) -> f64 {
    let i = SKETCH_QUANTILES
        .iter()
        .position(|&s| s >= p)
        .unwrap_or(SKETCH_QUANTILES.len() - 1);
    if i == 0 || SKETCH_QUANTILES[i] == p {
        return q[i];
    }
    let (p0, p1) = (SKETCH_QUANTILES[i - 1], SKETCH_QUANTILES[i]);
    q[i - 1] + (q[i] - q[i - 1]) * (p - p0) / (p1 - p0)
}

/// `n` samples whose empirical quantiles follow the sketch.
pub(super) fn reconstruct(q: &[f64], n: usize) -> Vec<f64> {
    if n == 1 {
        return vec![quantile_of_sketch(q, 0.5)];
    }
    (0..n)
        .map(|i| quantile_of_sketch(q, i as f64 / (n - 1) as f64))
        .collect()
}
