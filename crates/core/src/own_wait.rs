//! A reader's own way of waiting: what the page sends the sandbox that
//! runs it (`www/own-wait.js`) and what it accepts back, the counts at
//! which it looks under the sampling rule of waitlab's own cells, the time
//! each part may take, and the verdict against a built-in way.
//!
//! The sandbox is another origin's page (an opaque one): nothing it says
//! is trusted. A reply is read from its parts ([`Reply::read`]) and
//! refused unless it is one of three shapes with sane values.

use crate::clock::ClockInfo;
use crate::compare::verdict::{self, Judged};
use crate::compare::{Group, Origin, Row};
use crate::key;
use crate::sampling::{MIN_SAMPLES, Stop};
use crate::text::Phrase;

/// The most characters of code the page sends (and a link may carry).
pub const MOST_CODE_CHARS: usize = 8_000;
/// The most characters of an error message the page shows.
pub const MOST_MESSAGE_CHARS: usize = 300;
/// How long the sandbox may take to start the code, ms.
pub const START_LIMIT_MS: u32 = 5_000;

/// The code a reader starts from: a timed wait as `setTimeout` gives it,
/// written by hand (the built-in `await setTimeout(ms)` cell's twin).
pub const RECIPE: &str =
    "async (ms) => {\n  await new Promise((resolve) => setTimeout(resolve, ms));\n}";

/// What the sandbox said.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// The code started: a function, and the step of the worker's clock,
    /// ms.
    Ready {
        /// The smallest step its `performance.now()` took.
        step_ms: f64,
    },
    /// A part's times, ms, in call order.
    Samples(Vec<f64>),
    /// The code failed (a syntax error, a throw, a rejected promise), in
    /// its own words, cut to [`MOST_MESSAGE_CHARS`].
    Failed(String),
}

impl Reply {
    /// A reply from a message's `kind` and the fields it may carry, for a
    /// part of `asked` calls (`None` before the first): `None` for a
    /// message of no known shape or with values no run can give.
    pub fn read(
        kind: &str,
        step_ms: Option<f64>,
        samples: Option<Vec<f64>>,
        message: Option<String>,
        asked: Option<u32>,
    ) -> Option<Reply> {
        match kind {
            "ready" => {
                let step_ms = step_ms.filter(|s| s.is_finite() && *s >= 0.0)?;
                // A clock that never moved reads as 1 ms, the coarsest
                // any browser keeps.
                Some(Reply::Ready {
                    step_ms: if step_ms > 0.0 { step_ms.min(1.0) } else { 1.0 },
                })
            }
            "samples" => {
                let samples = samples?;
                let fine = samples.len() as u32 == asked?
                    && samples.iter().all(|v| v.is_finite() && *v >= 0.0);
                fine.then_some(Reply::Samples(samples))
            }
            "error" => Some(Reply::Failed(
                message?.chars().take(MOST_MESSAGE_CHARS).collect(),
            )),
            _ => None,
        }
    }
}

/// The counts of calls at which the page looks at the times so far, up
/// to `max` (the last): where the sampling rule of a built-in cell looks
/// ([`Stop::checks_at`]), so that a reader's way stops where one of
/// waitlab's own would.
pub fn checks(max: u32) -> Vec<u32> {
    (1..=max)
        .filter(|&n| n == max || (n >= MIN_SAMPLES && Stop::checks_at(n)))
        .collect()
}

/// How long a part of `n` calls asking for `ms` each may take before the
/// page gives up on it, ms: four times the waits asked for, plus 20 ms a
/// call and 3 s, within 60 s.
pub fn part_limit_ms(n: u32, ms: f64) -> u32 {
    let ms = if ms.is_finite() { ms.max(0.0) } else { 0.0 };
    (3_000.0 + f64::from(n) * (4.0 * ms + 20.0)).min(60_000.0) as u32
}

/// The reader's way (`own`, read with a clock of `own_step_ms`) against a
/// built-in one (`builtin`, read with `clock`): the same test as every
/// comparison's ([`verdict::judge`]).
pub fn judge(builtin: &[f64], clock: Option<ClockInfo>, own: &[f64], own_step_ms: f64) -> Judged {
    let row = |samples: &[f64]| Row {
        what: Phrase::new(key!("timed_waits.own.yours")),
        analogue: Phrase::new(key!("timed_waits.own.yours")),
        values: Vec::new(),
        notes: Vec::new(),
        requested_ms: None,
        id: Some("own"),
        samples: samples.to_vec(),
        median_ms: None,
    };
    let group = |samples: &[f64], clock: Option<ClockInfo>| Group {
        source: Phrase::new(key!("timed_waits.own.yours")),
        origin: Origin::Browser,
        rows: vec![row(samples)],
        clock,
        sketched: false,
    };
    let own_clock = ClockInfo {
        min_step_ms: own_step_ms,
        typical_step_ms: own_step_ms,
        readings: own.len() as u32,
    };
    let base = group(builtin, clock);
    let mine = group(own, Some(own_clock));
    verdict::judge(&base, &mine).remove(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_of_no_known_shape_are_refused() {
        let read = Reply::read;
        assert_eq!(
            read("ready", Some(0.005), None, None, None),
            Some(Reply::Ready { step_ms: 0.005 })
        );
        assert_eq!(
            read("ready", Some(0.0), None, None, None),
            Some(Reply::Ready { step_ms: 1.0 })
        );
        assert_eq!(read("ready", Some(f64::NAN), None, None, None), None);
        assert_eq!(read("ready", None, None, None, None), None);
        let two = Some(vec![1.0, 1.1]);
        assert_eq!(
            read("samples", None, two.clone(), None, Some(2)),
            Some(Reply::Samples(vec![1.0, 1.1]))
        );
        assert_eq!(
            read("samples", None, two.clone(), None, Some(3)),
            None,
            "not what was asked"
        );
        assert_eq!(
            read("samples", None, two, None, None),
            None,
            "nothing asked"
        );
        assert_eq!(
            read("samples", None, Some(vec![-1.0, 1.0]), None, Some(2)),
            None
        );
        assert_eq!(
            read("samples", None, Some(vec![f64::INFINITY]), None, Some(1)),
            None
        );
        let long = "x".repeat(1000);
        assert_eq!(
            read("error", None, None, Some(long), None),
            Some(Reply::Failed("x".repeat(MOST_MESSAGE_CHARS)))
        );
        assert_eq!(read("eval", None, None, Some("x".into()), None), None);
    }

    #[test]
    fn parts_end_where_a_cell_would_check() {
        let at = checks(200);
        assert_eq!(at[0], MIN_SAMPLES);
        assert_eq!(at.last(), Some(&200));
        assert!(at.windows(2).all(|w| w[0] < w[1]));
        assert!(at.iter().all(|&n| n == 200 || Stop::checks_at(n)), "{at:?}");
        assert_eq!(checks(12), [12], "fewer than the rule's least: one part");
        assert!(part_limit_ms(30, 1.0) >= 3_000 && part_limit_ms(1_000_000, 1e9) == 60_000);
    }

    #[test]
    fn a_hand_written_timer_is_judged_like_a_built_in_one() {
        let around = |m: f64| {
            (0..60)
                .map(|i| m + f64::from(i % 7) * 0.01)
                .collect::<Vec<_>>()
        };
        let clock = Some(ClockInfo {
            min_step_ms: 0.005,
            typical_step_ms: 0.005,
            readings: 100,
        });
        assert_eq!(
            judge(&around(1.1), clock, &around(1.1), 0.005).verdict(),
            Some(verdict::Verdict::Same)
        );
        assert_eq!(
            judge(&around(1.1), clock, &around(4.2), 0.005).verdict(),
            Some(verdict::Verdict::Slower)
        );
    }
}
