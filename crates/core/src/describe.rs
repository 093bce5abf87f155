//! One series described in the vocabulary .NET readers know from
//! BenchmarkDotNet: n, mean, its 99.9 % confidence interval ("Error"),
//! standard deviation, the median and its 99.9 % confidence interval,
//! quartiles and tails, outliers by Tukey's fences (counted and shown,
//! never dropped), the mvalue with its modality verdict, and how many
//! samples lie under two steps of the clock that measured them.
//!
//! Definitions (the golden test `tests/data/describe.json` checks each
//! against SciPy and an independent Python implementation):
//! - standard deviation: the sample one (divisor `n - 1`; 0 for one sample);
//! - Error: `t(0.9995, n - 1) * sd / sqrt(n)`, the half-width of the
//!   99.9 % Student-t interval of the mean, as BenchmarkDotNet reports it;
//! - median interval: the distribution-free one between order statistics
//!   `x(l)` and `x(n + 1 - l)`, with `l - 1` the largest `j` such that
//!   `P(Bin(n, 1/2) <= j) <= 0.0005` (none under 11 samples);
//! - rerun interval, where a rerun's median lies: the median interval
//!   widened on either side by [`RERUN_STEPS`] steps of the clock when it
//!   is known, [`RERUN_DRIFT`] of the median, and as far as a rerun's
//!   median wanders from this one's where the run saw it
//!   ([`crate::stats::SPREAD_Z`] times the spread of
//!   [`crate::stats::rerun_spread`] on either side, taken together). The
//!   median interval covers the sampling error within one run; runs of one
//!   browser on one machine differ by more than that (a timer's alignment
//!   to the scheduler, a worker's wake, the machine's load, each median
//!   read in whole steps), and the A/A bench measures by how much (see
//!   [`RERUN_DRIFT`]);
//! - quartiles and tails: type-7 quantiles ([`crate::stats`]);
//! - Tukey's fences: `Q1 - 1.5 IQR` and `Q3 + 1.5 IQR`;
//! - mvalue (Brendan Gregg's, as BenchmarkDotNet computes it): the samples
//!   inside the fences in equal-width bins from their minimum, with a zero
//!   bin at each end, `sum |c[i] - c[i-1]| / max c`; the bin width starts at
//!   Scott's rule `3.5 sd / n^(1/3)`, rounded up to whole steps of the
//!   clock when it is known (samples come in steps: a width between two
//!   whole steps would count one step more in every other bin and make a
//!   smooth series look many-moded), and doubles until one bin spans the
//!   range; the mvalue is the largest. BenchmarkDotNet's thresholds word it.

use crate::clock::ClockInfo;
use crate::stats::Samples;

/// The confidence of both intervals.
pub const CONFIDENCE: f64 = 0.999;

/// By how much of its median a rerun's median moves beyond the sampling
/// error of either run. Measured by the A/A bench (`cargo xtask bench`:
/// each experiment's defaults three times in Chromium on a 2-core machine;
/// seven such tests, 1,806 pairs of a run's interval and a rerun's
/// median): medians of 1 to 15 ms timers moved by up to 1.3 % between runs
/// whose intervals were ±0.1 to 0.3 %. With this and [`RERUN_STEPS`] the
/// rerun interval held the other run's median in 97.7 to 100 % of a test's
/// pairs; the median interval alone in 76 to 92 %.
pub const RERUN_DRIFT: f64 = 0.01;
/// Steps of the clock by which the rerun interval is wider than the
/// median interval on either side: the ends of one interval and the other
/// run's median are each read in whole steps (rounded either way), so two
/// medians of one wait read one step or two apart for the clock alone.
pub const RERUN_STEPS: f64 = 2.0;
/// The least share of a rerun's medians the rerun interval holds: the A/A
/// bench fails below it, and the page says so.
pub const RERUN_COVERAGE: f64 = 0.95;

/// A closed interval, ms.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// Lower end.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
}

impl Interval {
    /// Whether it holds `value`, ends included.
    pub fn holds(&self, value: f64) -> bool {
        self.lo <= value && value <= self.hi
    }
}

/// What the mvalue says of the distribution's shape (BenchmarkDotNet's
/// thresholds: above 4.2 multimodal, above 3.2 bimodal, above 2.8 it may
/// have several modes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Modality {
    /// One mode.
    Unimodal,
    /// Perhaps several modes (mvalue above 2.8).
    SeveralModes,
    /// Two modes (above 3.2).
    Bimodal,
    /// More than two modes (above 4.2).
    Multimodal,
}

impl Modality {
    /// The verdict for `mvalue`.
    pub fn of(mvalue: f64) -> Modality {
        if mvalue > 4.2 {
            Modality::Multimodal
        } else if mvalue > 3.2 {
            Modality::Bimodal
        } else if mvalue > 2.8 {
            Modality::SeveralModes
        } else {
            Modality::Unimodal
        }
    }
}

/// Samples outside Tukey's fences, below and above.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outliers {
    /// The fences, `Q1 - 1.5 IQR` and `Q3 + 1.5 IQR`.
    pub fences: Interval,
    /// Samples below the lower fence.
    pub low: u32,
    /// Samples above the upper fence.
    pub high: u32,
}

/// One series described (see the module docs for each definition).
#[derive(Debug, Clone, PartialEq)]
pub struct Description {
    /// Sample count.
    pub n: u32,
    /// Arithmetic mean.
    pub mean: f64,
    /// Half-width of the 99.9 % interval of the mean; `None` for one sample.
    pub error: Option<f64>,
    /// Sample standard deviation.
    pub std_dev: f64,
    /// Smallest sample.
    pub min: f64,
    /// First quartile.
    pub q1: f64,
    /// Median.
    pub median: f64,
    /// The median's 99.9 % interval; `None` under 11 samples.
    pub median_interval: Option<Interval>,
    /// Where a rerun's median lies: the median's interval widened by the
    /// drift between runs; `None` under 11 samples.
    pub rerun_interval: Option<Interval>,
    /// By how much of that widening, ms, is how far a rerun's median
    /// wanders as the run saw it; `None` where it did not.
    pub wander_ms: Option<f64>,
    /// Third quartile.
    pub q3: f64,
    /// Quantile 0.9.
    pub p90: f64,
    /// Quantile 0.99.
    pub p99: f64,
    /// Largest sample.
    pub max: f64,
    /// Tukey's outliers.
    pub outliers: Outliers,
    /// The mvalue.
    pub mvalue: f64,
    /// Samples under two steps of the clock (at its resolution), when the
    /// clock is known.
    pub at_resolution: Option<u32>,
}

impl Description {
    /// The mean's 99.9 % interval.
    pub fn mean_interval(&self) -> Option<Interval> {
        self.error.map(|e| Interval {
            lo: self.mean - e,
            hi: self.mean + e,
        })
    }

    /// The mvalue's verdict.
    pub fn modality(&self) -> Modality {
        Modality::of(self.mvalue)
    }
}

/// Describes `samples`, measured with `clock` if it is known, whose run saw
/// its median wander by `spread_ms` ([`crate::stats::rerun_spread`]) if it
/// did.
pub fn describe(
    samples: &Samples,
    clock: Option<ClockInfo>,
    spread_ms: Option<f64>,
) -> Description {
    let x = samples.sorted();
    let n = x.len();
    let mean = samples.mean();
    let std_dev = std_dev(x, mean);
    let error = (n > 1).then(|| {
        distrs::StudentsT::ppf(1.0 - (1.0 - CONFIDENCE) / 2.0, (n - 1) as f64) * std_dev
            / (n as f64).sqrt()
    });
    let (q1, q3) = (samples.quantile(0.25), samples.quantile(0.75));
    let iqr = q3 - q1;
    let fences = Interval {
        lo: q1 - 1.5 * iqr,
        hi: q3 + 1.5 * iqr,
    };
    let inside = &x[x.partition_point(|&v| v < fences.lo)..x.partition_point(|&v| v <= fences.hi)];
    let outliers = Outliers {
        fences,
        low: x.partition_point(|&v| v < fences.lo) as u32,
        high: (n - x.partition_point(|&v| v <= fences.hi)) as u32,
    };
    let at_resolution = clock.map(|c| {
        let two_steps = 2.0 * c.tolerance_ms();
        x.iter().filter(|v| v.abs() < two_steps).count() as u32
    });
    let median = samples.quantile(0.5);
    let median_interval = median_ranks(n).map(|l| Interval {
        lo: x[l - 1],
        hi: x[n - l],
    });
    let wander_ms = spread_ms.map(|s| crate::stats::wander_ms(s, s));
    let drift = RERUN_STEPS * clock.map_or(0.0, |c| c.tolerance_ms())
        + RERUN_DRIFT * median.abs()
        + wander_ms.unwrap_or(0.0);
    Description {
        n: n as u32,
        mean,
        error,
        std_dev,
        min: samples.min(),
        q1,
        median,
        median_interval,
        rerun_interval: median_interval.map(|i| Interval {
            lo: i.lo - drift,
            hi: i.hi + drift,
        }),
        wander_ms,
        q3,
        p90: samples.quantile(0.9),
        p99: samples.quantile(0.99),
        max: samples.max(),
        outliers,
        mvalue: mvalue(inside, clock.map(|c| c.tolerance_ms())),
        at_resolution,
    }
}

/// The sample standard deviation of `x` around `mean`.
fn std_dev(x: &[f64], mean: f64) -> f64 {
    if x.len() < 2 {
        return 0.0;
    }
    let squares: f64 = x.iter().map(|v| (v - mean) * (v - mean)).sum();
    (squares / (x.len() - 1) as f64).sqrt()
}

/// The 1-based rank `l` of the median interval's lower end for `n`
/// samples (the upper end is `n + 1 - l`), or `None` when even the extreme
/// samples cover the median with less than 99.9 % confidence.
pub(crate) fn median_ranks(n: usize) -> Option<usize> {
    let alpha = (1.0 - CONFIDENCE) / 2.0;
    let log_alpha = alpha.ln();
    // log P(B = j) for B ~ Bin(n, 1/2), and log P(B <= j), summed upwards.
    let mut log_pmf = -(n as f64) * std::f64::consts::LN_2;
    let mut log_cdf = log_pmf;
    if log_cdf > log_alpha {
        return None;
    }
    let mut j = 0;
    loop {
        log_pmf += ((n - j) as f64).ln() - ((j + 1) as f64).ln();
        let next = log_add(log_cdf, log_pmf);
        if next > log_alpha {
            return Some(j + 1);
        }
        log_cdf = next;
        j += 1;
    }
}

/// `ln(e^a + e^b)` without overflow or underflow (to about 1e-16, all a
/// rank needs).
fn log_add(a: f64, b: f64) -> f64 {
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    hi + (1.0 + (lo - hi).exp()).ln()
}

/// The mvalue of the sorted samples `x`, read with a clock of `step` ms
/// if it is known (see the module docs).
fn mvalue(x: &[f64], step: Option<f64>) -> f64 {
    let (Some(&lo), Some(&hi)) = (x.first(), x.last()) else {
        return 0.0;
    };
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let range = hi - lo;
    // powf, not cbrt: the page's wasm has powf already.
    let mut width = 3.5 * std_dev(x, mean) / n.powf(1.0 / 3.0);
    if let Some(step) = step.filter(|&s| s > 0.0) {
        width = (width / step).ceil() * step;
    }
    if range <= 0.0 || width <= 0.0 {
        // One distinct value: one bin, a rise and a fall.
        return 2.0;
    }
    // The histogram of the narrowest bins is counted once; each doubling
    // of the width merges neighbouring bins. That is exact: a width doubled
    // is exact in floating point, so a sample's bin at width 2w is its bin
    // at width w halved (and so are the last bin and the clamp to it).
    let mut counts = vec![0u32; (range / width) as usize + 1];
    for &v in x {
        let i = (((v - lo) / width) as usize).min(counts.len() - 1);
        counts[i] += 1;
    }
    let mut best: f64 = 0.0;
    loop {
        let tallest = counts.iter().copied().max().unwrap_or(1);
        let mut previous = 0;
        let mut moves: u64 = 0;
        for &c in counts.iter().chain(std::iter::once(&0)) {
            moves += u64::from(c.abs_diff(previous));
            previous = c;
        }
        best = best.max(moves as f64 / f64::from(tallest));
        if width > range {
            return best;
        }
        width *= 2.0;
        counts = counts.chunks(2).map(|pair| pair.iter().sum()).collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn described(v: &[f64]) -> Description {
        describe(&Samples::new(v.to_vec()).unwrap(), None, None)
    }

    #[test]
    fn one_sample_has_no_intervals() {
        let d = described(&[3.0]);
        assert_eq!((d.n, d.mean, d.std_dev, d.error), (1, 3.0, 0.0, None));
        assert_eq!(d.median_interval, None);
        assert_eq!(d.rerun_interval, None);
        assert_eq!((d.outliers.low, d.outliers.high), (0, 0));
        assert_eq!(d.mvalue, 2.0);
        assert_eq!(d.modality(), Modality::Unimodal);
    }

    #[test]
    fn the_median_interval_needs_eleven_samples() {
        // 2^-10 > 0.0005 >= 2^-11.
        assert_eq!(median_ranks(10), None);
        assert_eq!(median_ranks(11), Some(1));
        let d = described(&(1..=11).map(f64::from).collect::<Vec<_>>());
        assert_eq!(d.median_interval, Some(Interval { lo: 1.0, hi: 11.0 }));
    }

    #[test]
    fn a_rerun_interval_holds_the_clock_steps_and_the_drift() {
        // Median 6: 1 % of it is 0.06; two steps of a 0.1 ms clock 0.2.
        let s = Samples::new((1..=11).map(f64::from).collect()).unwrap();
        let clock = ClockInfo {
            min_step_ms: 0.1,
            typical_step_ms: 0.1,
            readings: 100,
        };
        let near = |i: Option<Interval>, lo: f64, hi: f64| {
            let i = i.unwrap();
            assert!(
                (i.lo - lo).abs() < 1e-12 && (i.hi - hi).abs() < 1e-12,
                "{i:?}"
            );
        };
        near(describe(&s, Some(clock), None).rerun_interval, 0.74, 11.26);
        near(describe(&s, None, None).rerun_interval, 0.94, 11.06);
        // A run whose median wandered by 0.5 ms: a rerun wanders as far,
        // SPREAD_Z * hypot(0.5, 0.5) ms more on either side.
        let wander = crate::stats::SPREAD_Z * 0.5f64.hypot(0.5);
        let d = describe(&s, None, Some(0.5));
        assert_eq!(d.wander_ms, Some(wander));
        near(d.rerun_interval, 0.94 - wander, 11.06 + wander);
    }

    #[test]
    fn outliers_are_counted_not_dropped() {
        let d = described(&[1.0, 2.0, 2.0, 3.0, 3.0, 3.0, 4.0, 4.0, 5.0, 40.0, -30.0]);
        assert_eq!(d.n, 11);
        assert_eq!((d.outliers.low, d.outliers.high), (1, 1));
        assert_eq!((d.min, d.max), (-30.0, 40.0));
    }

    #[test]
    fn two_far_apart_modes_are_seen() {
        let mut v: Vec<f64> = (0..200).map(|i| 1.0 + f64::from(i % 7) * 0.01).collect();
        v.extend((0..200).map(|i| 2.0 + f64::from(i % 7) * 0.01));
        assert!(described(&v).modality() != Modality::Unimodal);
        // A smooth bell: the normal quantiles of 400 even steps.
        let bell: Vec<f64> = (0..400)
            .map(|i| distrs::Normal::ppf((f64::from(i) + 0.5) / 400.0, 1.0, 0.1))
            .collect();
        assert_eq!(described(&bell).modality(), Modality::Unimodal);
    }

    #[test]
    fn clock_steps_do_not_make_modes() {
        // A bell read by a 0.1 ms clock: every sample a whole step. Scott's
        // width (about 1.8 steps) would alias; whole steps do not.
        let clock = ClockInfo {
            min_step_ms: 0.1,
            typical_step_ms: 0.1,
            readings: 100,
        };
        let stepped: Vec<f64> = (0..400)
            .map(|i| {
                (distrs::Normal::ppf((f64::from(i) + 0.5) / 400.0, 5.0, 0.5) * 10.0).round() / 10.0
            })
            .collect();
        let s = Samples::new(stepped).unwrap();
        assert_eq!(
            describe(&s, Some(clock), None).modality(),
            Modality::Unimodal
        );
    }

    #[test]
    fn samples_under_two_clock_steps_are_counted() {
        let clock = ClockInfo {
            min_step_ms: 0.1,
            typical_step_ms: 0.1,
            readings: 100,
        };
        let s = Samples::new(vec![0.0, 0.1, 0.1, 0.2, 1.0]).unwrap();
        assert_eq!(describe(&s, Some(clock), None).at_resolution, Some(3));
        assert_eq!(describe(&s, None, None).at_resolution, None);
    }
}
