//! The body's wire format: varints, log-quantized numbers, texts, sketches
//! of a series and the outcomes of cells, written by [`Writer`] and read
//! back by [`Reader`], which checks every count against a limit; and the
//! URL-safe base64 around the deflated body.

use super::codec::{LinkError, SKETCH_QUANTILES, Scale, damaged};
use crate::bytes;
use crate::outcome::Outcome;
use crate::stats::{Samples, Summary};
use crate::strategies::Way;
use crate::text::{Arg, Key, Phrase};

/// How a link stores an experiment's results: its section (in its
/// folder's `link.rs`).
pub trait Section: Sized {
    /// Writes its section.
    fn write(&self, w: &mut Writer);
    /// Reads its section.
    fn read(r: &mut Reader<'_>) -> Result<Self, LinkError>;
}

/// Most samples one outcome of a link holds: an experiment's largest count
/// (experiment 1's 100,000 samples of a cell; no other has more).
pub(crate) const MOST_SAMPLES: u64 = 100_000;

/// The median's index in [`SKETCH_QUANTILES`].
pub(super) const MEDIAN: usize = 3;
/// Longest string kept (reasons, messages, names), characters.
const MAX_TEXT: usize = 240;
/// Deepest a phrase in a link nests (a phrase in a phrase's argument).
const MAX_PHRASE_DEPTH: usize = 4;
/// Most arguments (or list items) of one phrase in a link.
const MAX_PHRASE_ARGS: usize = 16;

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

/// `ms` in whole `tick`s.
pub(crate) fn ticks(ms: f64, tick: f64) -> i64 {
    if ms.is_finite() {
        (ms / tick).round() as i64
    } else {
        0
    }
}

/// Resolution of timeline events (frames), ms.
pub(crate) const TICK_MS: f64 = 0.01;
/// Resolution of job spans (starts and ends), ms.
pub(crate) const SPAN_TICK_MS: f64 = 0.1;

/// A link body's writer: the shared byte primitives plus the link's own
/// quantized values (on its scale), sketches and outcomes.
#[derive(Default)]
pub struct Writer(pub(super) bytes::Writer, pub(crate) Scale);

impl std::ops::Deref for Writer {
    type Target = bytes::Writer;
    fn deref(&self) -> &bytes::Writer {
        &self.0
    }
}

impl std::ops::DerefMut for Writer {
    fn deref_mut(&mut self) -> &mut bytes::Writer {
        &mut self.0
    }
}

impl Writer {
    pub(crate) fn q(&mut self, v: f64) {
        let code = self.1.quantize(v);
        self.ivar(code);
    }

    /// A figure that may be missing (a clock skew, a burst's time), at
    /// the codec's precision.
    pub(crate) fn maybe_q(&mut self, v: Option<f64>) {
        self.flag(v.is_some());
        if let Some(v) = v {
            self.q(v);
        }
    }

    /// A text, cut to [`MAX_TEXT`] characters.
    pub(crate) fn text(&mut self, s: &str) {
        let s: String = s.chars().take(MAX_TEXT).collect();
        self.0.text(&s);
    }

    /// A text longer than [`Writer::text`] keeps (a reader's code), cut
    /// to `most` characters.
    pub(crate) fn long_text(&mut self, s: &str, most: usize) {
        let s: String = s.chars().take(most).collect();
        self.0.text(&s);
    }

    /// A phrase: its key's hash and its arguments, each named.
    pub(crate) fn phrase(&mut self, p: &Phrase) {
        self.0.uvar(u64::from(p.key.hash()));
        self.0.len(p.args.len());
        for (name, arg) in &p.args {
            self.text(name);
            match arg {
                Arg::Ms { value, marked } => {
                    self.byte(0);
                    self.0.f64(*value);
                    self.0.flag(*marked);
                }
                Arg::Us(v) => {
                    self.byte(1);
                    self.0.f64(*v);
                }
                Arg::Count(n) => {
                    self.byte(2);
                    self.0.uvar(*n);
                }
                Arg::Fixed(v, places) => {
                    self.byte(3);
                    self.0.f64(*v);
                    self.byte(*places);
                }
                Arg::Code(c) => {
                    self.byte(4);
                    self.text(c);
                }
                Arg::Data(d) => {
                    self.byte(5);
                    self.text(d);
                }
                Arg::Phrase(inner) => {
                    self.byte(6);
                    self.phrase(inner);
                }
                Arg::List(items) => {
                    self.byte(7);
                    self.0.len(items.len());
                    for item in items {
                        self.phrase(item);
                    }
                }
                Arg::Date(y, m, d) => {
                    self.byte(8);
                    self.0.ivar(*y);
                    self.byte(*m as u8);
                    self.byte(*d as u8);
                }
            }
        }
    }

    /// Values as codes, each after the first as the difference to the
    /// previous one (small for sorted values).
    pub(crate) fn deltas(&mut self, codes: impl IntoIterator<Item = i64>) {
        let mut prev = 0;
        for c in codes {
            self.ivar(c - prev);
            prev = c;
        }
    }

    /// A summary: count, the five quantiles, and the mean as a difference
    /// to the median's code (usually one byte).
    pub(crate) fn summary(&mut self, s: &Summary) {
        self.uvar(u64::from(s.n));
        let q = |v| self.1.quantize(v);
        let codes = [s.min, s.p50, s.p90, s.p99, s.max].map(q);
        let mean = q(s.mean) - q(s.p50);
        self.deltas(codes);
        self.ivar(mean);
    }

    /// `items`, each its way's code (`way`) and what `each` writes of it.
    pub(crate) fn ways<W: Way, T>(
        &mut self,
        items: &[T],
        way: impl Fn(&T) -> W,
        mut each: impl FnMut(&mut Self, &T),
    ) {
        self.len(items.len());
        for item in items {
            self.byte(way(item).code());
            each(self, item);
        }
    }

    /// An outcome. A sketch whose sample count is `usual_n` (the configured
    /// count) is tagged 0 and omits it; other counts are tagged 5; either
    /// with the spread between runs ([`Outcome::spread_ms`]) after its
    /// mean is tagged 6 or 7 instead.
    pub(crate) fn outcome(&mut self, o: &Outcome, usual_n: u32) {
        match o {
            Outcome::Measured {
                summary,
                samples_ms,
            } => match Samples::new(samples_ms.clone()) {
                Ok(samples) => {
                    let n = samples.len() as u64;
                    let spread = o.spread_ms();
                    let usual = n == u64::from(usual_n);
                    self.byte(match (usual, spread.is_some()) {
                        (true, false) => 0,
                        (false, false) => 5,
                        (true, true) => 6,
                        (false, true) => 7,
                    });
                    if !usual {
                        self.uvar(n);
                    }
                    let scale = self.1;
                    let codes = SKETCH_QUANTILES.map(|q| scale.quantize(samples.quantile(q)));
                    self.deltas(codes);
                    self.ivar(scale.quantize(summary.mean) - codes[MEDIAN]);
                    if let Some(spread) = spread {
                        self.ivar(scale.quantize(spread) - codes[MEDIAN]);
                    }
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

/// A link body's reader: the shared untrusted-bytes reader, what is left
/// of the samples a link may reconstruct, and the quantizing scale.
pub struct Reader<'a> {
    pub(super) r: bytes::Reader<'a>,
    /// How many more samples the body may make the decoder reconstruct.
    pub(super) samples_left: usize,
    /// How the body's values were quantized.
    pub(crate) scale: Scale,
}

impl<'a> std::ops::Deref for Reader<'a> {
    type Target = bytes::Reader<'a>;
    fn deref(&self) -> &bytes::Reader<'a> {
        &self.r
    }
}

impl<'a> std::ops::DerefMut for Reader<'a> {
    fn deref_mut(&mut self) -> &mut bytes::Reader<'a> {
        &mut self.r
    }
}

impl Reader<'_> {
    pub(crate) fn q(&mut self) -> Result<f64, LinkError> {
        Ok(self.scale.dequantize(self.ivar()?))
    }

    /// A figure written by [`Writer::maybe_q`].
    pub(crate) fn maybe_q(&mut self) -> Result<Option<f64>, LinkError> {
        Ok(if self.flag()? { Some(self.q()?) } else { None })
    }

    /// A text written by [`Writer::text`].
    pub(crate) fn text(&mut self) -> Result<String, LinkError> {
        Ok(self.r.text(MAX_TEXT * 4)?)
    }

    /// A text written by [`Writer::long_text`] with `most` characters.
    pub(crate) fn long_text(&mut self, most: usize) -> Result<String, LinkError> {
        let text = self.r.text(most * 4)?;
        if text.chars().count() > most {
            return damaged("a text longer than it may be");
        }
        Ok(text)
    }

    /// A phrase written by [`Writer::phrase`], nested at most
    /// [`MAX_PHRASE_DEPTH`] deep with at most [`MAX_PHRASE_ARGS`]
    /// arguments (or list items) each.
    pub(crate) fn phrase(&mut self) -> Result<Phrase, LinkError> {
        self.phrase_within(MAX_PHRASE_DEPTH)
    }

    fn phrase_within(&mut self, depth: usize) -> Result<Phrase, LinkError> {
        let Some(depth) = depth.checked_sub(1) else {
            return damaged("a phrase nested too deep");
        };
        let mut phrase = Phrase::new(Key::from_hash(self.upto(u64::from(u32::MAX))?));
        for _ in 0..self.r.len(MAX_PHRASE_ARGS)? {
            let name = self.text()?;
            let finite = |v: f64| {
                if v.is_finite() {
                    Ok(v)
                } else {
                    damaged("a phrase's number that is not finite")
                }
            };
            let arg = match self.byte()? {
                0 => Arg::Ms {
                    value: finite(self.r.f64()?)?,
                    marked: self.r.flag()?,
                },
                1 => Arg::Us(finite(self.r.f64()?)?),
                2 => Arg::Count(self.uvar()?),
                3 => Arg::Fixed(finite(self.r.f64()?)?, self.byte()?.min(12)),
                4 => Arg::Code(self.text()?.into()),
                5 => Arg::Data(self.text()?),
                6 => Arg::Phrase(Box::new(self.phrase_within(depth)?)),
                7 => Arg::List(
                    (0..self.r.len(MAX_PHRASE_ARGS)?)
                        .map(|_| self.phrase_within(depth))
                        .collect::<Result<_, _>>()?,
                ),
                8 => Arg::Date(
                    self.r.ivar()?.clamp(-9999, 9999),
                    u32::from(self.byte()?.clamp(1, 12)),
                    u32::from(self.byte()?.clamp(1, 31)),
                ),
                _ => return damaged("an unknown kind of phrase argument"),
            };
            phrase.args.push((name.into(), arg));
        }
        Ok(phrase)
    }

    /// `n` delta-coded codes as values.
    pub(crate) fn deltas(&mut self, n: usize) -> Result<Vec<i64>, LinkError> {
        let mut prev = 0i64;
        (0..n)
            .map(|_| {
                prev = prev.saturating_add(self.ivar()?);
                Ok(prev)
            })
            .collect()
    }

    pub(crate) fn summary(&mut self) -> Result<Summary, LinkError> {
        let n = self.upto(u64::from(u32::MAX))?;
        let codes = self.deltas(5)?;
        let scale = self.scale;
        let mean = scale.dequantize(codes[1].saturating_add(self.ivar()?));
        let v: Vec<f64> = codes.into_iter().map(|c| scale.dequantize(c)).collect();
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
            spread_ms: None,
        })
    }

    /// An outcome of times between two threads' stamps written with
    /// `usual_n`: [`Reader::outcome`], none below zero
    /// ([`Outcome::floor_at_zero`]).
    pub(crate) fn latencies(&mut self, usual_n: u32) -> Result<Outcome, LinkError> {
        let mut outcome = self.outcome(usual_n)?;
        outcome.floor_at_zero();
        Ok(outcome)
    }

    /// An outcome written with `usual_n` (see [`Writer::outcome`]).
    pub(crate) fn outcome(&mut self, usual_n: u32) -> Result<Outcome, LinkError> {
        match self.byte()? {
            tag @ (0 | 5 | 6 | 7) => {
                let n = if matches!(tag, 0 | 6) {
                    usual_n as usize
                } else {
                    self.upto(MOST_SAMPLES)? as usize
                };
                let codes = self.deltas(SKETCH_QUANTILES.len())?;
                let scale = self.scale;
                let mean = scale.dequantize(codes[MEDIAN].saturating_add(self.ivar()?));
                let spread_ms = if tag >= 6 {
                    let spread = scale.dequantize(codes[MEDIAN].saturating_add(self.ivar()?));
                    if spread < 0.0 {
                        return damaged("a spread below zero");
                    }
                    Some(spread)
                } else {
                    None
                };
                let q: Vec<f64> = codes.into_iter().map(|c| scale.dequantize(c)).collect();
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
                        spread_ms,
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

    /// What [`Writer::ways`] wrote: at most one item of each way, each
    /// its way's code and what `each` reads of it.
    pub(crate) fn ways<W: Way, T>(
        &mut self,
        mut each: impl FnMut(&mut Self, W) -> Result<T, LinkError>,
    ) -> Result<Vec<T>, LinkError> {
        let n = self.upto(W::COUNT as u64)?;
        (0..n)
            .map(|_| {
                let code = self.byte()?;
                let way =
                    W::from_code(code).ok_or(LinkError::Damaged("an unknown way of waiting"))?;
                each(self, way)
            })
            .collect()
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
