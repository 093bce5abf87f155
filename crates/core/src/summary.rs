//! The answer in one list: how code should wait, one line per lesson of
//! the article, each with a run's figure beside the article's and the
//! native probe's, a verdict on whether the lesson held, and the code to
//! write ([`recipe`]).
//!
//! Most lessons are a contrast of the wrong way to wait and the right one
//! (a blocked pool against awaited timers, polling against a signal, …),
//! so a run's figure is the pair of them, read from the same results
//! every other view reads; the article states such a pair for the pool
//! (18 s against 1 s) and a ratio for the wake-up (about 50×), a range
//! for the overshoot of a timed wait, and nothing for the rest, and
//! nothing is invented for it. The verdict is the run's: a contrast holds
//! where the wrong way took at least [`HOLDS_RATIO`] times the right
//! one's, by more than the clock can blur; a timed wait's lesson holds
//! where no wait ended early and the overshoot is more than the clock's
//! blur (`figures`).

use crate::experiments::Experiment;
use crate::experiments::JobMode;
use crate::experiments::timed_waits::{Mechanism, TimedWaits};
use crate::key;
use crate::schema::Report;
use crate::text::{Arg, Key, Phrase};

mod figures;
pub mod recipe;
mod verdict;

use figures::{Minimum, Pair, Reading, busy};
pub use verdict::{HOLDS_RATIO, Verdict};

/// A lesson of the article, in its order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lesson {
    /// A timed wait is a minimum, not a promise (1).
    TimedWaitMinimum,
    /// Awaiting something already done does not yield (1).
    AwaitDoneNoYield,
    /// Thread.Sleep holds its thread; await Task.Delay frees it (2b).
    SleepVsDelay,
    /// Never block the UI thread (2a).
    NeverBlockMain,
    /// Spin only briefly, then sleep (3).
    SpinBriefly,
    /// Signal, don't poll (4).
    SignalDontPoll,
    /// Cancel through the wait, not after it (6).
    CancelThroughWait,
    /// A periodic timer does not drift; a delay loop does (7).
    PeriodicNoDrift,
    /// Limit concurrency with a semaphore, not a polled counter (8).
    LimitWithSemaphore,
    /// Hand work off through a channel, not a polled queue (9).
    HandOffChannel,
}

impl Lesson {
    /// Every lesson, in the article's order.
    pub const ALL: [Lesson; 10] = [
        Lesson::TimedWaitMinimum,
        Lesson::AwaitDoneNoYield,
        Lesson::SleepVsDelay,
        Lesson::NeverBlockMain,
        Lesson::SpinBriefly,
        Lesson::SignalDontPoll,
        Lesson::CancelThroughWait,
        Lesson::PeriodicNoDrift,
        Lesson::LimitWithSemaphore,
        Lesson::HandOffChannel,
    ];

    /// Its stable name (catalog keys `summary.lesson.ID`, test ids, the
    /// recipes' files).
    pub fn id(self) -> &'static str {
        match self {
            Lesson::TimedWaitMinimum => "timed_wait_minimum",
            Lesson::AwaitDoneNoYield => "await_done_no_yield",
            Lesson::SleepVsDelay => "sleep_vs_delay",
            Lesson::NeverBlockMain => "never_block_main",
            Lesson::SpinBriefly => "spin_briefly",
            Lesson::SignalDontPoll => "signal_dont_poll",
            Lesson::CancelThroughWait => "cancel_through_wait",
            Lesson::PeriodicNoDrift => "periodic_no_drift",
            Lesson::LimitWithSemaphore => "limit_with_semaphore",
            Lesson::HandOffChannel => "hand_off_channel",
        }
    }

    /// The experiment that measures it.
    pub fn experiment(self) -> Experiment {
        match self {
            Lesson::TimedWaitMinimum | Lesson::AwaitDoneNoYield => Experiment::TimedWaits,
            Lesson::SleepVsDelay => Experiment::PoolStarvation,
            Lesson::NeverBlockMain => Experiment::MainStarvation,
            Lesson::SpinBriefly => Experiment::SpinLadder,
            Lesson::SignalDontPoll => Experiment::WakeLatency,
            Lesson::CancelThroughWait => Experiment::CancelWaits,
            Lesson::PeriodicNoDrift => Experiment::PeriodicWork,
            Lesson::LimitWithSemaphore => Experiment::ConcurrencyLimit,
            Lesson::HandOffChannel => Experiment::ProducerConsumer,
        }
    }

    /// The lessons `experiment` measures, in order.
    pub fn of(experiment: Experiment) -> impl Iterator<Item = Lesson> {
        Lesson::ALL
            .into_iter()
            .filter(move |l| l.experiment() == experiment)
    }

    /// The lesson in words.
    pub fn phrase(self) -> Phrase {
        Phrase::new(Key::of(&format!("summary.lesson.{}", self.id())))
    }

    /// Its figures in words: `{wrong}`, `{right}` and `{times}` for a
    /// contrast, `{d}` and `{took}` for a timed wait.
    fn pair_key(self) -> Key {
        Key::of(&format!("summary.pair.{}", self.id()))
    }

    /// What `report` measured of it, if it measured both ways.
    fn reading(self, report: &Report) -> Option<Reading> {
        let ms = |wrong: f64, right: f64| Some(Reading::Pair(Pair::ms(wrong, right)));
        match self {
            Lesson::TimedWaitMinimum => {
                Minimum::of(report.timed_waits.as_ref()?, report.env.clock).map(Reading::Minimum)
            }
            Lesson::AwaitDoneNoYield => no_yield(report.timed_waits.as_ref()?).map(Reading::Pair),
            Lesson::SleepVsDelay => {
                let pool = report.pool_starvation.as_ref()?;
                let batch = |mode| {
                    pool.runs
                        .iter()
                        .find(|r| r.mode == mode)
                        .map(|r| r.batch_ms)
                };
                ms(batch(JobMode::Blocking)?, batch(JobMode::Async)?)
            }
            Lesson::NeverBlockMain => {
                let main = report.main_starvation.as_ref()?;
                let gap = |mode| {
                    main.runs
                        .iter()
                        .find(|r| r.mode == mode)
                        .map(|r| r.longest_frame_gap())
                };
                ms(gap(JobMode::Blocking)?, gap(JobMode::Async)?)
            }
            Lesson::SpinBriefly => busy(report.spin_ladder.as_ref()?).map(Reading::Pair),
            Lesson::SignalDontPoll => {
                // Polling here is the article's: a sleep or a timer between
                // checks (a pure spin is the spin ladder's lesson).
                let wake = report.wake_latency.as_ref()?;
                let p50 = |polls: bool| {
                    least(wake.results.iter().filter_map(|r| {
                        (r.strategy.polls() == polls && !r.strategy.spins())
                            .then(|| r.outcome.p50())?
                    }))
                };
                ms(p50(true)?, p50(false)?)
            }
            Lesson::CancelThroughWait => {
                let cancel = report.cancel_waits.as_ref()?;
                let woken = least(
                    cancel
                        .results
                        .iter()
                        .filter_map(|r| r.strategy.wakes_on_cancel().then(|| r.outcome.p50())?),
                )?;
                ms(cancel.blind_p50()?, woken)
            }
            Lesson::PeriodicNoDrift => {
                let periodic = report.periodic_work.as_ref()?;
                let drift = |after_work: bool| {
                    least(periodic.results.iter().filter_map(|r| {
                        (r.scheduler.waits_after_work() == after_work)
                            .then(|| r.drift_ms().map(f64::abs))?
                    }))
                };
                ms(drift(true)?, drift(false)?)
            }
            Lesson::LimitWithSemaphore => {
                let limit = report.concurrency_limit.as_ref()?;
                let p50 = |polls: bool| {
                    limit
                        .runs
                        .iter()
                        .find(|r| r.gate.polls() == polls)
                        .and_then(|r| r.outcome.p50())
                };
                ms(p50(true)?, p50(false)?)
            }
            Lesson::HandOffChannel => {
                let (_, _, woken, times) = report.producer_consumer.as_ref()?.polling_ratio()?;
                ms(woken * times, woken)
            }
        }
    }

    /// What the article states for it: a pair, a ratio, a range, a
    /// sentence, or nothing.
    fn stated(self, report: &Report) -> Option<Stated> {
        let stated = |id: &str| report.stated.iter().find(|f| f.id.as_deref() == Some(id));
        let value = |id: &str| stated(id).and_then(|f| f.value.as_ref());
        match self {
            Lesson::TimedWaitMinimum => {
                let overshoot = value("sleep_delay_overshoot")?;
                Some(Stated::Range(overshoot.low, overshoot.high?))
            }
            Lesson::AwaitDoneNoYield => stated("delay_zero").map(|_| Stated::Said),
            Lesson::SleepVsDelay => Some(Stated::Pair(Pair::ms(
                value("pool_sleep_batch")?.low,
                value("pool_delay_batch")?.low,
            ))),
            Lesson::SignalDontPoll => value("wake_event_ratio").map(|v| Stated::Ratio(v.low)),
            _ => None,
        }
    }

    /// What the article states, in words.
    fn stated_phrase(self, stated: Stated) -> Phrase {
        match stated {
            Stated::Pair(pair) => Reading::Pair(pair).phrase(self.pair_key(), None),
            Stated::Ratio(r) => {
                Phrase::new(key!("summary.article_ratio")).arg("times", Arg::Fixed(r, 0))
            }
            Stated::Range(low, high) => Phrase::new(key!("summary.article_overshoot"))
                .arg("low", Arg::Fixed(low, 1))
                .arg("high", Arg::Fixed(high, 1)),
            Stated::Said => Phrase::new(key!("summary.article_delay_zero")),
        }
    }
}

/// The least of the figures there are, if any.
fn least(figures: impl Iterator<Item = f64>) -> Option<f64> {
    figures.reduce(f64::min)
}

/// The resolved-promise await against the quickest real yield of
/// `timed`, as a contrast whose "wrong" way is the yield: an await that
/// returns at once has let nothing else run.
fn no_yield(timed: &TimedWaits) -> Option<Pair> {
    let p50 = |m: Mechanism| {
        timed
            .cells
            .iter()
            .find(|c| c.key.mechanism == m)
            .and_then(|c| c.outcome.summary())
            .map(|s| s.p50)
    };
    let resolved = p50(Mechanism::ResolvedPromise)?;
    let (way, yielded) = [
        Mechanism::MessageChannel,
        Mechanism::SchedulerYield,
        Mechanism::SchedulerPostTask,
    ]
    .into_iter()
    .filter_map(|m| Some((m, p50(m)?)))
    .min_by(|a, b| a.1.total_cmp(&b.1))?;
    Some(Pair::ms(yielded, resolved).way(way.label()))
}

/// The spin-vs-wake crossover on this machine: a signalled wake-up's
/// median in `wake` (experiment 4), the longest wait worth spinning for.
pub fn crossover(wake: &Report) -> Option<Phrase> {
    let Reading::Pair(pair) = Lesson::SignalDontPoll.reading(wake)? else {
        return None;
    };
    Some(Phrase::new(key!("recipe.crossover")).arg("wake", pair.figure(pair.right, wake.env.clock)))
}

/// What the article states for a lesson.
#[derive(Debug, Clone, PartialEq)]
enum Stated {
    /// Both figures (approximate, as the article gives them).
    Pair(Pair),
    /// Only how many times faster the right way was (approximate).
    Ratio(f64),
    /// A range of overshoots, in ms.
    Range(f64, f64),
    /// A finding without a figure.
    Said,
}

/// What became of a lesson's experiment in this browser.
#[derive(Debug, Clone, Copy)]
pub enum Ran<'a> {
    /// Nothing yet.
    NotYet,
    /// It ran, and this is its report (of this browser, or from a link).
    Report(&'a Report),
    /// It could not run here, for this reason (what its section says).
    Refused(&'a Phrase),
}

/// One line of the summary.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// The lesson.
    pub lesson: Lesson,
    /// Whether the run bears it out.
    pub verdict: Verdict,
    /// The run's figures in words, if it measured them.
    pub run: Option<Phrase>,
    /// Why not, where its experiment ran here and could not measure them.
    pub why: Option<Phrase>,
    /// The native sets' figures in words, each with the set's name.
    pub native: Vec<Phrase>,
    /// What the article states, in words.
    pub article: Option<Phrase>,
    /// Whether a figure of the run's or a native set's is marked ‡ (under
    /// its clock's resolution).
    pub marked: bool,
}

/// The summary line of `lesson`: the run's figures (from `ran`, its
/// experiment's fate here) beside those of the bundled `sets` (native
/// runs, and the article's stated figures).
pub fn line(lesson: Lesson, ran: Ran<'_>, sets: &[&Report]) -> Line {
    let measured = |r: &Report| lesson.reading(r).map(|p| (p, r.env.clock));
    let run = match ran {
        Ran::Report(r) => Some(r),
        _ => None,
    };
    let mine = run.and_then(measured);
    let mut marked = mine.as_ref().is_some_and(|(p, c)| p.marked(*c));
    let native = sets
        .iter()
        .filter_map(|s| {
            let (reading, clock) = measured(s)?;
            marked |= reading.marked(clock);
            Some(
                Phrase::new(key!("summary.source"))
                    .phrase("source", s.env.short_name())
                    .phrase("figures", reading.phrase(lesson.pair_key(), clock)),
            )
        })
        .collect();
    let article = sets
        .iter()
        .find_map(|s| lesson.stated(s))
        .map(|stated| lesson.stated_phrase(stated));
    let (verdict, why) = match (&mine, ran) {
        (Some((reading, clock)), _) => (reading.verdict(*clock), None),
        (None, Ran::NotYet) => (Verdict::NotMeasured, None),
        (None, Ran::Refused(why)) => (Verdict::Unavailable, Some(why.clone())),
        (None, Ran::Report(r)) => (Verdict::Unavailable, Some(unmeasured(lesson, r))),
    };
    Line {
        lesson,
        verdict,
        run: mine.map(|(reading, clock)| reading.phrase(lesson.pair_key(), clock)),
        why,
        native,
        article,
        marked,
    }
}

/// Why `report`, a run of `lesson`'s experiment, has no figures for it:
/// the ways it could not measure without shared memory, or (where the
/// page had it) what its section says.
fn unmeasured(lesson: Lesson, report: &Report) -> Phrase {
    use crate::shared_memory::{Lacks, lacks};
    if report.env.native.is_some() || lacks(lesson.experiment()) == Lacks::Nothing {
        return Phrase::new(key!("summary.unmeasured"));
    }
    let reason = if report.env.cross_origin_isolated {
        crate::outcome::reason::NO_SHARED_ARRAY_BUFFER
    } else {
        crate::outcome::reason::NOT_ISOLATED
    };
    Phrase::new(key!("summary.unmeasured_shared"))
        .phrase("why", crate::outcome::reason::phrase(reason))
}

#[cfg(test)]
mod tests;
