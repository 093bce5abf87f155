//! Statistics over validated samples: quantiles, summaries and histograms.
//!
//! Quantile definition: linear interpolation between the closest ranks
//! (Hyndman & Fan type 7, the default of R, NumPy and Python's
//! `statistics.quantiles(method="inclusive")`). For sorted samples
//! `x[0..n]` and a quantile `q` in `[0, 1]`, let `h = (n - 1) * q`; the
//! quantile is `x[floor(h)] + (h - floor(h)) * (x[floor(h) + 1] - x[floor(h)])`.
//! Quantiles are fractions inside the crate; percentiles only appear in
//! display names (`p50`, `p99`).

use serde::{Deserialize, Serialize};

/// Why a set of measurements cannot become [`Samples`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SamplesError {
    /// No measurement at all.
    #[error("no samples were measured")]
    Empty,
    /// A NaN or infinite measurement, at this index.
    #[error("sample {0} is not a finite number")]
    NotFinite(usize),
}

/// A non-empty, sorted series of finite measurements (milliseconds).
#[derive(Debug, Clone, PartialEq)]
pub struct Samples {
    sorted: Vec<f64>,
}

impl Samples {
    /// Validates and sorts `values`.
    pub fn new(values: Vec<f64>) -> Result<Self, SamplesError> {
        if values.is_empty() {
            return Err(SamplesError::Empty);
        }
        if let Some(i) = values.iter().position(|v| !v.is_finite()) {
            return Err(SamplesError::NotFinite(i));
        }
        // Sorted as integers in `f64::total_cmp`'s order (its key flips the
        // magnitude bits of negatives, and is its own inverse): about three
        // times faster than sorting through the comparison, which matters
        // for a series of 100,000 samples drawn at once.
        let key = |bits: i64| bits ^ (((bits >> 63) as u64) >> 1) as i64;
        let mut keys: Vec<i64> = values
            .into_iter()
            .map(|v| key(v.to_bits() as i64))
            .collect();
        keys.sort_unstable();
        let sorted = keys
            .into_iter()
            .map(|k| f64::from_bits(key(k) as u64))
            .collect();
        Ok(Self { sorted })
    }

    /// The samples in ascending order.
    pub fn sorted(&self) -> &[f64] {
        &self.sorted
    }

    /// Number of samples (at least 1).
    pub fn len(&self) -> usize {
        self.sorted.len()
    }

    /// Always false: kept for clippy's `len_without_is_empty`.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Smallest sample.
    pub fn min(&self) -> f64 {
        self.sorted[0]
    }

    /// Largest sample.
    pub fn max(&self) -> f64 {
        self.sorted[self.sorted.len() - 1]
    }

    /// Arithmetic mean.
    pub fn mean(&self) -> f64 {
        self.sorted.iter().sum::<f64>() / self.sorted.len() as f64
    }

    /// The mean of the samples left after dropping the lowest and the
    /// highest `fraction` of them each (`fraction` clamped to `[0, 0.49]`;
    /// at least one sample stays). Unlike the median it is not stuck to the
    /// clock's steps: samples that are rounded to a step with a random
    /// phase average out to a figure finer than one step.
    pub fn trimmed_mean(&self, fraction: f64) -> f64 {
        let fraction = if fraction.is_nan() {
            0.0
        } else {
            fraction.clamp(0.0, 0.49)
        };
        let cut = (self.sorted.len() as f64 * fraction).floor() as usize;
        let kept = &self.sorted[cut..self.sorted.len() - cut];
        kept.iter().sum::<f64>() / kept.len() as f64
    }

    /// The `q` quantile by the type-7 rule in the module docs; `q` is
    /// clamped to `[0, 1]` (NaN counts as 0).
    pub fn quantile(&self, q: f64) -> f64 {
        let q = if q.is_nan() { 0.0 } else { q.clamp(0.0, 1.0) };
        let h = (self.sorted.len() - 1) as f64 * q;
        let lo = h.floor() as usize;
        let hi = (lo + 1).min(self.sorted.len() - 1);
        let frac = h - lo as f64;
        self.sorted[lo] + frac * (self.sorted[hi] - self.sorted[lo])
    }

    /// The summary statistics shown in every table.
    pub fn summary(&self) -> Summary {
        Summary {
            n: self.sorted.len() as u32,
            min: self.min(),
            p50: self.quantile(0.5),
            p90: self.quantile(0.9),
            p99: self.quantile(0.99),
            max: self.max(),
            mean: self.mean(),
            spread_ms: None,
        }
    }

    /// A histogram of `bins` equal-width bins from the minimum to the
    /// maximum sample. With one distinct value all samples share one bin.
    /// `bins` of 0 is treated as 1.
    pub fn histogram(&self, bins: usize) -> Vec<Bin> {
        self.binned(bins, self.min(), self.max(), |v| v, |a| a)
    }

    /// A histogram of `bins` bins of equal width in `log10`, from the
    /// smallest sample (at least `floor`, > 0) to the largest; samples
    /// under `floor` count in the first bin. `bins` of 0 is treated as 1.
    pub fn log_histogram(&self, bins: usize, floor: f64) -> Vec<Bin> {
        let floor = if floor > 0.0 {
            floor
        } else {
            f64::MIN_POSITIVE
        };
        let (lo, hi) = (self.min().max(floor), self.max().max(floor));
        self.binned(bins, lo, hi, f64::log10, |a| 10f64.powf(a))
    }

    /// `bins` bins from `lo` to `hi`, even on the axis `forward` maps onto
    /// (`back` is its inverse); a sample under `lo` counts in the first.
    fn binned(
        &self,
        bins: usize,
        lo: f64,
        hi: f64,
        forward: impl Fn(f64) -> f64,
        back: impl Fn(f64) -> f64,
    ) -> Vec<Bin> {
        let bins = bins.max(1);
        if hi <= lo {
            return vec![Bin {
                lo,
                hi,
                count: self.len() as u32,
            }];
        }
        let (a, b) = (forward(lo), forward(hi));
        let width = (b - a) / bins as f64;
        let mut out: Vec<Bin> = (0..bins)
            .map(|i| Bin {
                lo: if i == 0 {
                    lo
                } else {
                    back(a + width * i as f64)
                },
                hi: if i + 1 == bins {
                    hi
                } else {
                    back(a + width * (i + 1) as f64)
                },
                count: 0,
            })
            .collect();
        for &v in &self.sorted {
            let i = ((forward(v.max(lo)) - a) / width) as usize;
            out[i.min(bins - 1)].count += 1;
        }
        out
    }
}

/// Consecutive blocks a run's samples are cut into, in the order they
/// were measured, to see how far their median wanders within the run
/// ([`rerun_spread`]).
pub const SPREAD_BLOCKS: usize = 8;
/// How many of the two rows' spreads between runs, taken together
/// (`hypot`), a difference of medians must pass to be called one: see
/// [`rerun_spread`]. Measured by the A/A bench (`cargo xtask bench`,
/// Chromium, three runs, 81 pairs of runs of a row under a millisecond): a
/// wake-up's median moved between runs by up to 3.7 times the two spreads
/// together (0.036 against 0.078 ms), by more than 3 in two pairs; rows of
/// a millisecond or more by at most 0.7 times. The verdict's test must
/// find the difference too, so at 3 the A/A bench's next three runs
/// called 0, 0 and 1 of 64 to 66 such rows apart (at 0 and 1: up to 4).
pub const SPREAD_Z: f64 = 3.0;
/// How far apart two runs whose medians wandered by `a` and `b` ms
/// ([`rerun_spread`]) may lie: [`SPREAD_Z`] times both taken together.
pub fn wander_ms(a: f64, b: f64) -> f64 {
    SPREAD_Z * a.hypot(b)
}

/// Fewest samples a block holds: under `SPREAD_BLOCKS` times as many, a
/// series has no spread.
pub const SPREAD_BLOCK_SAMPLES: usize = 5;

/// How far a rerun's median may lie from this run's, estimated within the
/// run from `in_order`, its samples in the order they were measured: the
/// standard deviation of the medians of [`SPREAD_BLOCKS`] consecutive
/// blocks, the first left out. A median of a few microseconds moves
/// between two runs of one browser by far more than its sampling error
/// says (a wake from a worker, 0.036 ms in one run and 0.078 in the
/// next): whatever moves it between runs (the thread's core, the page's
/// other work, the machine's load) moves it within a run too, block to
/// block. The first block is where a run starts, which every run repeats
/// alike (a chain of timers before the 4 ms nesting clamp, code not yet
/// optimized): it says nothing of how runs differ. For samples that do
/// not drift it is about twice the spread of the difference between two
/// runs' medians (each block's median spreads `sqrt(SPREAD_BLOCKS)` times
/// more than the whole run's, and a difference of two medians `sqrt(2)`
/// times more than one); where the run drifts, it grows with the drift.
/// `None` under `SPREAD_BLOCKS * SPREAD_BLOCK_SAMPLES` samples, with a
/// sample that is not finite, or for samples in ascending order.
pub fn rerun_spread(in_order: &[f64]) -> Option<f64> {
    let n = in_order.len();
    // Samples in ascending order kept no order to read (a link's, rebuilt
    // from its sketch).
    if n < SPREAD_BLOCKS * SPREAD_BLOCK_SAMPLES
        || in_order.is_sorted()
        || in_order.iter().any(|v| !v.is_finite())
    {
        return None;
    }
    let medians: Vec<f64> = (1..SPREAD_BLOCKS)
        .map(|b| {
            let block = &in_order[b * n / SPREAD_BLOCKS..(b + 1) * n / SPREAD_BLOCKS];
            Samples::new(block.to_vec()).map_or(f64::NAN, |s| s.quantile(0.5))
        })
        .collect();
    let k = medians.len() as f64;
    let mean = medians.iter().sum::<f64>() / k;
    let squares: f64 = medians.iter().map(|m| (m - mean) * (m - mean)).sum();
    Some((squares / (k - 1.0)).sqrt())
}

/// One bar of a histogram: samples in `[lo, hi)` (the last bin includes `hi`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Bin {
    /// Lower edge, ms.
    pub lo: f64,
    /// Upper edge, ms.
    pub hi: f64,
    /// Samples in the bin.
    pub count: u32,
}

/// Summary statistics of one series, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Sample count.
    pub n: u32,
    /// Smallest sample.
    pub min: f64,
    /// Median (type-7 quantile 0.5).
    pub p50: f64,
    /// Quantile 0.9.
    pub p90: f64,
    /// Quantile 0.99.
    pub p99: f64,
    /// Largest sample.
    pub max: f64,
    /// Arithmetic mean.
    pub mean: f64,
    /// How far a rerun's median may lie from this one ([`rerun_spread`])
    /// where a link carried it; a run's own samples give it
    /// ([`crate::outcome::Outcome::spread_ms`]), a summary without them
    /// has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spread_ms: Option<f64>,
}

impl Summary {
    /// How far the median lands past the requested wait.
    pub fn overshoot(&self, requested_ms: f64) -> f64 {
        self.p50 - requested_ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[f64]) -> Samples {
        Samples::new(v.to_vec()).unwrap()
    }

    #[test]
    fn rejects_empty_and_nan() {
        assert_eq!(Samples::new(vec![]), Err(SamplesError::Empty));
        assert_eq!(
            Samples::new(vec![1.0, f64::NAN]),
            Err(SamplesError::NotFinite(1))
        );
        assert_eq!(
            Samples::new(vec![f64::INFINITY]),
            Err(SamplesError::NotFinite(0))
        );
    }

    #[test]
    fn type7_quantiles_by_hand() {
        let x = s(&[4.0, 1.0, 3.0, 2.0]);
        assert_eq!(x.quantile(0.0), 1.0);
        assert_eq!(x.quantile(1.0), 4.0);
        assert_eq!(x.quantile(0.5), 2.5);
        // h = 3 * 0.9 = 2.7 -> 3 + 0.7 * (4 - 3)
        assert!((x.quantile(0.9) - 3.7).abs() < 1e-12);
        assert_eq!(x.quantile(f64::NAN), 1.0);
        assert_eq!(x.quantile(7.0), 4.0);
        assert_eq!(s(&[5.0]).quantile(0.99), 5.0);
    }

    #[test]
    fn a_runs_spread_is_how_its_block_medians_scatter() {
        // Eight blocks of five, each block's median its number: the
        // spread is the standard deviation of 2..=8 (the first block left
        // out), sqrt(14 / 3).
        let mut wandering = Vec::new();
        for block in 1..=8 {
            let b = f64::from(block);
            wandering.extend([b + 0.5, b - 0.5, b, b + 0.2, b - 0.2]);
        }
        let spread = rerun_spread(&wandering).unwrap();
        assert!((spread - (14.0f64 / 3.0).sqrt()).abs() < 1e-12, "{spread}");
        // A chain of 1 ms timers clamped to 4 ms from its sixth call on,
        // in 40 calls: every run starts so, and nothing wanders.
        let clamped: Vec<f64> = (0..40)
            .map(|i| if i < 5 { 1.0 } else { [4.1, 4.0, 4.2][i % 3] })
            .collect();
        assert!(rerun_spread(&clamped).is_some_and(|s| s < 1e-12));
        // Blocks alike: none, however wide each block is.
        let steady: Vec<f64> = (0..80).map(|i| [1.0, 9.0, 5.0, 3.0][i % 4]).collect();
        assert_eq!(rerun_spread(&steady), Some(0.0));
        // Too few samples, ascending ones (a link's, with no order left),
        // one not finite: none.
        assert_eq!(rerun_spread(&wandering[..39]), None);
        let mut sorted = wandering.clone();
        sorted.sort_by(f64::total_cmp);
        assert_eq!(rerun_spread(&sorted), None);
        wandering[3] = f64::NAN;
        assert_eq!(rerun_spread(&wandering), None);
    }

    #[test]
    fn histogram_counts_every_sample_once() {
        let x = s(&[0.0, 0.1, 0.5, 0.99, 1.0, 1.0]);
        let h = x.histogram(4);
        assert_eq!(h.len(), 4);
        assert_eq!(h.iter().map(|b| b.count).sum::<u32>(), 6);
        assert_eq!(h[3].count, 3);
        assert_eq!(h[3].hi, 1.0);
        let flat = s(&[2.0, 2.0]).histogram(10);
        assert_eq!(
            flat,
            vec![Bin {
                lo: 2.0,
                hi: 2.0,
                count: 2
            }]
        );
    }

    #[test]
    fn log_bins_are_even_in_decades() {
        // 0.01 .. 100 ms in four bins: one decade each.
        let x = s(&[0.0, 0.01, 0.05, 0.5, 5.0, 50.0, 100.0]);
        let h = x.log_histogram(4, 0.01);
        let edges: Vec<(f64, f64)> = h.iter().map(|b| (b.lo, b.hi)).collect();
        for (got, want) in edges
            .iter()
            .zip([(0.01, 0.1), (0.1, 1.0), (1.0, 10.0), (10.0, 100.0)])
        {
            assert!(
                (got.0 - want.0).abs() < 1e-9 && (got.1 - want.1).abs() < 1e-9,
                "{edges:?}"
            );
        }
        // The 0 sits at the floor, in the first bin; 100 in the last.
        let counts: Vec<u32> = h.iter().map(|b| b.count).collect();
        assert_eq!(counts, vec![3, 1, 1, 2]);
        assert_eq!(s(&[0.0, 0.0]).log_histogram(5, 0.001).len(), 1);
    }

    #[test]
    fn trimmed_mean_drops_both_tails() {
        // 10 samples, 10 % off each end: the 0.0 and the 100.0 go.
        let x = s(&[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 100.0]);
        assert_eq!(x.trimmed_mean(0.1), 4.5);
        assert_eq!(x.trimmed_mean(0.0), x.mean());
        assert_eq!(s(&[2.0]).trimmed_mean(0.49), 2.0);
        // Steps of 5 with a random phase average to the true 12.
        let quantized = s(&[10.0, 10.0, 10.0, 15.0, 15.0]);
        assert_eq!(quantized.quantile(0.5), 10.0);
        assert_eq!(quantized.trimmed_mean(0.0), 12.0);
    }

    #[test]
    fn overshoot_is_median_minus_requested() {
        let x = s(&[1.0, 2.0, 3.0, 4.0]);
        assert_eq!(x.summary().overshoot(1.0), 1.5);
    }
}
