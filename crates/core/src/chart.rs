//! Chart geometry: scales, ticks and shapes in SVG user units.
//!
//! The page only turns these numbers into SVG elements, so everything that
//! decides where a bar or a tick goes is tested here natively. Waits span
//! five orders of magnitude (a microtask takes microseconds, a clamped timer
//! milliseconds), hence the log scale; values at or below zero are pinned to
//! the scale's floor rather than rejected.

use crate::number::fixed;
use crate::stats::Bin;

/// A mapping from data values to a pixel range.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scale {
    /// `value` in `[lo, hi]` maps linearly onto `[from, to]`.
    Linear {
        /// Domain start.
        lo: f64,
        /// Domain end.
        hi: f64,
        /// Pixel at `lo`.
        from: f64,
        /// Pixel at `hi`.
        to: f64,
    },
    /// `log10(value)` maps linearly; values below `lo` are pinned to `lo`.
    Log {
        /// Domain start, > 0.
        lo: f64,
        /// Domain end, > `lo`.
        hi: f64,
        /// Pixel at `lo`.
        from: f64,
        /// Pixel at `hi`.
        to: f64,
    },
}

/// A tick mark: where it goes and what it says.
#[derive(Debug, Clone, PartialEq)]
pub struct Tick {
    /// Position in pixels.
    pub pos: f64,
    /// Label text.
    pub label: String,
}

/// An axis-aligned rectangle in pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width (≥ 0).
    pub width: f64,
    /// Height (≥ 0).
    pub height: f64,
}

impl Scale {
    /// A linear scale over `[lo, hi]` widened to round tick values; a
    /// degenerate domain is widened to a unit around it.
    pub fn linear_nice(lo: f64, hi: f64, from: f64, to: f64) -> Scale {
        let (lo, hi) = if hi > lo {
            (lo, hi)
        } else {
            (lo - 0.5, lo + 0.5)
        };
        let step = nice_step((hi - lo) / 5.0);
        Scale::Linear {
            lo: (lo / step).floor() * step,
            hi: (hi / step).ceil() * step,
            from,
            to,
        }
    }

    /// A log scale from the power of ten at or below `lo` to the one at or
    /// above `hi`; `lo` is floored at `floor` (> 0).
    pub fn log_decades(lo: f64, hi: f64, floor: f64, from: f64, to: f64) -> Scale {
        let lo = lo.max(floor);
        let hi = hi.max(lo * 10.0);
        Scale::Log {
            lo: 10f64.powf(lo.log10().floor()),
            hi: 10f64.powf(hi.log10().ceil()),
            from,
            to,
        }
    }

    /// The pixel for `value`; outside the domain it extrapolates (linear)
    /// or pins to the floor (log, below `lo`).
    pub fn map(&self, value: f64) -> f64 {
        match *self {
            Scale::Linear { lo, hi, from, to } => from + (value - lo) / (hi - lo) * (to - from),
            Scale::Log { lo, hi, from, to } => {
                let v = value.max(lo);
                from + (v.log10() - lo.log10()) / (hi.log10() - lo.log10()) * (to - from)
            }
        }
    }

    /// Tick marks: round steps for linear scales, one per decade for log.
    pub fn ticks(&self) -> Vec<Tick> {
        match *self {
            Scale::Linear { lo, hi, .. } => {
                let step = nice_step((hi - lo) / 5.0);
                let first = (lo / step).ceil() as i64;
                let last = (hi / step + 1e-9).floor() as i64;
                (first..=last)
                    .map(|i| {
                        let v = i as f64 * step;
                        Tick {
                            pos: self.map(v),
                            label: format_ms(v),
                        }
                    })
                    .collect()
            }
            Scale::Log { lo, hi, .. } => {
                let first = lo.log10().round() as i32;
                let last = hi.log10().round() as i32;
                (first..=last)
                    .map(|e| {
                        let v = 10f64.powi(e);
                        Tick {
                            pos: self.map(v),
                            label: format_ms(v),
                        }
                    })
                    .collect()
            }
        }
    }
}

/// The round step (1, 2 or 5 times a power of ten) nearest above `raw`.
pub fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let pow = 10f64.powf(raw.log10().floor());
    let m = raw / pow;
    let nice = if m <= 1.0 {
        1.0
    } else if m <= 2.0 {
        2.0
    } else if m <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * pow
}

/// Formats milliseconds with precision that suits the magnitude:
/// `0.005`, `0.12`, `1.10`, `15.6`, `250`.
pub fn format_ms(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 {
        "0".to_owned()
    } else if a < 0.001 {
        fixed(v, 4)
    } else if a < 0.01 {
        fixed(v, 3)
    } else if a < 1.0 {
        fixed(v, 2).trim_end_matches('0').to_owned()
    } else if a < 10.0 {
        fixed(v, 2)
    } else if a < 100.0 {
        fixed(v, 1)
    } else {
        fixed(v, 0)
    }
}

/// Bars of a histogram: `x` maps bin edges, `y` maps counts (with `y`'s
/// zero at the baseline). Empty bins give zero-height bars so the bars and
/// the bins correspond one to one.
pub fn histogram_bars(bins: &[Bin], x: &Scale, y: &Scale) -> Vec<Rect> {
    let base = y.map(0.0);
    bins.iter()
        .map(|b| {
            let (x0, x1) = (x.map(b.lo), x.map(b.hi));
            let top = y.map(f64::from(b.count));
            Rect {
                x: x0.min(x1),
                y: top.min(base),
                width: (x1 - x0).abs().max(1.0),
                height: (base - top).abs(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_steps() {
        assert_eq!(nice_step(0.3), 0.5);
        assert_eq!(nice_step(1.0), 1.0);
        assert_eq!(nice_step(1.2), 2.0);
        assert_eq!(nice_step(7.0), 10.0);
        assert_eq!(nice_step(0.0), 1.0);
        assert_eq!(nice_step(f64::NAN), 1.0);
    }

    #[test]
    fn linear_scale_and_ticks() {
        let s = Scale::linear_nice(0.3, 9.2, 0.0, 100.0);
        assert_eq!(
            s,
            Scale::Linear {
                lo: 0.0,
                hi: 10.0,
                from: 0.0,
                to: 100.0
            }
        );
        assert_eq!(s.map(5.0), 50.0);
        let labels: Vec<_> = s.ticks().into_iter().map(|t| t.label).collect();
        assert_eq!(labels, ["0", "2.00", "4.00", "6.00", "8.00", "10.0"]);
        let flat = Scale::linear_nice(4.0, 4.0, 0.0, 10.0);
        assert!(flat.map(4.0) > 0.0 && flat.map(4.0) < 10.0);
    }

    #[test]
    fn log_scale_pins_and_spans_decades() {
        let s = Scale::log_decades(0.004, 16.0, 0.001, 0.0, 400.0);
        assert_eq!(
            s,
            Scale::Log {
                lo: 0.001,
                hi: 100.0,
                from: 0.0,
                to: 400.0
            }
        );
        assert_eq!(s.map(0.0), 0.0);
        assert!((s.map(1.0) - 240.0).abs() < 1e-9);
        assert_eq!(s.ticks().len(), 6);
        assert_eq!(s.ticks()[0].label, "0.001");
        // An all-zero series still has a valid domain.
        let z = Scale::log_decades(0.0, 0.0, 0.001, 0.0, 10.0);
        assert!(z.map(0.0).is_finite());
    }

    #[test]
    fn formats() {
        assert_eq!(format_ms(0.005), "0.005");
        assert_eq!(format_ms(0.0001), "0.0001");
        assert_eq!(format_ms(0.12), "0.12");
        assert_eq!(format_ms(0.1), "0.1");
        assert_eq!(format_ms(1.1), "1.10");
        assert_eq!(format_ms(15.62), "15.6");
        assert_eq!(format_ms(250.0), "250");
    }

    #[test]
    fn bars_match_bins() {
        let bins = [
            Bin {
                lo: 0.0,
                hi: 1.0,
                count: 2,
            },
            Bin {
                lo: 1.0,
                hi: 2.0,
                count: 0,
            },
        ];
        let x = Scale::Linear {
            lo: 0.0,
            hi: 2.0,
            from: 0.0,
            to: 100.0,
        };
        let y = Scale::Linear {
            lo: 0.0,
            hi: 2.0,
            from: 50.0,
            to: 0.0,
        };
        let r = histogram_bars(&bins, &x, &y);
        assert_eq!(
            r[0],
            Rect {
                x: 0.0,
                y: 0.0,
                width: 50.0,
                height: 50.0
            }
        );
        assert_eq!(r[1].height, 0.0);
    }
}
