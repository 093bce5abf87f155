//! A reader's own way of waiting (experiment 1's timed wait, experiment
//! 4's waiter and setter): what the page sends the sandbox that runs it
//! (`www/own-wait.js`) and what it accepts back, the counts at which it
//! looks under the sampling rule of waitlab's own cells, the time each
//! part may take, and the verdict against a built-in way.
//!
//! The sandbox is another origin's page (an opaque one): nothing it says
//! is trusted. A reply is read from its parts ([`Reply::read`]) and
//! refused unless it is one of three shapes with sane values.

use crate::clock::ClockInfo;
use crate::compare::verdict::{self, Judged};
use crate::compare::{Group, Origin, Row};
use crate::experiments::own_way::OwnWay;
use crate::experiments::timed_waits::TimedWaits;
use crate::experiments::wake_latency::WakeLatency;
use crate::key;
use crate::outcome::Outcome;
use crate::sampling::{MIN_SAMPLES, Stop};
use crate::text::{Arg, Phrase};

/// The most characters of an error message the page shows.
pub const MOST_MESSAGE_CHARS: usize = 300;
/// How long the sandbox may take to start the code, ms.
pub const START_LIMIT_MS: u32 = 5_000;

/// What a reader's code is, and so what the sandbox makes of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Experiment 1's: an async function of the wait in ms, called in one
    /// chain of calls.
    Timed,
    /// Experiment 4's: an object of a `wait` and a `wake`, each called in
    /// a worker of its own with its end of a `MessageChannel`; the setter
    /// wakes after a random 0 to the run's largest delay ms, as the
    /// built-in setter does.
    Wake,
}

impl Kind {
    /// Its name in the sandbox's start message.
    pub fn id(self) -> &'static str {
        match self {
            Kind::Timed => "timed",
            Kind::Wake => "wake",
        }
    }

    /// The code a reader starts from: a timed wait as `setTimeout` gives
    /// it, written by hand (the built-in `await setTimeout(ms)` cell's
    /// twin); a waiter woken by a message on a `MessageChannel` (the
    /// built-in `postMessage` way's twin).
    pub fn recipe(self) -> &'static str {
        match self {
            Kind::Timed => {
                "async (ms) => {\n  await new Promise((resolve) => setTimeout(resolve, ms));\n}"
            }
            Kind::Wake => concat!(
                "({\n",
                "  // In the waiter's worker: a promise that resolves once woken.\n",
                "  // `port` is its end of a MessageChannel to the setter's worker.\n",
                "  wait: (port) => new Promise((resolve) => { port.onmessage = resolve; }),\n",
                "  // In the setter's worker, once its flag is up: wake the waiter.\n",
                "  wake: (port) => port.postMessage(0),\n",
                "})"
            ),
        }
    }
}

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

/// The way `code` as a report keeps it, once timed against `against`:
/// `samples`, ms, read with a clock of `step_ms`; `None` without any.
pub fn timed<K>(code: String, against: K, samples: Vec<f64>, step_ms: f64) -> Option<OwnWay<K>> {
    Some(OwnWay {
        code,
        against,
        step_ms,
        outcome: Outcome::measured(samples).ok()?,
    })
}

/// What a timed way says, in the reader's words.
#[derive(Debug, Clone, PartialEq)]
pub struct Told {
    /// Its calls, the wait asked for and its median and p90.
    pub said: Phrase,
    /// Its verdict against the cell it was judged against, as a sentence.
    pub verdict: Phrase,
    /// The test's figures behind the verdict, a line each.
    pub figures: Vec<Phrase>,
    /// The verdict's id (`faster`, `same`, …), if there is one.
    pub verdict_id: Option<&'static str>,
    /// Its median, ms.
    pub p50_ms: f64,
}

/// What `own`, timed beside `tw`'s cells (read with `clock`), says: of
/// the reader's code, or of a `shared` run's; `None` if it or the cell it
/// was judged against has no times.
pub fn tell_timed(
    tw: &TimedWaits,
    clock: Option<ClockInfo>,
    own: &OwnWay<crate::experiments::timed_waits::CellKey>,
    shared: bool,
) -> Option<Told> {
    let cell = tw.cells.iter().find(|c| c.key == own.against)?;
    let said = Phrase::new(if shared {
        key!("timed_waits.own.shared_result")
    } else {
        key!("timed_waits.own.result")
    })
    .arg(
        "ms",
        Arg::Fixed(f64::from(own.against.requested_ms.unwrap_or(0)), 0),
    );
    tell(
        cell.outcome.samples()?,
        clock,
        own,
        own.against.label(),
        said,
    )
}

/// What `own`, a pair timed beside `wake`'s ways (read with `clock`),
/// says, as [`tell_timed`] does.
pub fn tell_wake(
    wake: &WakeLatency,
    clock: Option<ClockInfo>,
    own: &OwnWay<crate::experiments::wake_latency::Strategy>,
    shared: bool,
) -> Option<Told> {
    let way = wake.results.iter().find(|r| r.strategy == own.against)?;
    let said = Phrase::new(if shared {
        key!("wake_latency.own.shared_result")
    } else {
        key!("wake_latency.own.result")
    });
    tell(
        way.outcome.samples()?,
        clock,
        own,
        own.against.label(),
        said,
    )
}

/// `said` (its other arguments in) with the count, median and p90 of
/// `own`'s times, and its verdict against `builtin` (read with `clock`),
/// the way named `against`.
fn tell<K>(
    builtin: &[f64],
    clock: Option<ClockInfo>,
    own: &OwnWay<K>,
    against: Phrase,
    said: Phrase,
) -> Option<Told> {
    let (samples, summary) = (own.outcome.samples()?, own.outcome.summary()?);
    let judged = judge(builtin, clock, samples, own.step_ms);
    let (verdict, figures) = judged.phrases(&against);
    let own_clock = ClockInfo {
        min_step_ms: own.step_ms,
        typical_step_ms: own.step_ms,
        readings: summary.n,
    };
    let marked = |v: f64| Arg::ms_on(v, Some(own_clock));
    Some(Told {
        said: said
            .count("n", u64::from(summary.n))
            .arg("p50", marked(summary.p50))
            .arg("p90", marked(summary.p90)),
        verdict,
        figures,
        verdict_id: judged.verdict().map(|v| v.id()),
        p50_ms: summary.p50,
    })
}

/// The reader's way (`own`, read with a clock of `own_step_ms`) against a
/// built-in one (`builtin`, read with `clock`): the same test as every
/// comparison's ([`verdict::judge`]).
fn judge(builtin: &[f64], clock: Option<ClockInfo>, own: &[f64], own_step_ms: f64) -> Judged {
    let row = |samples: &[f64]| Row {
        what: Phrase::new(key!("own_way.yours")),
        analogue: Phrase::new(key!("own_way.yours")),
        values: Vec::new(),
        notes: Vec::new(),
        requested_ms: None,
        id: Some("own"),
        samples: samples.to_vec(),
        median_ms: None,
    };
    let group = |samples: &[f64], clock: Option<ClockInfo>| Group {
        source: Phrase::new(key!("own_way.yours")),
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
    use crate::experiments::own_way::MOST_CODE_CHARS;
    use crate::experiments::timed_waits::CellKey;

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

    /// A real browser run of experiment 1 (the golden file) whose
    /// back-to-back `setTimeout(1)` took 60 times, with a way of `code`
    /// timed against it: that cell's own times.
    fn shared(code: &str) -> (TimedWaits, Option<ClockInfo>) {
        let report =
            crate::schema::Report::from_json(include_str!("../tests/data/report_v1.json")).unwrap();
        let mut tw = report.timed_waits.expect("the set has experiment 1");
        let against = CellKey {
            mechanism: crate::experiments::timed_waits::Mechanism::TimeoutAwaited,
            requested_ms: Some(1),
        };
        let samples: Vec<f64> = (0..60).map(|i| 1.1 + f64::from(i % 7) * 0.013).collect();
        tw.config.samples = 60;
        let builtin = tw.cells.iter_mut().find(|c| c.key == against).unwrap();
        builtin.outcome = Outcome::measured(samples.clone()).unwrap();
        tw.own = timed(code.to_owned(), against, samples, 0.005).map(std::sync::Arc::new);
        (tw, report.env.clock)
    }

    /// The golden run's report holding `tw`.
    fn with(tw: TimedWaits, clock: Option<ClockInfo>) -> crate::schema::Report {
        let mut report =
            crate::schema::Report::from_json(include_str!("../tests/data/report_v1.json")).unwrap();
        assert_eq!(report.env.clock, clock);
        report.timed_waits = Some(tw);
        report
    }

    #[test]
    fn a_way_travels_in_a_link_with_its_code_and_verdict() {
        let code = "async (ms) => {\n  await new Promise((r) => setTimeout(r, ms)); // <b>x</b>\n}";
        let (tw, clock) = shared(code);
        let told = tell_timed(&tw, clock, tw.own.as_ref().unwrap(), false).unwrap();
        assert_eq!(told.verdict_id, Some("same"), "a cell's own times");
        let report = with(tw.clone(), clock);
        let back = crate::link::decode_body(&crate::link::encode_body(&report)).unwrap();
        let way = back.timed_waits.as_ref().unwrap().own.as_ref().unwrap();
        assert_eq!(way.code, code, "code comes back whole, as text");
        assert_eq!(way.against, tw.own.as_ref().unwrap().against);
        let read = tell_timed(back.timed_waits.as_ref().unwrap(), clock, way, true).unwrap();
        assert_eq!(read.verdict_id, Some("same"), "sketches of one series");
        // The longest code a way holds fits a link; a longer one is cut.
        let mut long = report.clone();
        let way = long.timed_waits.as_mut().unwrap().own.as_mut().unwrap();
        std::sync::Arc::make_mut(way).code = "é".repeat(MOST_CODE_CHARS + 5);
        let back = crate::link::decode_body(&crate::link::encode_body(&long)).unwrap();
        let code = &back.timed_waits.unwrap().own.unwrap().code;
        assert_eq!(code.chars().count(), MOST_CODE_CHARS);
        // A run without a way writes the link it wrote before ways came.
        let mut plain = report.clone();
        plain.timed_waits.as_mut().unwrap().own = None;
        let body = crate::link::encode_body(&plain);
        assert!(body.len() < crate::link::encode_body(&report).len());
        // What the recipe and its 60 times add to a link, as the page
        // makes one (deflated, base64url).
        let link = |r: &crate::schema::Report| {
            let body = crate::link::encode_body(r);
            crate::link::wrap(&miniz_oxide::deflate::compress_to_vec(&body, 10)).len()
        };
        let added = link(&report) - link(&plain);
        println!("a timed way adds {added} characters to a link");
        assert!(added < 600, "{added} characters");
        assert_eq!(
            crate::link::decode_body(&body)
                .unwrap()
                .timed_waits
                .unwrap()
                .own,
            None
        );
    }

    #[test]
    fn a_way_against_no_cell_of_its_run_is_damage() {
        let (mut tw, clock) = shared(Kind::Timed.recipe());
        std::sync::Arc::make_mut(tw.own.as_mut().unwrap())
            .against
            .requested_ms = Some(7);
        let report = with(tw, clock);
        let body = crate::link::encode_body(&report);
        assert!(matches!(
            crate::link::decode_body(&body),
            Err(crate::link::LinkError::Damaged(_))
        ));
    }

    #[test]
    fn a_pair_travels_in_a_link_with_its_verdict_and_old_links_still_read() {
        use crate::experiments::wake_latency::{Strategy, WakeConfig, WakeLatency, WakeResult};
        let times = |m: f64| {
            (0..100)
                .map(|i| m + f64::from(i % 9) * 0.004)
                .collect::<Vec<_>>()
        };
        let way = |strategy, m| WakeResult {
            strategy,
            outcome: Outcome::measured(times(m)).unwrap(),
        };
        let mut wake = WakeLatency {
            config: WakeConfig::default(),
            skew_ms: Some(0.002),
            results: vec![way(Strategy::Event, 0.05), way(Strategy::PostMessage, 0.12)],
            own: None,
        };
        let (_, clock) = shared(Kind::Timed.recipe());
        let mut report = with(shared(Kind::Timed.recipe()).0, clock);
        report.wake_latency = Some(wake.clone());
        let body = crate::link::encode_body(&report);
        let pair = timed(
            Kind::Wake.recipe().to_owned(),
            Strategy::PostMessage,
            times(0.12),
            0.005,
        );
        wake.own = pair.map(std::sync::Arc::new);
        let told = tell_wake(&wake, clock, wake.own.as_ref().unwrap(), false).unwrap();
        assert_eq!(told.verdict_id, Some("same"));
        report.wake_latency = Some(wake);
        let with_pair = crate::link::encode_body(&report);
        assert!(
            with_pair.starts_with(&body[..body.len() / 2]) && with_pair.len() > body.len(),
            "a run without a pair writes what it wrote before pairs came"
        );
        let back = crate::link::decode_body(&with_pair).unwrap();
        let wake = back.wake_latency.unwrap();
        let pair = wake.own.as_ref().unwrap();
        assert_eq!(pair.code, Kind::Wake.recipe());
        assert_eq!(pair.against, Strategy::PostMessage);
        let read = tell_wake(&wake, clock, pair, true).unwrap();
        assert_eq!(read.verdict_id, Some("same"));
        assert_eq!(
            crate::link::decode_body(&body)
                .unwrap()
                .wake_latency
                .unwrap()
                .own,
            None
        );
    }
}
