//! The vocabulary every layer shares for a figure: what its numbers
//! count ([`Unit`]) and one cell of a comparison table ([`Value`]): a
//! figure measured, one under its clock's resolution, one a source
//! states, or none. A leaf: the experiments' columns and the comparisons
//! both use it, and it names neither.

use crate::chart::format_ms;
use crate::clock::ClockInfo;

/// What a column's numbers count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Milliseconds.
    Ms,
    /// Microseconds.
    Us,
    /// Nanoseconds.
    Ns,
    /// A ratio ("50×").
    Times,
    /// A count (threads).
    Count,
}

impl Unit {
    /// A value of this unit on a chart axis: times in ms, ratios as they
    /// are; `None` for counts, which are not charted.
    pub fn to_axis(self, v: f64) -> Option<f64> {
        match self {
            Unit::Ms | Unit::Times => Some(v),
            Unit::Us => Some(v / 1000.0),
            Unit::Ns => Some(v / 1e6),
            Unit::Count => None,
        }
    }

    /// A time of `ms` in this unit, if it is one of time.
    pub fn of_ms(self, ms: f64) -> Option<f64> {
        match self {
            Unit::Ms => Some(ms),
            Unit::Us => Some(ms * 1000.0),
            Unit::Ns => Some(ms * 1e6),
            Unit::Times | Unit::Count => None,
        }
    }

    /// A number formatted for this unit (without the unit's name).
    pub fn format(self, v: f64) -> String {
        match self {
            Unit::Ms | Unit::Us | Unit::Ns => format_ms(v),
            Unit::Times => format!("{}×", crate::number::fixed(v, 1)),
            Unit::Count => crate::number::fixed(v, 0),
        }
    }
}

/// One cell of a comparison table.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// Not measured or not stated.
    Absent,
    /// Measured.
    Measured(f64),
    /// Measured, but from figures spanning fewer than
    /// [`crate::clock::RESOLVED_STEPS`] steps of its source's clock:
    /// rounding, not a measurement (the page marks it ‡).
    Unresolved {
        /// The value.
        value: f64,
        /// The figure under the clock's resolution, ms: the value itself,
        /// or for a ratio the time it divides by.
        figure_ms: f64,
        /// The clock that read it.
        clock: ClockInfo,
    },
    /// Stated by the source: a value or a range, maybe approximate.
    Stated {
        /// Low end (or the value).
        low: f64,
        /// High end of a range.
        high: Option<f64>,
        /// "About".
        approximate: bool,
    },
}

impl Value {
    /// A measured value, absent if not finite.
    pub fn of(v: f64) -> Value {
        if v.is_finite() {
            Value::Measured(v)
        } else {
            Value::Absent
        }
    }

    /// A measured value if there is one.
    pub fn maybe(v: Option<f64>) -> Value {
        v.map_or(Value::Absent, Value::of)
    }

    /// A count.
    pub fn count(n: u32) -> Value {
        Value::Measured(f64::from(n))
    }

    /// A value got by dividing by a time of `figure_ms` (a ratio, a rate,
    /// a total of blocks): marked when `clock` does not resolve that time.
    pub fn per(value: f64, figure_ms: f64, clock: Option<ClockInfo>) -> Value {
        match clock.filter(|c| !c.resolves(figure_ms)) {
            Some(clock) => Value::Unresolved {
                value,
                figure_ms,
                clock,
            },
            None => Value::of(value),
        }
    }

    /// The text of the cell.
    pub fn format(&self, unit: Unit) -> String {
        match self {
            Value::Absent => "–".to_owned(),
            Value::Measured(v) => unit.format(*v),
            Value::Unresolved { .. } => format!("{}‡", self.unresolved(unit)),
            Value::Stated {
                low,
                high,
                approximate,
            } => {
                let about = if *approximate { "≈" } else { "" };
                match high {
                    Some(h) => format!("{about}{}–{}", unit.format(*low), unit.format(*h)),
                    None => format!("{about}{}", unit.format(*low)),
                }
            }
        }
    }

    /// The figure of an unresolved value, without its ‡: a time the clock
    /// read as none is under one step of it ("<0.005"); any other its
    /// number. Empty for other values.
    pub fn unresolved(&self, unit: Unit) -> String {
        let Value::Unresolved {
            value, figure_ms, ..
        } = *self
        else {
            return String::new();
        };
        // A time of 0's band is one step of its clock, ms.
        let under = self
            .clock_band()
            .filter(|_| value == 0.0 && figure_ms <= 0.0)
            .and_then(|(_, step_ms)| unit.of_ms(step_ms));
        match under {
            Some(step) => format!("<{}", unit.format(step)),
            None => unit.format(value),
        }
    }

    /// Marks a measured time of `unit` below `clock`'s resolution; other
    /// values stay as they are.
    pub(super) fn resolved_by(self, unit: Unit, clock: ClockInfo) -> Value {
        let Value::Measured(value) = self else {
            return self;
        };
        let figure_ms = match unit {
            Unit::Ms => value,
            Unit::Us => value / 1000.0,
            Unit::Ns => value / 1e6,
            Unit::Times | Unit::Count => return self,
        };
        if clock.resolves(figure_ms) {
            self
        } else {
            Value::Unresolved {
                value,
                figure_ms,
                clock,
            }
        }
    }

    /// For a figure under its clock's resolution, the span one step of that
    /// clock either way of the figure makes of the value, `(low, high)`
    /// (for a ratio, the step moves the time it divides by): what the
    /// figure cannot tell apart. `None` for any other value.
    pub fn clock_band(&self) -> Option<(f64, f64)> {
        let Value::Unresolved {
            value,
            figure_ms,
            clock,
        } = *self
        else {
            return None;
        };
        if value == 0.0 {
            // A time of 0: anything under one step of the clock; a ratio
            // of 0 (a time of 0 over `figure_ms`): anything under one step
            // over that.
            let over = if figure_ms > 0.0 { figure_ms } else { 1.0 };
            return Some((0.0, clock.typical_step_ms / over));
        }
        let step = clock.typical_step_ms / figure_ms.max(f64::MIN_POSITIVE);
        Some(((value * (1.0 - step)).max(0.0), value * (1.0 + step)))
    }

    /// Where a chart's log axis of `unit` puts the value, if anywhere: its
    /// span with both ends above 0, or for a figure of 0 that its clock
    /// cannot tell from one step (0‡), which such an axis has no place
    /// for, only its band, from the axis' floor up to that step.
    pub fn on_axis(&self, unit: Unit) -> Option<Placed> {
        let (lo, hi) = self.span()?;
        let to_axis = |x| unit.to_axis(x).filter(|m| *m > 0.0 && m.is_finite());
        let band = self
            .clock_band()
            .and_then(|(lo, hi)| Some((unit.to_axis(lo)?, to_axis(hi)?)));
        match (to_axis(lo), to_axis(hi)) {
            (Some(lo), Some(hi)) => Some(Placed {
                lo,
                hi,
                band,
                under_clock: false,
            }),
            _ => {
                let (_, step) = band?;
                Some(Placed {
                    lo: step,
                    hi: step,
                    band,
                    under_clock: true,
                })
            }
        }
    }

    /// The span the value covers, `(low, high)`, if it has a number.
    pub fn span(&self) -> Option<(f64, f64)> {
        match self {
            Value::Absent => None,
            Value::Measured(v) | Value::Unresolved { value: v, .. } => Some((*v, *v)),
            Value::Stated { low, high, .. } => Some((*low, high.unwrap_or(*low))),
        }
    }
}

/// A value's place on a chart's axis ([`Value::on_axis`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placed {
    /// Its low end, on the axis.
    pub lo: f64,
    /// Its high end.
    pub hi: f64,
    /// The span a step of its clock makes of it, for a figure under the
    /// clock's resolution.
    pub band: Option<(f64, f64)>,
    /// Whether only the band is drawn (a 0‡ figure).
    pub under_clock: bool,
}
