//! Share links: a whole report in a URL fragment, short enough to paste in
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
//! [`decode`] takes untrusted text: it never panics, refuses links longer
//! than [`MAX_LINK_CHARS`], inflates at most [`MAX_BODY_BYTES`], caps every
//! count it reads and the total of reconstructed samples
//! ([`MAX_TOTAL_SAMPLES`]), and validates every configuration, so memory
//! stays bounded on any input.

use crate::clock::ClockInfo;
use crate::ladder::{
    LadderConfig, MAX_BLOCK, SLEEP1_THRESHOLD, SpinCalibration, SpinLadder, SpinUntil, StepCost,
    UNCALIBRATED_MAX_SPIN_UNITS, step,
};
use crate::outcome::Outcome;
use crate::schema::{Cell, Environment, NestedChain, Report, TimedWaits};
use crate::starvation::{
    JobMode, JobSpan, MainConfig, MainRun, MainStarvation, PoolConfig, PoolRun, PoolStarvation,
};
use crate::stats::{Samples, Summary};
use crate::timed::{CellKey, Mechanism, TimedWaitsConfig};
use crate::wake::{Strategy, WakeConfig, WakeLatency, WakeResult};

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
/// The median's index in [`SKETCH_QUANTILES`].
const MEDIAN: usize = 3;
/// Largest quantization step read (about 10¹² ms), so every decoded value
/// is finite.
const MAX_STEPS: u64 = 3700;
/// Resolution of timeline events (frames, job starts and ends), ms.
const TICK_MS: f64 = 0.01;
/// Resolution of job spans (starts and ends), ms.
const SPAN_TICK_MS: f64 = 0.1;
/// Longest string kept (reasons, messages, names), characters.
const MAX_TEXT: usize = 240;

/// Why a link could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShareError {
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

fn damaged<T>(what: &'static str) -> Result<T, ShareError> {
    Err(ShareError::Damaged(what))
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

/// How a timed-waits section names its cells' keys: each cell lists its
/// own, or they are implied by the configuration: as the page measures now,
/// or as it did before the worker's fresh-task timer came (links made then).
const KEYS_LISTED: u8 = 0;
const KEYS_IMPLIED_V1: u8 = 1;
const KEYS_IMPLIED: u8 = 2;

/// Encodes `report` as a share payload (`v1:…`).
pub fn encode(report: &Report) -> String {
    let mut w = Writer::default();
    env(&mut w, &report.env);
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
        timed_waits(&mut w, tw);
    }
    if let Some(m) = &report.main_starvation {
        main_starvation(&mut w, m);
    }
    if let Some(p) = &report.pool_starvation {
        pool_starvation(&mut w, p);
    }
    if let Some(l) = &report.spin_ladder {
        spin_ladder(&mut w, l);
    }
    if let Some(wl) = &report.wake_latency {
        wake_latency(&mut w, wl);
    }
    if let Some(f) = &report.failure {
        w.text(f);
    }
    let packed = miniz_oxide::deflate::compress_to_vec(&w.0, 10);
    format!("{PREFIX}{}", base64url::encode(&packed))
}

/// Decodes a share payload (the text after `#`). Never panics.
pub fn decode(payload: &str) -> Result<Report, ShareError> {
    let payload = payload.trim();
    if payload.len() > MAX_LINK_CHARS {
        return Err(ShareError::TooLong(payload.len()));
    }
    let Some(body) = payload.strip_prefix(PREFIX) else {
        return match payload.split_once(':') {
            Some((v, _))
                if v.len() <= 8
                    && v.starts_with('v')
                    && v[1..].bytes().all(|b| b.is_ascii_digit()) =>
            {
                Err(ShareError::UnknownVersion(v.to_owned()))
            }
            _ => Err(ShareError::NotALink),
        };
    };
    let packed = base64url::decode(body).ok_or(ShareError::Damaged("not base64url"))?;
    let bytes = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_BODY_BYTES)
        .map_err(|_| ShareError::Damaged("cannot be inflated"))?;
    let mut r = Reader {
        bytes: &bytes,
        pos: 0,
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
    if r.pos != bytes.len() {
        return damaged("trailing data");
    }
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

/// URL-safe base64 without padding (RFC 4648 §5).
mod base64url {
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
fn mechanism_code(m: Mechanism) -> u8 {
    Mechanism::every().position(|x| x == m).unwrap_or(0) as u8
}

fn strategy_code(s: Strategy) -> u8 {
    Strategy::every().position(|x| x == s).unwrap_or(0) as u8
}

fn mode_code(m: JobMode) -> u8 {
    match m {
        JobMode::Blocking => 0,
        JobMode::Async => 1,
    }
}

/// `ms` in whole `tick`s.
fn ticks(ms: f64, tick: f64) -> i64 {
    if ms.is_finite() {
        (ms / tick).round() as i64
    } else {
        0
    }
}

#[derive(Default)]
struct Writer(Vec<u8>);

impl Writer {
    fn byte(&mut self, b: u8) {
        self.0.push(b);
    }

    fn uvar(&mut self, mut v: u64) {
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

    fn ivar(&mut self, v: i64) {
        self.uvar(((v << 1) ^ (v >> 63)) as u64);
    }

    fn q(&mut self, v: f64) {
        self.ivar(quantize(v));
    }

    fn len(&mut self, n: usize) {
        self.uvar(n as u64);
    }

    fn text(&mut self, s: &str) {
        let s: String = s.chars().take(MAX_TEXT).collect();
        self.len(s.len());
        self.0.extend_from_slice(s.as_bytes());
    }

    /// Values as codes, each after the first as the difference to the
    /// previous one (small for sorted values).
    fn deltas(&mut self, codes: impl IntoIterator<Item = i64>) {
        let mut prev = 0;
        for c in codes {
            self.ivar(c - prev);
            prev = c;
        }
    }

    /// A summary: count, the five quantiles, and the mean as a difference
    /// to the median's code (usually one byte).
    fn summary(&mut self, s: &Summary) {
        self.uvar(u64::from(s.n));
        self.deltas([s.min, s.p50, s.p90, s.p99, s.max].map(quantize));
        self.ivar(quantize(s.mean) - quantize(s.p50));
    }

    /// An outcome. A sketch whose sample count is `usual_n` (the configured
    /// count) is tagged 0 and omits it; other counts are tagged 5.
    fn outcome(&mut self, o: &Outcome, usual_n: u32) {
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

fn env(w: &mut Writer, e: &Environment) {
    w.text(&e.short_name());
    w.uvar(u64::from(e.hardware_concurrency));
    w.byte(u8::from(e.cross_origin_isolated) | u8::from(e.hidden_during_run) << 1);
    match &e.clock {
        Some(c) => {
            w.byte(1);
            w.q(c.min_step_ms);
            w.q(c.typical_step_ms);
            w.uvar(u64::from(c.readings));
        }
        None => w.byte(0),
    }
    w.uvar((e.started_at_unix_ms / 1000.0).round().max(0.0) as u64);
}

fn timed_waits(w: &mut Writer, tw: &TimedWaits) {
    let c = &tw.config;
    w.len(c.durations_ms.len());
    for &d in &c.durations_ms {
        w.uvar(u64::from(d));
    }
    w.uvar(u64::from(c.samples));
    w.uvar(u64::from(c.chain_depth));
    w.uvar(u64::from(c.chain_runs));
    // The page's cells follow `config.cells()`; then the keys are implied
    // (2; links made before the worker's fresh-task timer say 1 and imply
    // `config.cells_v1()`), else each cell names its key (0).
    let implied = tw.cells.iter().map(|c| c.key).eq(c.cells());
    w.byte(if implied { KEYS_IMPLIED } else { KEYS_LISTED });
    w.len(tw.cells.len());
    for cell in &tw.cells {
        if !implied {
            w.byte(mechanism_code(cell.key.mechanism));
            w.uvar(cell.key.requested_ms.map_or(0, |d| u64::from(d) + 1));
        }
        w.outcome(&cell.outcome, c.samples);
    }
    w.len(tw.chain.levels.len());
    for level in &tw.chain.levels {
        w.summary(level);
    }
}

fn main_starvation(w: &mut Writer, m: &MainStarvation) {
    w.uvar(u64::from(m.config.jobs));
    w.uvar(u64::from(m.config.wait_ms));
    w.len(m.runs.len());
    for run in &m.runs {
        w.byte(mode_code(run.mode));
        w.q(run.batch_ms);
        w.q(run.timer_queue_wait_ms);
        w.q(run.message_queue_wait_ms);
        w.len(run.frames_ms.len());
        w.deltas(run.frames_ms.iter().map(|&f| ticks(f, TICK_MS)));
    }
}

fn pool_starvation(w: &mut Writer, p: &PoolStarvation) {
    w.uvar(u64::from(p.config.workers));
    w.uvar(u64::from(p.config.jobs));
    w.uvar(u64::from(p.config.wait_ms));
    w.byte(u8::from(p.blocking_sleeps));
    w.len(p.runs.len());
    for run in &p.runs {
        w.byte(mode_code(run.mode));
        w.q(run.batch_ms);
        w.q(run.extra_job_wait_ms);
        w.len(run.spans.len());
        let (mut job, mut start) = (0i64, 0i64);
        for s in &run.spans {
            w.uvar(u64::from(s.worker));
            w.ivar(i64::from(s.job) - job);
            let (t0, t1) = (
                ticks(s.start_ms, SPAN_TICK_MS),
                ticks(s.end_ms, SPAN_TICK_MS),
            );
            w.ivar(t0 - start);
            w.ivar(t1 - t0);
            (job, start) = (i64::from(s.job), t0);
        }
    }
}

fn spin_ladder(w: &mut Writer, l: &SpinLadder) {
    w.uvar(u64::from(l.config.steps));
    w.uvar(u64::from(l.config.repeats));
    w.uvar(u64::from(l.config.spin_until_ms));
    // The page measures calls 0, 1, 2, …; then the call numbers are implied
    // (odd flags). 4 and 5 carry the spin unit's calibration and each
    // step's block; 2 and 3 blocks only (links made before calibration);
    // 0 and 1 neither (links made before blocks).
    let implied = l
        .steps
        .iter()
        .enumerate()
        .all(|(i, s)| s.count as usize == i);
    w.byte(if l.calibration.is_some() { 4 } else { 2 } + u8::from(implied));
    if let Some(c) = l.calibration {
        w.uvar(u64::from(c.turns_per_unit));
        w.q(c.unit_ns);
    }
    w.len(l.steps.len());
    for s in &l.steps {
        if !implied {
            w.uvar(u64::from(s.count));
        }
        w.q(s.p50_ms);
        w.q(s.max_ms);
        w.uvar(u64::from(s.block));
    }
    w.len(l.spin_until.len());
    for s in &l.spin_until {
        w.byte(u8::from(s.sleep_stage));
        w.q(s.wall_ms);
        w.q(s.busy_ms);
        w.uvar(u64::from(s.calls));
    }
}

fn wake_latency(w: &mut Writer, wl: &WakeLatency) {
    w.uvar(u64::from(wl.config.rounds));
    w.uvar(u64::from(wl.config.max_delay_us));
    w.uvar(wl.config.seed);
    match wl.skew_ms {
        Some(s) => {
            w.byte(1);
            w.q(s);
        }
        None => w.byte(0),
    }
    w.len(wl.results.len());
    for r in &wl.results {
        w.byte(strategy_code(r.strategy));
        w.outcome(&r.outcome, wl.config.rounds);
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    samples_left: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, ShareError> {
        let b = *self
            .bytes
            .get(self.pos)
            .ok_or(ShareError::Damaged("truncated"))?;
        self.pos += 1;
        Ok(b)
    }

    fn uvar(&mut self) -> Result<u64, ShareError> {
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

    fn ivar(&mut self) -> Result<i64, ShareError> {
        let u = self.uvar()?;
        Ok((u >> 1) as i64 ^ -((u & 1) as i64))
    }

    /// A number no larger than `max`.
    fn upto(&mut self, max: u64) -> Result<u32, ShareError> {
        match self.uvar()? {
            v if v <= max => Ok(v as u32),
            _ => damaged("a number out of range"),
        }
    }

    fn q(&mut self) -> Result<f64, ShareError> {
        Ok(dequantize(self.ivar()?))
    }

    fn flag(&mut self) -> Result<bool, ShareError> {
        match self.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => damaged("a bad flag"),
        }
    }

    fn text(&mut self) -> Result<String, ShareError> {
        let n = self.upto(MAX_TEXT as u64 * 4)? as usize;
        let end = self.pos.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(ShareError::Damaged("truncated"))?;
        let s = std::str::from_utf8(&self.bytes[self.pos..end])
            .map_err(|_| ShareError::Damaged("bad text"))?;
        self.pos = end;
        Ok(s.to_owned())
    }

    /// `n` delta-coded codes as values.
    fn deltas(&mut self, n: usize) -> Result<Vec<i64>, ShareError> {
        let mut prev = 0i64;
        (0..n)
            .map(|_| {
                prev = prev.saturating_add(self.ivar()?);
                Ok(prev)
            })
            .collect()
    }

    fn summary(&mut self) -> Result<Summary, ShareError> {
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
    fn outcome(&mut self, usual_n: u32) -> Result<Outcome, ShareError> {
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
                    .ok_or(ShareError::Damaged("too many samples"))?;
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

    fn env(&mut self) -> Result<Environment, ShareError> {
        let name = self.text()?;
        let hardware_concurrency = self.upto(4096)?;
        let flags = self.byte()?;
        if flags >> 2 != 0 {
            return damaged("unknown flags");
        }
        let clock = if self.flag()? {
            Some(ClockInfo {
                min_step_ms: self.q()?,
                typical_step_ms: self.q()?,
                readings: self.upto(u64::from(u32::MAX))?,
            })
        } else {
            None
        };
        let seconds = self.upto(u64::from(u32::MAX))?;
        Ok(Environment {
            user_agent: name,
            hardware_concurrency,
            cross_origin_isolated: flags & 1 != 0,
            clock,
            started_at_unix_ms: f64::from(seconds) * 1000.0,
            hidden_during_run: flags & 2 != 0,
            native: None,
        })
    }

    fn mechanism(&mut self) -> Result<Mechanism, ShareError> {
        let i = self.byte()? as usize;
        Mechanism::every()
            .nth(i)
            .ok_or(ShareError::Damaged("an unknown mechanism"))
    }

    fn strategy(&mut self) -> Result<Strategy, ShareError> {
        let i = self.byte()? as usize;
        Strategy::every()
            .nth(i)
            .ok_or(ShareError::Damaged("an unknown strategy"))
    }

    fn mode(&mut self) -> Result<JobMode, ShareError> {
        Ok(if self.flag()? {
            JobMode::Async
        } else {
            JobMode::Blocking
        })
    }

    fn timed_waits(&mut self) -> Result<TimedWaits, ShareError> {
        let n = self.upto(TimedWaitsConfig::MAX_DURATIONS as u64)?;
        let durations_ms = (0..n)
            .map(|_| self.upto(u64::from(TimedWaitsConfig::MAX_DURATION_MS)))
            .collect::<Result<Vec<_>, _>>()?;
        let config = TimedWaitsConfig {
            durations_ms,
            samples: self.upto(u64::from(TimedWaitsConfig::MAX_SAMPLES))?,
            chain_depth: self.upto(64)?,
            chain_runs: self.upto(1000)?,
        };
        config
            .validate()
            .map_err(|_| ShareError::Damaged("an invalid configuration"))?;
        let keys = match self.byte()? {
            KEYS_LISTED => None,
            KEYS_IMPLIED_V1 => Some(config.cells_v1()),
            KEYS_IMPLIED => Some(config.cells()),
            _ => return damaged("a bad flag"),
        };
        let implied = keys.is_some();
        let keys = keys.unwrap_or_default();
        let n = self.upto(if implied { keys.len() as u64 } else { 256 })?;
        let cells = (0..n as usize)
            .map(|i| {
                let key = if implied {
                    keys[i]
                } else {
                    let mechanism = self.mechanism()?;
                    let requested_ms =
                        match self.upto(u64::from(TimedWaitsConfig::MAX_DURATION_MS) + 1)? {
                            0 => None,
                            d => Some(d - 1),
                        };
                    CellKey {
                        mechanism,
                        requested_ms,
                    }
                };
                Ok(Cell {
                    key,
                    outcome: self.outcome(config.samples)?,
                })
            })
            .collect::<Result<Vec<_>, ShareError>>()?;
        let n = self.upto(u64::from(config.chain_depth))?;
        let levels = (0..n)
            .map(|_| self.summary())
            .collect::<Result<Vec<_>, _>>()?;
        Ok(TimedWaits {
            config,
            cells,
            chain: NestedChain { levels },
        })
    }

    fn main_starvation(&mut self) -> Result<MainStarvation, ShareError> {
        let config = MainConfig {
            jobs: self.upto(10_000)?,
            wait_ms: self.upto(100_000)?,
        };
        let n = self.upto(2)?;
        let runs = (0..n)
            .map(|_| {
                let mode = self.mode()?;
                let (batch_ms, timer_queue_wait_ms, message_queue_wait_ms) =
                    (self.q()?, self.q()?, self.q()?);
                let frames = self.upto(20_000)? as usize;
                let frames_ms = self
                    .deltas(frames)?
                    .into_iter()
                    .map(|t| t as f64 * TICK_MS)
                    .collect();
                Ok(MainRun {
                    mode,
                    batch_ms,
                    timer_queue_wait_ms,
                    message_queue_wait_ms,
                    frames_ms,
                })
            })
            .collect::<Result<Vec<_>, ShareError>>()?;
        Ok(MainStarvation { config, runs })
    }

    fn pool_starvation(&mut self) -> Result<PoolStarvation, ShareError> {
        let config = PoolConfig {
            workers: self.upto(64)?,
            jobs: self.upto(10_000)?,
            wait_ms: self.upto(100_000)?,
        };
        let blocking_sleeps = self.flag()?;
        let n = self.upto(2)?;
        let runs = (0..n)
            .map(|_| {
                let mode = self.mode()?;
                let (batch_ms, extra_job_wait_ms) = (self.q()?, self.q()?);
                let spans = self.upto(u64::from(config.jobs))?;
                let (mut job, mut start) = (0i64, 0i64);
                let spans = (0..spans)
                    .map(|_| {
                        let worker = self.upto(64)?;
                        job = job.saturating_add(self.ivar()?);
                        start = start.saturating_add(self.ivar()?);
                        let end = start.saturating_add(self.ivar()?);
                        Ok(JobSpan {
                            worker,
                            job: u32::try_from(job)
                                .map_err(|_| ShareError::Damaged("a bad job"))?,
                            start_ms: start as f64 * SPAN_TICK_MS,
                            end_ms: end as f64 * SPAN_TICK_MS,
                        })
                    })
                    .collect::<Result<Vec<_>, ShareError>>()?;
                Ok(PoolRun {
                    mode,
                    batch_ms,
                    extra_job_wait_ms,
                    spans,
                })
            })
            .collect::<Result<Vec<_>, ShareError>>()?;
        Ok(PoolStarvation {
            config,
            runs,
            blocking_sleeps,
        })
    }

    fn spin_ladder(&mut self) -> Result<SpinLadder, ShareError> {
        let config = LadderConfig {
            steps: self.upto(200)?,
            repeats: self.upto(200)?,
            spin_until_ms: self.upto(5000)?,
        };
        let (implied, blocks, calibrated) = match self.byte()? {
            b @ 0..=5 => (b % 2 == 1, b >= 2, b >= 4),
            _ => return damaged("a bad flag"),
        };
        let calibration = if calibrated {
            Some(SpinCalibration {
                turns_per_unit: self.upto(u64::from(u32::MAX))?.max(1),
                unit_ns: self.q()?,
            })
        } else {
            None
        };
        let cap = calibration.map_or(UNCALIBRATED_MAX_SPIN_UNITS, |c| c.max_units());
        let n = self.upto(u64::from(config.steps))?;
        let steps = (0..n)
            .map(|i| {
                let count = if implied {
                    i
                } else {
                    self.upto(u64::from(config.steps))?
                };
                Ok(StepCost {
                    count,
                    step: step(count, Some(SLEEP1_THRESHOLD), cap),
                    p50_ms: self.q()?,
                    max_ms: self.q()?,
                    block: if blocks {
                        self.upto(u64::from(MAX_BLOCK))?.max(1)
                    } else {
                        1
                    },
                })
            })
            .collect::<Result<Vec<_>, ShareError>>()?;
        let n = self.upto(2)?;
        let spin_until = (0..n)
            .map(|_| {
                Ok(SpinUntil {
                    sleep_stage: self.flag()?,
                    wall_ms: self.q()?,
                    busy_ms: self.q()?,
                    calls: self.upto(u64::from(u32::MAX))?,
                })
            })
            .collect::<Result<Vec<_>, ShareError>>()?;
        Ok(SpinLadder {
            config,
            steps,
            spin_until,
            calibration,
        })
    }

    fn wake_latency(&mut self) -> Result<WakeLatency, ShareError> {
        let config = WakeConfig {
            rounds: self.upto(u64::from(WakeConfig::MAX_ROUNDS))?,
            max_delay_us: self.upto(1_000_000)?,
            seed: self.uvar()?,
        };
        let skew_ms = if self.flag()? { Some(self.q()?) } else { None };
        let n = self.upto(Strategy::every().count() as u64)?;
        let results = (0..n)
            .map(|_| {
                Ok(WakeResult {
                    strategy: self.strategy()?,
                    outcome: self.outcome(config.rounds)?,
                })
            })
            .collect::<Result<Vec<_>, ShareError>>()?;
        Ok(WakeLatency {
            config,
            skew_ms,
            results,
        })
    }
}

/// The sketch's quantile function at `p`: piecewise linear between the
/// stored quantiles.
fn quantile_of_sketch(q: &[f64], p: f64) -> f64 {
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
fn reconstruct(q: &[f64], n: usize) -> Vec<f64> {
    if n == 1 {
        return vec![quantile_of_sketch(q, 0.5)];
    }
    (0..n)
        .map(|i| quantile_of_sketch(q, i as f64 / (n - 1) as f64))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantization_keeps_half_a_step() {
        for v in [1e-4, 0.00123, 0.5, 1.0, 4.2, 15.6, 1000.0, 18_000.0, -0.02] {
            let back = dequantize(quantize(v));
            assert!(
                ((back - v) / v).abs() <= RELATIVE_PRECISION / 2.0 + 1e-12,
                "{v} -> {back}"
            );
        }
        assert_eq!(quantize(0.0), 0);
        assert_eq!(quantize(5e-5), 0);
        assert_eq!(quantize(f64::NAN), 0);
        assert!(dequantize(i64::MIN).is_finite() && dequantize(i64::MAX).is_finite());
    }

    #[test]
    fn payloads_come_from_the_fragment() {
        assert_eq!(payloads("https://x/y?embed=a#v1:A;v1:B"), ["v1:A", "v1:B"]);
        assert_eq!(payloads(" v1:A "), ["v1:A"]);
        assert!(payloads("https://x/y#").is_empty());
    }

    #[test]
    fn base64url_round_trips() {
        for len in 0..40 {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
            let text = base64url::encode(&bytes);
            assert!(
                text.bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
            );
            assert_eq!(base64url::decode(&text).unwrap(), bytes);
        }
        assert!(base64url::decode("A").is_none());
        assert!(base64url::decode("AB=C").is_none());
    }

    #[test]
    fn versions_and_garbage_are_refused() {
        assert_eq!(
            decode("v2:AAAA"),
            Err(ShareError::UnknownVersion("v2".into()))
        );
        assert_eq!(decode("hello"), Err(ShareError::NotALink));
        assert_eq!(
            decode("<script>alert(1)</script>"),
            Err(ShareError::NotALink)
        );
        assert!(matches!(decode("v1:%%%"), Err(ShareError::Damaged(_))));
        assert!(matches!(decode("v1:AAAA"), Err(ShareError::Damaged(_))));
        let long = format!("v1:{}", "A".repeat(MAX_LINK_CHARS));
        assert!(matches!(decode(&long), Err(ShareError::TooLong(_))));
    }

    #[test]
    fn a_sketch_reproduces_its_quantiles() {
        assert_eq!(SKETCH_QUANTILES[MEDIAN], 0.5);
        let q = [1.0, 1.2, 1.3, 1.5, 2.0, 2.5, 5.0, 9.0];
        let samples = reconstruct(&q, 201);
        let s = Samples::new(samples).unwrap();
        for (p, v) in SKETCH_QUANTILES.iter().zip(q) {
            assert!((s.quantile(*p) - v).abs() < 1e-9, "p={p}");
        }
    }

    /// A real run of every experiment: a frozen copy of a native set (the
    /// bundled one is rewritten per machine by `cargo xtask native`).
    fn native_suite() -> Report {
        Report::from_json(include_str!("../tests/data/native_report.json")).unwrap()
    }

    /// A real browser run of experiment 1 (the golden file).
    fn browser_timed_waits() -> Report {
        Report::from_json(include_str!("../tests/data/report_v1.json")).unwrap()
    }

    fn close(a: f64, b: f64) -> bool {
        (a.abs() < FLOOR_MS && b.abs() < FLOOR_MS)
            || ((a - b) / a).abs() <= RELATIVE_PRECISION / 2.0 + 1e-9
    }

    fn assert_summaries_close(a: &Outcome, b: &Outcome, what: &str) {
        match (a.summary(), b.summary()) {
            (Some(x), Some(y)) => {
                assert_eq!(x.n, y.n, "{what}");
                for (u, v) in [
                    (x.min, y.min),
                    (x.p50, y.p50),
                    (x.p90, y.p90),
                    (x.p99, y.p99),
                    (x.max, y.max),
                    (x.mean, y.mean),
                ] {
                    assert!(close(u, v), "{what}: {u} vs {v}");
                }
            }
            (None, None) => match (a, b) {
                (
                    Outcome::TimeoutNeverFired { waited_ms: x },
                    Outcome::TimeoutNeverFired { waited_ms: y },
                ) => assert!(close(*x, *y), "{what}"),
                _ => assert_eq!(a, b, "{what}"),
            },
            _ => panic!("{what}: outcome kind changed"),
        }
    }

    #[test]
    fn round_trips_within_the_stated_precision() {
        for original in [native_suite(), browser_timed_waits()] {
            let link = encode(&original);
            let back = decode(&link).unwrap();
            assert!(back.from_link);
            assert_eq!(back.env.short_name(), original.env.short_name());
            let relinked = decode(&encode(&back)).unwrap();
            let (a, b) = (original.timed_waits.unwrap(), back.timed_waits.unwrap());
            assert_eq!(a.config, b.config);
            assert_eq!(a.cells.len(), b.cells.len());
            for (x, y) in a.cells.iter().zip(&b.cells) {
                assert_eq!(x.key, y.key);
                assert_summaries_close(&x.outcome, &y.outcome, &x.key.id());
            }
            assert_eq!(a.chain.levels.len(), b.chain.levels.len());
            // Re-sharing a decoded link gives the same numbers again.
            assert_eq!(relinked.timed_waits.unwrap().config, b.config);
        }
        let original = native_suite();
        let back = decode(&encode(&original)).unwrap();
        let (m, mb) = (
            original.main_starvation.unwrap(),
            back.main_starvation.unwrap(),
        );
        for (x, y) in m.runs.iter().zip(&mb.runs) {
            assert!(close(x.batch_ms, y.batch_ms));
            assert_eq!(x.frames_ms.len(), y.frames_ms.len());
            for (f, g) in x.frames_ms.iter().zip(&y.frames_ms) {
                assert!((f - g).abs() <= TICK_MS / 2.0 + 1e-9);
            }
        }
        let (p, pb) = (
            original.pool_starvation.unwrap(),
            back.pool_starvation.unwrap(),
        );
        assert_eq!(p.config, pb.config);
        for (x, y) in p.runs.iter().zip(&pb.runs) {
            assert!(close(x.extra_job_wait_ms, y.extra_job_wait_ms));
            for (s, t) in x.spans.iter().zip(&y.spans) {
                assert_eq!((s.worker, s.job), (t.worker, t.job));
                assert!((s.end_ms - t.end_ms).abs() <= SPAN_TICK_MS + 1e-9);
            }
        }
        let (l, lb) = (original.spin_ladder.unwrap(), back.spin_ladder.unwrap());
        assert_eq!(l.steps.len(), lb.steps.len());
        for (x, y) in l.steps.iter().zip(&lb.steps) {
            assert_eq!((x.count, x.step), (y.count, y.step));
            assert!(close(x.p50_ms, y.p50_ms));
        }
        let (c, cb) = (l.calibration.unwrap(), lb.calibration.unwrap());
        assert_eq!(c.turns_per_unit, cb.turns_per_unit);
        assert!(close(c.unit_ns, cb.unit_ns));
        // A ladder made before calibration travels without one and keeps
        // its old units (512 at most a call).
        let mut old = Report {
            spin_ladder: Some(SpinLadder {
                calibration: None,
                ..l.clone()
            }),
            ..Report::new(original.env.clone(), None)
        };
        old.env.native = None;
        let old_back = decode(&encode(&old)).unwrap().spin_ladder.unwrap();
        assert_eq!(old_back.calibration, None);
        assert_eq!(
            old_back.steps[9].step,
            crate::ladder::Step::Spin { units: 512 }
        );
        let (w, wb) = (original.wake_latency.unwrap(), back.wake_latency.unwrap());
        assert_eq!(w.config, wb.config);
        for (x, y) in w.results.iter().zip(&wb.results) {
            assert_eq!(x.strategy, y.strategy);
            assert_summaries_close(&x.outcome, &y.outcome, x.strategy.id());
        }
    }

    /// A link made before the worker's fresh-task timer came (by the code
    /// of that day, from a report whose cells followed the configuration,
    /// so its keys were implied) opens with the cells it had.
    #[test]
    fn links_made_before_the_worker_fresh_task_timer_still_open() {
        const OLD: &str = "v1:Jc0xCgIxEAXQndnZIQxhTSJYWKXwAhZ6AVuvIWjhLgiCpQew3EosrDyAYGsl4gEsLMUDWFqbZKeZx-fD707mq3o588PR2NeVny6q9QYBGm74eIDz_fJiAMAQSZFfS9cfeCNZVuSPjpQ9pzl6b1iMVslPQ0oLU_TWEotqfbLIShFG3ywRMyEGvy0GY8p_lpCp7ewcEiUjfMNiOPiY9P8";
        let report = decode(OLD).expect("an old link opens");
        let tw = report.timed_waits.unwrap();
        let keys: Vec<_> = tw.cells.iter().map(|c| c.key).collect();
        assert_eq!(keys, tw.config.cells_v1());
        assert!(
            !keys
                .iter()
                .any(|k| k.mechanism == Mechanism::WorkerTimeoutFreshTask)
        );
        for (i, cell) in tw.cells.iter().enumerate() {
            let p50 = cell.outcome.summary().unwrap().p50;
            assert!(close(p50, 1.5 + i as f64), "{}: {p50}", cell.key.id());
        }
    }

    /// A tiny deterministic generator for the fuzz inputs.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n.max(1) as u64) as usize
        }
    }

    /// Decoding never panics and stays bounded on 120,000 hostile inputs.
    #[test]
    fn hostile_payloads_never_panic() {
        fuzz(120_000);
    }

    /// The same over 1,000,000 inputs, with the count and the largest
    /// decoded report printed (`cargo xtask bench`). Memory stays bounded
    /// by the decoder's caps, which `fuzz` asserts on every decoded report.
    #[test]
    #[ignore = "benchmark: run by cargo xtask bench"]
    fn bench_hostile_payloads_million() {
        let started = std::time::Instant::now();
        let (decoded, largest) = fuzz(1_000_000);
        println!(
            "  1000000 hostile links in {:.1} s: 0 panics, {decoded} decoded (mutations of real \
             links), largest {largest} samples (cap {MAX_TOTAL_SAMPLES}), inflated bodies capped \
             at {MAX_BODY_BYTES} bytes",
            started.elapsed().as_secs_f64()
        );
    }

    /// Feeds `count` hostile inputs to the decoder: random text, mutated
    /// real links, and valid compression around random or mutated bodies
    /// (which reaches every field reader). Returns how many decoded and the
    /// most samples one decoded report held.
    fn fuzz(count: usize) -> (usize, usize) {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let links = [encode(&native_suite()), encode(&browser_timed_waits())];
        let mut bodies = Vec::new();
        for r in [native_suite(), browser_timed_waits()] {
            let packed = base64url::decode(&encode(&r)[PREFIX.len()..]).unwrap();
            bodies.push(miniz_oxide::inflate::decompress_to_vec(&packed).unwrap());
        }
        let alphabet: Vec<char> = "ABCxyz019-_v1:<>&\"'%#/= é\u{0}".chars().collect();
        let (mut decoded_ok, mut largest) = (0, 0);
        let mut check = |input: &str| {
            if let Ok(report) = decode(input) {
                decoded_ok += 1;
                let samples: usize = report
                    .timed_waits
                    .iter()
                    .flat_map(|t| &t.cells)
                    .map(|c| match &c.outcome {
                        Outcome::Measured { samples_ms, .. } => samples_ms.len(),
                        _ => 0,
                    })
                    .sum();
                assert!(samples <= MAX_TOTAL_SAMPLES);
                largest = largest.max(samples);
                let _ = encode(&report);
            }
        };
        for i in 0..count {
            let input = match i % 4 {
                0 => {
                    let n = rng.below(120);
                    let mut s = if rng.below(2) == 0 {
                        PREFIX.to_owned()
                    } else {
                        String::new()
                    };
                    s.extend((0..n).map(|_| alphabet[rng.below(alphabet.len())]));
                    s
                }
                1 => {
                    let link = &links[rng.below(links.len())];
                    let mut chars: Vec<char> = link.chars().collect();
                    match rng.below(3) {
                        0 => chars.truncate(rng.below(chars.len())),
                        1 => {
                            let at = rng.below(chars.len());
                            chars[at] = alphabet[rng.below(alphabet.len())];
                        }
                        _ => {
                            let at = rng.below(chars.len());
                            chars.insert(at, alphabet[rng.below(alphabet.len())]);
                        }
                    }
                    chars.into_iter().collect()
                }
                2 => {
                    let n = rng.below(300);
                    let body: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                    format!(
                        "{PREFIX}{}",
                        base64url::encode(&miniz_oxide::deflate::compress_to_vec(&body, 1))
                    )
                }
                _ => {
                    let mut body = bodies[rng.below(bodies.len())].clone();
                    for _ in 0..=rng.below(4) {
                        if body.is_empty() {
                            break;
                        }
                        let at = rng.below(body.len());
                        match rng.below(3) {
                            0 => body[at] = rng.next() as u8,
                            1 => body.truncate(at),
                            _ => body.insert(at, rng.next() as u8),
                        }
                    }
                    format!(
                        "{PREFIX}{}",
                        base64url::encode(&miniz_oxide::deflate::compress_to_vec(&body, 1))
                    )
                }
            };
            check(&input);
        }
        assert!(decoded_ok > 0, "some mutations of real bodies still decode");
        assert!(decoded_ok < count);
        (decoded_ok, largest)
    }

    #[test]
    fn a_huge_inflation_is_refused() {
        let zeros = vec![0u8; MAX_BODY_BYTES * 4];
        let bomb = format!(
            "{PREFIX}{}",
            base64url::encode(&miniz_oxide::deflate::compress_to_vec(&zeros, 10))
        );
        assert!(bomb.len() < MAX_LINK_CHARS);
        assert_eq!(
            decode(&bomb),
            Err(ShareError::Damaged("cannot be inflated"))
        );
    }

    /// The length budgets (one experiment ≤ 600 characters, all five ≤
    /// 2,000) hold for a real run of every experiment with default settings.
    #[test]
    fn links_fit_the_length_budgets() {
        let suite = native_suite();
        assert!(encode(&suite).len() <= 2000, "{}", encode(&suite).len());
        for experiment in crate::experiment::Experiment::ALL {
            let mut one = Report::new(suite.env.clone(), None);
            match experiment {
                crate::experiment::Experiment::TimedWaits => {
                    one.timed_waits = suite.timed_waits.clone()
                }
                crate::experiment::Experiment::MainStarvation => {
                    one.main_starvation = suite.main_starvation.clone()
                }
                crate::experiment::Experiment::PoolStarvation => {
                    one.pool_starvation = suite.pool_starvation.clone()
                }
                crate::experiment::Experiment::SpinLadder => {
                    one.spin_ladder = suite.spin_ladder.clone()
                }
                crate::experiment::Experiment::WakeLatency => {
                    one.wake_latency = suite.wake_latency.clone()
                }
            }
            let n = encode(&one).len();
            assert!(n <= 600, "{}: {n} characters", experiment.id());
        }
    }
}
