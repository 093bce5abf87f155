//! A lesson's figures as a run measured them, and the rules that read a
//! verdict from them: a contrast of two ways ([`Pair`]) or the overshoot
//! of timed waits ([`Minimum`]). No figure is shown negative or infinite:
//! a difference the clock cannot resolve says so in words.

use super::verdict::{HOLDS_RATIO, Verdict};
use crate::clock::ClockInfo;
use crate::key;
use crate::text::{Arg, Key, Phrase};

/// What a run measured of a lesson.
#[derive(Debug, Clone, PartialEq)]
pub enum Reading {
    /// The wrong way's figure against the right way's.
    Pair(Pair),
    /// Timed waits against what they asked for.
    Minimum(Minimum),
}

impl Reading {
    /// Whether it bears the lesson out, by `clock`.
    pub fn verdict(&self, clock: Option<ClockInfo>) -> Verdict {
        match self {
            Reading::Pair(pair) => pair.verdict(clock),
            Reading::Minimum(minimum) => minimum.verdict(clock),
        }
    }

    /// Whether `clock` leaves one of its figures unresolved (marked ‡).
    pub fn marked(&self, clock: Option<ClockInfo>) -> bool {
        match self {
            Reading::Pair(pair) => pair.marked(clock),
            Reading::Minimum(minimum) => minimum.took.iter().any(|(_, v)| unresolved(*v, clock)),
        }
    }

    /// Its figures in words, in the lesson's words (`key`).
    pub fn phrase(&self, key: Key, clock: Option<ClockInfo>) -> Phrase {
        match self {
            Reading::Pair(pair) => pair.phrase(key, clock),
            Reading::Minimum(minimum) => minimum.phrase(key, clock),
        }
    }
}

/// Whether `clock` does not resolve `value` (ms).
fn unresolved(value: f64, clock: Option<ClockInfo>) -> bool {
    clock.is_some_and(|c| !c.resolves(value))
}

/// The wrong way's figure and the right way's: ms, or a percentage of a
/// core.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    /// The wrong way's.
    pub wrong: f64,
    /// The right way's.
    pub right: f64,
    /// Percentages of a core rather than ms.
    percent: bool,
    /// The way its words name (`{way}`), where the lesson picks one of
    /// several.
    way: Option<Phrase>,
}

impl Pair {
    /// Two figures in ms.
    pub fn ms(wrong: f64, right: f64) -> Pair {
        Pair {
            wrong,
            right,
            percent: false,
            way: None,
        }
    }

    /// Two percentages of a core.
    pub fn percent(wrong: f64, right: f64) -> Pair {
        Pair {
            percent: true,
            ..Pair::ms(wrong, right)
        }
    }

    /// The same, naming the way it measured.
    pub fn way(self, way: Phrase) -> Pair {
        Pair {
            way: Some(way),
            ..self
        }
    }

    /// How many times the right way beat the wrong one (`None` where the
    /// right way's figure is zero).
    fn ratio(&self) -> Option<f64> {
        (self.right > 0.0)
            .then(|| self.wrong / self.right)
            .filter(|r| r.is_finite())
    }

    /// Whether `clock` resolves the difference (percentages always are).
    fn resolved(&self, clock: Option<ClockInfo>) -> bool {
        self.percent || clock.is_none_or(|c| c.resolves(self.wrong - self.right))
    }

    fn verdict(&self, clock: Option<ClockInfo>) -> Verdict {
        if !self.resolved(clock) {
            return Verdict::BelowClock;
        }
        match self.ratio() {
            None => Verdict::Holds,
            Some(r) if r >= HOLDS_RATIO => Verdict::Holds,
            Some(r) if r > 1.0 => Verdict::Barely,
            Some(_) => Verdict::Opposite,
        }
    }

    /// Whether `clock` leaves one of its figures unresolved (marked ‡).
    fn marked(&self, clock: Option<ClockInfo>) -> bool {
        !self.percent && (unresolved(self.wrong, clock) || unresolved(self.right, clock))
    }

    /// One of its figures, marked ‡ where `clock` does not resolve it.
    pub fn figure(&self, value: f64, clock: Option<ClockInfo>) -> Arg {
        if self.percent {
            // Two significant digits under 10 %, so that the ratio beside
            // it multiplies out (0.055 %, not 0.1 %, beside ×1,800).
            let decimals = if value >= 10.0 || value <= 0.0 {
                0
            } else {
                (1 - value.log10().floor() as i32).clamp(1, 4) as u8
            };
            return Arg::Fixed(value, decimals);
        }
        Arg::ms_on(value, clock)
    }

    /// How many times the right way won, in words: a ratio only where
    /// both figures are above zero and the clock resolves the smaller.
    fn times(&self, clock: Option<ClockInfo>) -> Phrase {
        let smaller = self.wrong.min(self.right);
        match self.ratio() {
            Some(r) if r > 0.0 && (self.percent || !unresolved(smaller, clock)) => {
                Phrase::new(key!("summary.times"))
                    .arg("times", Arg::Fixed(r, if r < 10.0 { 1 } else { 0 }))
            }
            _ => Phrase::new(key!("summary.times_unresolved")),
        }
    }

    /// The pair in words (`key`, which names the lesson's two ways), and
    /// how many times the right way won.
    pub fn phrase(&self, key: Key, clock: Option<ClockInfo>) -> Phrase {
        let phrase = Phrase::new(key)
            .arg("wrong", self.figure(self.wrong, clock))
            .arg("right", self.figure(self.right, clock))
            .phrase("times", self.times(clock));
        match &self.way {
            Some(way) => phrase.phrase("way", way.clone()),
            None => phrase,
        }
    }
}

/// Timed waits of the smallest requested time against that time: a
/// timer and a sleep (the browser's `setTimeout` and a worker's
/// `Atomics.wait`, or natively `std::thread::sleep` and tokio's), and
/// where nested timers were clamped.
#[derive(Debug, Clone, PartialEq)]
pub struct Minimum {
    /// The requested wait, ms.
    pub requested: u32,
    /// Each way and its median, ms (at least one).
    pub took: Vec<(Phrase, f64)>,
    /// Whether any timed wait of the run ended before its time, by more
    /// than a clock step.
    pub early: bool,
    /// The first nesting level held to the clamp, and the clamp, ms.
    pub clamp: Option<(u32, f64)>,
}

impl Minimum {
    /// It holds where no wait ended early and the first way overshot by
    /// more than `clock` blurs; a wait that ended early says the opposite.
    fn verdict(&self, clock: Option<ClockInfo>) -> Verdict {
        if self.early {
            return Verdict::Opposite;
        }
        let overshoot = self.took[0].1 - f64::from(self.requested);
        if overshoot > 0.0 && !unresolved(overshoot, clock) {
            Verdict::Holds
        } else {
            Verdict::BelowClock
        }
    }

    fn phrase(&self, key: Key, clock: Option<ClockInfo>) -> Phrase {
        let mut took: Vec<Phrase> = self
            .took
            .iter()
            .map(|(way, p50)| {
                Phrase::new(key!("summary.took"))
                    .phrase("way", way.clone())
                    .arg("ms", Arg::ms_on(*p50, clock))
            })
            .collect();
        if let Some((level, clamp_ms)) = self.clamp {
            took.push(
                Phrase::new(key!("summary.clamped"))
                    .count("level", level)
                    .arg("clamp", Arg::Fixed(clamp_ms, 0)),
            );
        }
        Phrase::new(key)
            .digits("d", self.requested)
            .arg("took", Arg::List(took))
    }
}
