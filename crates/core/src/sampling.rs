//! When a series has samples enough: a cell samples until the 99.9 %
//! distribution-free interval of its median ([`crate::describe`]'s) is
//! within ±2 % of the median, or within two clock steps where 2 % is below
//! what the clock resolves; never before 30 samples, never past the
//! configured maximum. BenchmarkDotNet stops a benchmark the same way once
//! its interval is narrow enough; a 10 ms timer's median is known to a few
//! microseconds after a few dozen samples, a zero-delay yield's needs
//! hundreds. That is the sampling error within one run; where a rerun's
//! median lies is wider ([`crate::describe`]'s rerun interval), and more
//! samples would not narrow it.
//!
//! A check sorts a copy of the series, so a probe checks only between
//! samples, never inside a timed wait, and not after every sample once
//! the series is long ([`Stop::checks_at`]).

use crate::describe::median_ranks;
use serde::{Deserialize, Serialize};

/// Fewest samples before a series may stop early.
pub const MIN_SAMPLES: u32 = 30;
/// The median's interval may span at most this share of the median on
/// either side.
pub const RELATIVE_HALF_WIDTH: f64 = 0.02;
/// ... or this many steps of the clock, when that is wider.
pub const CLOCK_STEPS: f64 = 2.0;

/// How many samples each cell takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sampling {
    /// Until its median is known precisely enough, between
    /// [`MIN_SAMPLES`] and the configured count.
    #[default]
    Adaptive,
    /// Exactly the configured count.
    Fixed,
}

impl Sampling {
    /// A fixed count (what reports from before adaptive sampling took).
    pub fn fixed() -> Sampling {
        Sampling::Fixed
    }

    /// Whether it is a fixed count (a report then does not write it).
    pub fn is_fixed(&self) -> bool {
        *self == Sampling::Fixed
    }
}

/// Why a cell stopped where it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// Its median was known precisely enough.
    Precise,
    /// It reached the configured count (adaptive sampling that never got
    /// precise enough, or a fixed count).
    AtMaximum,
}

impl Stopped {
    /// Why a series of `n` samples stopped, sampled by `sampling` up to
    /// `max`.
    pub fn of(n: u32, max: u32, sampling: Sampling) -> Stopped {
        if sampling == Sampling::Adaptive && n < max {
            Stopped::Precise
        } else {
            Stopped::AtMaximum
        }
    }
}

/// The rule one series samples by.
#[derive(Debug, Clone, PartialEq)]
pub struct Stop {
    sampling: Sampling,
    max: u32,
    step_ms: f64,
    /// A sorted copy of the series, kept between checks.
    scratch: Vec<f64>,
}

impl Stop {
    /// Samples by `sampling`, at most `max`, read with a clock of
    /// `step_ms` (0 where unknown: then only the relative width counts).
    pub fn new(sampling: Sampling, max: u32, step_ms: f64) -> Stop {
        Stop {
            sampling,
            max,
            step_ms: if step_ms.is_finite() {
                step_ms.max(0.0)
            } else {
                0.0
            },
            scratch: Vec::new(),
        }
    }

    /// The most samples it takes.
    pub fn max(&self) -> u32 {
        self.max
    }

    /// Whether a series of `n` samples is checked: from [`MIN_SAMPLES`]
    /// on, then each time it has grown by about a sixteenth (so checking
    /// costs about as much as sorting the series a few dozen times).
    pub fn checks_at(n: u32) -> bool {
        n >= MIN_SAMPLES && (n - MIN_SAMPLES).is_multiple_of((n / 16).max(1))
    }

    /// Whether `samples`, the series so far, are enough.
    pub fn enough(&mut self, samples: &[f64]) -> bool {
        let n = samples.len() as u32;
        if n >= self.max {
            return true;
        }
        if self.sampling == Sampling::Fixed || !Stop::checks_at(n) {
            return false;
        }
        self.scratch.clear();
        self.scratch.extend_from_slice(samples);
        self.scratch.sort_unstable_by(f64::total_cmp);
        precise(&self.scratch, self.step_ms)
    }
}

/// Whether the median of `sorted` is known to within the rule's width:
/// its 99.9 % interval within ±[`RELATIVE_HALF_WIDTH`] of it, or within
/// [`CLOCK_STEPS`] steps of a clock of `step_ms`.
pub fn precise(sorted: &[f64], step_ms: f64) -> bool {
    let n = sorted.len();
    let Some(l) = median_ranks(n) else {
        return false;
    };
    let (lo, hi) = (sorted[l - 1], sorted[n - l]);
    let median = (sorted[(n - 1) / 2] + sorted[n / 2]) / 2.0;
    hi - lo <= (2.0 * RELATIVE_HALF_WIDTH * median.abs()).max(CLOCK_STEPS * step_ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic series: `median` with a spread of `spread` either
    /// side (a xorshift, uniform) and every `every`-th sample `outlier`.
    fn series(n: usize, median: f64, spread: f64, outlier: Option<(usize, f64)>) -> Vec<f64> {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        (0..n)
            .map(|i| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                match outlier {
                    Some((every, value)) if i % every == every - 1 => value,
                    _ => median + spread * ((x % 2001) as f64 / 1000.0 - 1.0),
                }
            })
            .collect()
    }

    /// Samples `values` one at a time until the rule says enough.
    fn sampled(rule: &mut Stop, values: &[f64]) -> usize {
        let mut taken = Vec::new();
        for &v in values {
            taken.push(v);
            if rule.enough(&taken) {
                break;
            }
        }
        taken.len()
    }

    #[test]
    fn a_steady_timer_stops_at_the_minimum_or_soon_after() {
        // A 10 ms timer firing within ±0.1 ms: precise at once.
        let values = series(1000, 10.2, 0.1, None);
        let n = sampled(&mut Stop::new(Sampling::Adaptive, 1000, 0.005), &values);
        assert_eq!(n, MIN_SAMPLES as usize);
    }

    #[test]
    fn a_noisy_series_samples_longer_and_a_hopeless_one_to_its_maximum() {
        // A 1 ms wait spread ±10 %: the interval narrows as it grows.
        let noisy = series(1000, 1.0, 0.1, None);
        let n = sampled(&mut Stop::new(Sampling::Adaptive, 1000, 0.005), &noisy);
        assert!((100..1000).contains(&n), "{n}");
        // Spread over its whole range: never within 2 %.
        let hopeless = series(400, 1.0, 1.0, None);
        let n = sampled(&mut Stop::new(Sampling::Adaptive, 400, 0.005), &hopeless);
        assert_eq!(n, 400);
    }

    #[test]
    fn outliers_do_not_keep_a_median_from_being_known() {
        // Every tenth sample a 30 ms stall: the median is robust to them.
        let values = series(1000, 15.1, 0.05, Some((10, 30.0)));
        let n = sampled(&mut Stop::new(Sampling::Adaptive, 1000, 0.005), &values);
        assert!(n <= 60, "{n}");
    }

    #[test]
    fn below_the_clock_two_steps_are_precise_enough() {
        // A short wait read with a 0.1 ms clock: one step or two, never
        // within 2 % of its median, but within two steps.
        let values: Vec<f64> = (0..500)
            .map(|i| if i % 2 == 0 { 0.1 } else { 0.2 })
            .collect();
        let n = sampled(&mut Stop::new(Sampling::Adaptive, 500, 0.1), &values);
        assert_eq!(n, MIN_SAMPLES as usize);
        // The same with no clock known: only the relative width counts.
        let n = sampled(&mut Stop::new(Sampling::Adaptive, 500, 0.0), &values);
        assert_eq!(n, 500);
    }

    #[test]
    fn a_fixed_count_takes_every_sample() {
        let values = series(200, 10.2, 0.1, None);
        let n = sampled(&mut Stop::new(Sampling::Fixed, 200, 0.005), &values);
        assert_eq!(n, 200);
        assert_eq!(Stopped::of(200, 200, Sampling::Fixed), Stopped::AtMaximum);
        assert_eq!(Stopped::of(30, 200, Sampling::Adaptive), Stopped::Precise);
        assert_eq!(
            Stopped::of(200, 200, Sampling::Adaptive),
            Stopped::AtMaximum
        );
    }

    #[test]
    fn checks_thin_out_as_a_series_grows() {
        let checks = (0..=100_000).filter(|&n| Stop::checks_at(n)).count();
        assert!(checks < 400, "{checks} checks");
        assert!(Stop::checks_at(MIN_SAMPLES));
        assert!(!Stop::checks_at(MIN_SAMPLES - 1));
    }

    /// The adaptive median agrees with the median of the whole series
    /// within the interval it stopped at.
    #[test]
    fn the_early_median_is_the_long_one_within_its_interval() {
        for (median, spread) in [(1.1, 0.05), (10.3, 0.3), (15.2, 0.2), (0.05, 0.02)] {
            let values = series(1000, median, spread, Some((50, median * 3.0)));
            let n = sampled(&mut Stop::new(Sampling::Adaptive, 1000, 0.005), &values);
            let mut early = values[..n].to_vec();
            early.sort_unstable_by(f64::total_cmp);
            let mut all = values.clone();
            all.sort_unstable_by(f64::total_cmp);
            let l = median_ranks(n).unwrap();
            let whole = (all[499] + all[500]) / 2.0;
            assert!(
                (early[l - 1]..=early[n - l]).contains(&whole),
                "{median}: {whole} outside [{}, {}] after {n}",
                early[l - 1],
                early[n - l]
            );
        }
    }
}
