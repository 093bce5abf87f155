//! Whether a row of one source differs from the same row of another:
//! "faster", "same" or "slower", the way BenchmarkDotNet's statistical
//! test column says it.
//!
//! The rule: a row is slower than its partner when a one-sided
//! Mann-Whitney U test finds its samples, less a threshold, still larger
//! than the partner's (p < [`ALPHA`]); faster when its samples, plus the
//! threshold, are still smaller; the same otherwise; and whatever the test
//! finds, "unclear" where both runs saw how far their rows' medians wander
//! ([`crate::stats::rerun_spread`]) and the medians lie no further apart
//! than [`crate::stats::SPREAD_Z`] times those two spreads together (a difference two
//! runs of one browser would show is none). The threshold is
//! [`THRESHOLD`] of the partner's median, and never less than
//! [`CLOCK_STEPS`] steps of the coarser of the two clocks, so no verdict
//! comes of a difference the clocks cannot tell: where the medians differ
//! by more than [`THRESHOLD`] but not by more than those steps, the verdict
//! says it is under the clock rather than "same"; where they differ by
//! more than both but the test cannot tell the samples apart (two wide
//! polling spreads, or few samples), it says it cannot tell ("unclear")
//! rather than "same", which BenchmarkDotNet would say. The test is on raw
//! samples; where a source's samples were rebuilt from a link's quantile
//! sketch it is approximate, and says so.
//!
//! p-values are the normal approximation with the tie and continuity
//! corrections (SciPy's `mannwhitneyu(method="asymptotic")`, checked
//! against it in the golden tests).

use super::{Group, Origin, Row};
use crate::key;
use crate::stats::{Samples, wander_ms};
use crate::text::{Arg, Phrase};

/// The smallest relative difference of medians a verdict calls a
/// difference: 5 % of the partner's median.
pub const THRESHOLD: f64 = 0.05;
/// The test's significance level, as the 99.9 % intervals of the page.
pub const ALPHA: f64 = 0.001;
/// The smallest difference a verdict calls one, in steps of the coarser
/// clock (the adaptive sampling's precision floor).
pub const CLOCK_STEPS: f64 = 2.0;
/// Fewest samples on either side for a test.
pub const MIN_SAMPLES: usize = 8;
/// The most rows of a rerun of the same browser that may be called faster
/// or slower than the run before it: the A/A bench fails above it, and the
/// page says so. [`THRESHOLD`] and the rows' wander ([`crate::stats::SPREAD_Z`]) are
/// what keep it: medians of one browser's runs of timers move by up to
/// about 1 % ([`crate::describe::RERUN_DRIFT`]), a wake of microseconds by
/// as much as it wanders within a run.
pub const RERUN_FALSE_SHARE: f64 = 0.05;

/// How a row compares with its partner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Its times are shorter by more than the threshold.
    Faster,
    /// No difference beyond the threshold.
    Same,
    /// Its times are longer by more than the threshold.
    Slower,
    /// No difference beyond the threshold, and the medians differ by more
    /// than [`THRESHOLD`] but by no more than [`CLOCK_STEPS`] steps: the
    /// clocks cannot tell whether they differ.
    UnderClock,
    /// No difference beyond the threshold by the test, though the medians
    /// differ by more than [`THRESHOLD`] and by more than [`CLOCK_STEPS`]
    /// steps: these samples cannot tell that difference from chance.
    Unclear,
}

impl Verdict {
    /// Its id, for `data-verdict` and its text's key.
    pub fn id(self) -> &'static str {
        match self {
            Verdict::Faster => "faster",
            Verdict::Same => "same",
            Verdict::Slower => "slower",
            Verdict::UnderClock => "under_clock",
            Verdict::Unclear => "unclear",
        }
    }
}

/// The test behind a verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct Test {
    /// What it found.
    pub verdict: Verdict,
    /// The row's median over its partner's.
    pub ratio: f64,
    /// The p-value of the one-sided test that decided (for "same", the
    /// smaller of the two: the strongest evidence, and not enough).
    pub p: f64,
    /// Cliff's delta of the unshifted samples, -1 to 1: the chance a
    /// sample of the row is longer than one of its partner's, less the
    /// chance it is shorter.
    pub effect: f64,
    /// The threshold it tested against, ms.
    pub threshold_ms: f64,
    /// Whether a side's samples were rebuilt from a link's sketch.
    pub approximate: bool,
    /// Whether the medians differ by no more than the two rows wander
    /// between runs (an "unclear" that two runs of one browser can show).
    pub within_wander: bool,
    /// The partner's name when it is another way of waiting than the
    /// row's own (a native row beside a browser's).
    pub partner: Option<Phrase>,
}

/// What the verdict column says of one row.
#[derive(Debug, Clone, PartialEq)]
pub enum Judged {
    /// A row of the source the others are compared with.
    Base,
    /// Tested against its partner.
    Tested(Test),
    /// The base source has no row of this way of waiting.
    NoPartner,
    /// A stated figure: no samples to test.
    Stated,
    /// Not measured (its notes say why), here or in its partner.
    NotMeasured,
    /// Fewer than [`MIN_SAMPLES`] samples on a side.
    TooFew,
}

impl Judged {
    /// What its cell says, in words first: a sentence against `base` (the
    /// compared source's name, or "your run"), or why there is none; then
    /// the test's figures, one line each with what its symbol means.
    pub fn phrases(&self, base: &Phrase) -> (Phrase, Vec<Phrase>) {
        let why = |k| (Phrase::new(k), Vec::new());
        match self {
            Judged::Base => why(key!("compare.verdict.base")),
            Judged::NoPartner => why(key!("compare.verdict.no_partner")),
            Judged::Stated => why(key!("compare.verdict.stated")),
            Judged::NotMeasured => why(key!("compare.verdict.not_measured")),
            Judged::TooFew => why(key!("compare.verdict.too_few")),
            Judged::Tested(t) => (t.sentence(base), t.figures()),
        }
    }

    /// The verdict, if it was tested.
    pub fn verdict(&self) -> Option<Verdict> {
        match self {
            Judged::Tested(t) => Some(t.verdict),
            _ => None,
        }
    }
}

impl Test {
    /// "2.1× slower than your run: a difference larger than chance and
    /// than the clocks can blur", or the same, under the clock or unclear,
    /// in words; how far apart only where the ratio is a number (a
    /// partner's median of 0 has none).
    fn sentence(&self, base: &Phrase) -> Phrase {
        // The ratio as "× faster" reads it: always 1 or more.
        let times = if self.ratio < 1.0 {
            1.0 / self.ratio
        } else {
            self.ratio
        };
        let factor = (times.is_finite() && self.ratio > 0.0).then_some(times);
        let key = match (self.verdict, factor) {
            (Verdict::Faster, Some(_)) => key!("compare.verdict.says.faster"),
            (Verdict::Faster, None) => key!("compare.verdict.says.faster_no_ratio"),
            (Verdict::Slower, Some(_)) => key!("compare.verdict.says.slower"),
            (Verdict::Slower, None) => key!("compare.verdict.says.slower_no_ratio"),
            (Verdict::Same, _) => key!("compare.verdict.says.same"),
            (Verdict::UnderClock, _) => key!("compare.verdict.says.under_clock"),
            (Verdict::Unclear, Some(_)) if self.within_wander && self.ratio < 1.0 => {
                key!("compare.verdict.says.wander_faster")
            }
            (Verdict::Unclear, Some(_)) if self.within_wander => {
                key!("compare.verdict.says.wander_slower")
            }
            (Verdict::Unclear, Some(_)) if self.ratio < 1.0 => {
                key!("compare.verdict.says.unclear_faster")
            }
            (Verdict::Unclear, Some(_)) => key!("compare.verdict.says.unclear_slower"),
            (Verdict::Unclear, None) => key!("compare.verdict.says.unclear"),
        };
        let said = Phrase::new(key)
            .phrase("base", base.clone())
            .arg("times", Arg::Fixed(factor.unwrap_or(1.0), 1))
            .count("steps", CLOCK_STEPS as u64);
        let said = match &self.partner {
            Some(partner) => Phrase::new(key!("compare.verdict.partner"))
                .phrase("verdict", said)
                .phrase("partner", partner.clone()),
            None => said,
        };
        if self.approximate {
            Phrase::new(key!("compare.verdict.approximate")).phrase("verdict", said)
        } else {
            said
        }
    }

    /// The test's figures, one line each, each saying what its symbol
    /// means: the ratio of medians (where it is a number), p against the
    /// level, Cliff's delta, and the threshold a difference had to pass.
    fn figures(&self) -> Vec<Phrase> {
        // Under the clock, a ratio far from 1 is the clock's grain: said so.
        let ratio_key = if self.verdict == Verdict::UnderClock {
            key!("compare.verdict.stat.ratio_under_clock")
        } else {
            key!("compare.verdict.stat.ratio")
        };
        let ratio = (self.ratio.is_finite() && self.ratio > 0.0).then(|| {
            Phrase::new(ratio_key)
                .arg("ratio", Arg::Fixed(self.ratio, 2))
                .count("steps", CLOCK_STEPS as u64)
        });
        let p = if self.p < ALPHA {
            Phrase::new(key!("compare.verdict.stat.p_below"))
        } else {
            Phrase::new(key!("compare.verdict.stat.p")).arg("p", Arg::Fixed(self.p, 3))
        };
        let p = p.arg("alpha", Arg::Fixed(ALPHA, 3));
        let delta = Phrase::new(key!("compare.verdict.stat.delta"))
            .arg("delta", Arg::Fixed(self.effect, 2));
        let threshold = Phrase::new(key!("compare.verdict.stat.threshold"))
            .ms("threshold", self.threshold_ms)
            .count("percent", (THRESHOLD * 100.0) as u64)
            .count("steps", CLOCK_STEPS as u64);
        ratio.into_iter().chain([p, delta, threshold]).collect()
    }
}

/// How a verdict names the source it compared with: "your run" where it
/// is this reader's own, else its name.
pub fn against(base: &Group) -> Phrase {
    match base.origin {
        super::Origin::Browser => Phrase::new(key!("compare.verdict.your_run")),
        _ => base.source.clone(),
    }
}

/// In one sentence, how `group`'s rows compared with `base`'s: how many
/// were faster, the same and slower (`None` when none was tested), and
/// how many of those the chart does not draw (`drawn`, per row of
/// `group`: whether the chart has it), which only the table shows.
pub fn summary(base: &Group, group: &Group, judged: &[Judged], drawn: &[bool]) -> Option<Phrase> {
    let count = |v| judged.iter().filter(|j| j.verdict() == Some(v)).count() as u64;
    let undrawn = judged
        .iter()
        .zip(drawn)
        .filter(|(j, drawn)| j.verdict().is_some() && !**drawn)
        .count() as u64;
    let counts: Vec<Phrase> = [
        (Verdict::Faster, key!("compare.verdict.n_faster")),
        (Verdict::Same, key!("compare.verdict.n_same")),
        (Verdict::Slower, key!("compare.verdict.n_slower")),
        (Verdict::UnderClock, key!("compare.verdict.n_under_clock")),
        (Verdict::Unclear, key!("compare.verdict.n_unclear")),
    ]
    .into_iter()
    .filter(|(v, _)| count(*v) > 0)
    .map(|(v, k)| Phrase::new(k).count("count", count(v)))
    .collect();
    let undrawn = if undrawn > 0 {
        Phrase::new(key!("compare.verdict.only_in_table")).count("count", undrawn)
    } else {
        Phrase::written("")
    };
    (!counts.is_empty()).then(|| {
        Phrase::new(key!("compare.verdict.summary"))
            .phrase("source", group.source.clone())
            .phrase("base", against(base))
            .arg("counts", Arg::List(counts))
            .phrase("undrawn", undrawn)
    })
}

/// The verdict column's heading: against `base` ("your run").
pub fn heading(base: &Group) -> Phrase {
    Phrase::new(key!("compare.verdict.head")).phrase("source", against(base))
}

/// What the verdicts are, under the table: the test, its level and its
/// threshold, and what the figures under a verdict are.
pub fn note(base: &Group) -> Phrase {
    Phrase::new(key!("compare.verdict.note"))
        .phrase("base", base.source.clone())
        .arg("alpha", Arg::Fixed(ALPHA, 3))
        .count("percent", (THRESHOLD * 100.0) as u64)
        .count("steps", CLOCK_STEPS as u64)
        .count("false_share", (RERUN_FALSE_SHARE * 100.0) as u64)
}

/// Which of `groups` the others are compared with: the first with
/// samples to test (this browser's run when there is one, as the page
/// lists it first).
pub fn base<'a>(mut groups: impl Iterator<Item = &'a Group>) -> Option<usize> {
    groups.position(|g| g.rows.iter().any(|r| !r.samples.is_empty()))
}

/// Each row of `group` judged against `base` (every row [`Judged::Base`]
/// when `group` is `base`).
pub fn judge(base: &Group, group: &Group) -> Vec<Judged> {
    if std::ptr::eq(base, group) {
        return vec![Judged::Base; group.rows.len()];
    }
    let step = |g: &Group| g.clock.map_or(0.0, |c| c.tolerance_ms());
    let floor_ms = CLOCK_STEPS * step(base).max(step(group));
    let approximate = base.sketched || group.sketched;
    group
        .rows
        .iter()
        .map(|row| {
            if group.origin == Origin::Stated && row.samples.is_empty() {
                return Judged::Stated;
            }
            let Some(partner) = partner(base, row) else {
                return Judged::NoPartner;
            };
            if row.samples.is_empty() || partner.samples.is_empty() {
                return Judged::NotMeasured;
            }
            let (Ok(x), Ok(y)) = (
                Samples::new(row.samples.clone()),
                Samples::new(partner.samples.clone()),
            ) else {
                return Judged::NotMeasured;
            };
            if x.len() < MIN_SAMPLES || y.len() < MIN_SAMPLES {
                return Judged::TooFew;
            }
            // The medians as the sources give them (a link's are exact,
            // its rebuilt samples' only near).
            let median = |r: &Row, s: &Samples| r.median_ms.unwrap_or_else(|| s.quantile(0.5));
            let (median, base_median) = (median(row, &x), median(partner, &y));
            // As much as runs of the two rows move apart, where both runs
            // saw how far their medians wander.
            let wander_ms = row
                .spread_ms
                .zip(partner.spread_ms)
                .map_or(0.0, |(a, b)| wander_ms(a, b));
            let relative_ms = THRESHOLD * base_median.abs();
            let mut test = test(x.sorted(), y.sorted(), relative_ms.max(floor_ms));
            // "Same" where the medians differ by more than 5 % but no more
            // than the clocks' steps: the clocks cannot tell.
            let apart = (median - base_median).abs();
            // "Unclear" where they differ by more than both, but not
            // surely.
            if test.verdict == Verdict::Same && apart > relative_ms {
                test.verdict = if apart <= floor_ms {
                    Verdict::UnderClock
                } else {
                    Verdict::Unclear
                };
            }
            // Whatever the test found, medians no further apart than two
            // runs of these rows lie are no difference to call. The wander
            // bounds the medians, not each sample: shifting a wide series
            // by it would hide a difference far beyond it.
            if apart > relative_ms.max(floor_ms) && apart <= wander_ms {
                test.verdict = Verdict::Unclear;
                test.within_wander = true;
            }
            test.threshold_ms = relative_ms.max(floor_ms).max(wander_ms);
            test.ratio = median / base_median;
            // A verdict agrees with its own figures: "faster" whose median
            // is not below its partner's (samples that tell one thing,
            // medians another) is no verdict to print.
            let against_medians = match test.verdict {
                Verdict::Faster => median >= base_median,
                Verdict::Slower => median <= base_median,
                _ => false,
            };
            if against_medians {
                test.verdict = Verdict::Unclear;
            }
            test.approximate = approximate;
            test.partner = (partner.what != row.what).then(|| partner.what.clone());
            Judged::Tested(test)
        })
        .collect()
}

/// The row of `base` that `row` is compared with: the same way of waiting
/// asking for the same wait, else the first that stands for the same code
/// of the article with the same wait.
fn partner<'a>(base: &'a Group, row: &Row) -> Option<&'a Row> {
    let same_wait = |b: &&Row| b.requested_ms == row.requested_ms;
    base.rows
        .iter()
        .filter(same_wait)
        .find(|b| row.id.is_some() && b.id == row.id)
        .or_else(|| {
            base.rows
                .iter()
                .filter(same_wait)
                .find(|b| b.analogue == row.analogue && !b.samples.is_empty())
        })
}

/// The verdict of sorted `x` against sorted `y` with a threshold of
/// `threshold_ms` (its ratio, approximation and partner left for the
/// caller).
pub fn test(x: &[f64], y: &[f64], threshold_ms: f64) -> Test {
    let shifted = |by: f64| x.iter().map(|v| v + by).collect::<Vec<_>>();
    let p_slower = mann_whitney(&shifted(-threshold_ms), y).greater;
    let p_faster = mann_whitney(&shifted(threshold_ms), y).less;
    let verdict = if p_slower < ALPHA {
        Verdict::Slower
    } else if p_faster < ALPHA {
        Verdict::Faster
    } else {
        Verdict::Same
    };
    let p = match verdict {
        Verdict::Slower => p_slower,
        Verdict::Faster => p_faster,
        Verdict::Same | Verdict::UnderClock | Verdict::Unclear => p_slower.min(p_faster),
    };
    Test {
        verdict,
        ratio: f64::NAN,
        p,
        effect: mann_whitney(x, y).cliffs_delta,
        threshold_ms,
        approximate: false,
        within_wander: false,
        partner: None,
    }
}

/// A two-sample Mann-Whitney U test of `x` against `y`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MannWhitney {
    /// p-value of "`x` tends to be larger than `y`".
    pub greater: f64,
    /// p-value of "`x` tends to be smaller than `y`".
    pub less: f64,
    /// Cliff's delta: `2 U / (n m) - 1`.
    pub cliffs_delta: f64,
}

/// The Mann-Whitney U test of `x` against `y` (both non-empty, in any
/// order): U of `x` from the midranks of both together, its p-values by
/// the normal approximation with the tie and continuity corrections (1
/// when every value is equal).
pub fn mann_whitney(x: &[f64], y: &[f64]) -> MannWhitney {
    let (n1, n2) = (x.len() as f64, y.len() as f64);
    let mut all: Vec<(f64, bool)> = x
        .iter()
        .map(|&v| (v, true))
        .chain(y.iter().map(|&v| (v, false)))
        .collect();
    all.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (mut rank_sum, mut ties) = (0.0, 0.0);
    let mut i = 0;
    while i < all.len() {
        let j = i + all[i..].iter().take_while(|v| v.0 == all[i].0).count();
        let midrank = (i + j + 1) as f64 / 2.0;
        let from_x = all[i..j].iter().filter(|v| v.1).count() as f64;
        rank_sum += from_x * midrank;
        let t = (j - i) as f64;
        ties += t * t * t - t;
        i = j;
    }
    let u = rank_sum - n1 * (n1 + 1.0) / 2.0;
    let n = n1 + n2;
    let mean = n1 * n2 / 2.0;
    let sigma = (n1 * n2 / 12.0 * ((n + 1.0) - ties / (n * (n - 1.0)))).sqrt();
    let upper = |u: f64| {
        if sigma > 0.0 {
            distrs::Normal::cdf(-(u - mean - 0.5) / sigma, 0.0, 1.0)
        } else {
            1.0
        }
    };
    MannWhitney {
        greater: upper(u),
        less: upper(n1 * n2 - u),
        cliffs_delta: 2.0 * u / (n1 * n2) - 1.0,
    }
}
