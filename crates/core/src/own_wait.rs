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
use crate::experiments::own_way::{OtherTasks, OwnWay};
use crate::experiments::timed_waits::{CellKey, TimedWaits};
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
    /// A timed wait's calls with a task queued beside each, before its
    /// timed ones: in how many the task ran.
    OtherTasks(OtherTasks),
}

impl Reply {
    /// A reply from a message's `kind` and the fields it may carry (a
    /// count of calls in which other tasks ran, and of calls made so, in
    /// `tasks`), for a part of `asked` calls (`None` before the first):
    /// `None` for a message of no known shape or with values no run can
    /// give.
    pub fn read(
        kind: &str,
        step_ms: Option<f64>,
        samples: Option<Vec<f64>>,
        message: Option<String>,
        tasks: Option<(f64, f64)>,
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
            "tasks" => {
                let (ran_in, of) = tasks?;
                let whole =
                    |v: f64| (v.fract() == 0.0 && (0.0..=1e6).contains(&v)).then_some(v as u32);
                OtherTasks::new(whole(ran_in)?, whole(of)?).map(Reply::OtherTasks)
            }
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
/// `samples`, ms, read with a clock of `step_ms`, and whether other tasks
/// ran while it waited, if counted; `None` without any times.
pub fn timed<K>(
    code: String,
    against: K,
    (samples, step_ms): (Vec<f64>, f64),
    other_tasks: Option<OtherTasks>,
) -> Option<OwnWay<K>> {
    Some(OwnWay {
        code,
        against,
        step_ms,
        outcome: Outcome::measured(samples).ok()?,
        other_tasks,
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
    /// Whether it held its thread while it waited, as a sentence, and
    /// its id (`held`, `some`, `free`), where the sandbox counted it.
    pub held: Option<(Phrase, &'static str)>,
    /// What makes the built-in way slow, where the run shows it and the
    /// reader's way was faster: the nesting clamp on a chain of timers.
    pub reason: Option<Phrase>,
    /// Its median, ms.
    pub p50_ms: f64,
}

/// What `own`, timed beside `tw`'s cells (read with `clock`), says: of
/// the reader's code, or of a `shared` run's; `None` if it or the cell it
/// was judged against has no times.
pub fn tell_timed(
    tw: &TimedWaits,
    clock: Option<ClockInfo>,
    own: &OwnWay<CellKey>,
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
    let mut told = tell(
        cell.outcome.samples()?,
        clock,
        own,
        own.against.label(),
        said,
    )?;
    if told.verdict_id == Some(verdict::Verdict::Faster.id()) {
        told.reason = clamp_reason(tw, clock, own.against);
    }
    Some(told)
}

/// Why the built-in way `against` of `tw` (read with `clock`) is slow,
/// where the run shows it: a chain of timers held to the nesting clamp
/// (its median at the clamp, asking for less, and the run's nested chain
/// clamped from a level), which a way that is no chained timer escapes.
fn clamp_reason(tw: &TimedWaits, clock: Option<ClockInfo>, against: CellKey) -> Option<Phrase> {
    use crate::experiments::timed_waits::{Mechanism, NestedChain};
    let tolerance_ms = clock.map_or(0.1, |c| c.tolerance_ms());
    let chained = matches!(
        against.mechanism,
        Mechanism::TimeoutAwaited | Mechanism::WorkerTimeout
    );
    let asked = f64::from(against.requested_ms?);
    let p50 = tw.cells.iter().find(|c| c.key == against)?.outcome.p50()?;
    let clamped = chained
        && asked < NestedChain::CLAMP_MS - tolerance_ms
        && p50 >= NestedChain::CLAMP_MS - tolerance_ms;
    let level = tw.chain.clamp_onset(tolerance_ms)?;
    clamped.then(|| {
        Phrase::new(key!("own_way.reason.clamp"))
            .count("level", level)
            .arg("clamp", Arg::Fixed(NestedChain::CLAMP_MS, 0))
    })
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
        held: own.other_tasks.map(held),
        reason: None,
        p50_ms: summary.p50,
    })
}

/// Whether a way held its thread, as `tasks` counted it: a sentence and
/// its id. A wait that held it in every call is never told as simply
/// faster: nothing else could run meanwhile.
fn held(tasks: OtherTasks) -> (Phrase, &'static str) {
    let OtherTasks { ran_in, of } = tasks;
    let (id, key) = if ran_in == 0 {
        ("held", key!("own_way.held.all"))
    } else if ran_in == of {
        ("free", key!("own_way.held.none"))
    } else {
        ("some", key!("own_way.held.some"))
    };
    let phrase = Phrase::new(key)
        .count("of", u64::from(of))
        .count("held", u64::from(of - ran_in));
    (phrase, id)
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
        spread_ms: crate::stats::rerun_spread(samples),
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
mod tests;
