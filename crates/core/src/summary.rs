//! The answer in one list: how code should wait, one line per lesson of
//! the article, each with a run's figure beside the article's and the
//! native probe's, and a verdict on whether the lesson held.
//!
//! Every lesson is a contrast of the wrong way to wait and the right one
//! (a blocked pool against awaited timers, polling against a signal, …),
//! so a run's figure is the pair of them, read from the same results
//! every other view reads; the article states such a pair for the pool
//! (18 s against 1 s) and a ratio for the wake-up (about 50×), nothing
//! for the rest, and nothing is invented for it. The verdict is the
//! run's: the lesson holds where the wrong way took at least
//! [`HOLDS_RATIO`] times the right one's, by more than the clock can
//! blur.

use crate::clock::ClockInfo;
use crate::experiments::Experiment;
use crate::experiments::main_starvation::JobMode;
use crate::experiments::spin_ladder::SpinLadder;
use crate::key;
use crate::schema::Report;
use crate::text::{Arg, Key, Phrase};

/// How many times the right way must beat the wrong one for the lesson
/// to hold.
pub const HOLDS_RATIO: f64 = 1.5;

/// A lesson of the article, in its order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lesson {
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
    pub const ALL: [Lesson; 8] = [
        Lesson::SleepVsDelay,
        Lesson::NeverBlockMain,
        Lesson::SpinBriefly,
        Lesson::SignalDontPoll,
        Lesson::CancelThroughWait,
        Lesson::PeriodicNoDrift,
        Lesson::LimitWithSemaphore,
        Lesson::HandOffChannel,
    ];

    /// Its stable name (catalog keys `summary.lesson.ID`, test ids).
    pub fn id(self) -> &'static str {
        match self {
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

    /// The lesson in words.
    pub fn phrase(self) -> Phrase {
        Phrase::new(Key::of(&format!("summary.lesson.{}", self.id())))
    }

    /// Its pair in words: `{wrong}`, `{right}` and `{times}`.
    fn pair_key(self) -> Key {
        Key::of(&format!("summary.pair.{}", self.id()))
    }

    /// The wrong way's and the right way's figure in `report`, if it
    /// measured both.
    fn pair(self, report: &Report) -> Option<Pair> {
        let ms = |wrong: f64, right: f64| Some(Pair::ms(wrong, right));
        match self {
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
            Lesson::SpinBriefly => busy(report.spin_ladder.as_ref()?),
            Lesson::SignalDontPoll => {
                // Polling here is the article's: a sleep or a timer between
                // checks (a pure spin is the spin ladder's lesson).
                let wake = report.wake_latency.as_ref()?;
                let p50 = |polls: bool| {
                    wake.results
                        .iter()
                        .filter(|r| r.strategy.polls() == polls && !r.strategy.spins())
                        .filter_map(|r| r.outcome.summary().map(|s| s.p50))
                        .reduce(f64::min)
                };
                ms(p50(true)?, p50(false)?)
            }
            Lesson::CancelThroughWait => {
                let cancel = report.cancel_waits.as_ref()?;
                let woken = cancel
                    .results
                    .iter()
                    .filter(|r| r.strategy.wakes_on_cancel())
                    .filter_map(|r| r.outcome.summary().map(|s| s.p50))
                    .reduce(f64::min)?;
                ms(cancel.blind_p50()?, woken)
            }
            Lesson::PeriodicNoDrift => {
                let periodic = report.periodic_work.as_ref()?;
                let drift = |after_work: bool| {
                    periodic
                        .results
                        .iter()
                        .filter(|r| r.scheduler.waits_after_work() == after_work)
                        .filter_map(|r| r.drift_ms().map(f64::abs))
                        .reduce(f64::min)
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
                        .and_then(|r| r.outcome.summary().map(|s| s.p50))
                };
                ms(p50(true)?, p50(false)?)
            }
            Lesson::HandOffChannel => {
                let (_, _, woken, times) = report.producer_consumer.as_ref()?.polling_ratio()?;
                ms(woken * times, woken)
            }
        }
    }

    /// What the article states for it: a pair, a ratio, or nothing.
    fn stated(self, report: &Report) -> Option<Stated> {
        let value = |id: &str| {
            report
                .stated
                .iter()
                .find(|f| f.id.as_deref() == Some(id))
                .and_then(|f| f.value.as_ref())
                .map(|v| v.low)
        };
        match self {
            Lesson::SleepVsDelay => Some(Stated::Pair(Pair::ms(
                value("pool_sleep_batch")?,
                value("pool_delay_batch")?,
            ))),
            Lesson::SignalDontPoll => value("wake_event_ratio").map(Stated::Ratio),
            _ => None,
        }
    }
}

/// The spin-until's busy share of its core, as a percentage, without the
/// sleep stage and with it.
fn busy(ladder: &SpinLadder) -> Option<Pair> {
    let share = |sleep_stage: bool| {
        ladder
            .spin_until
            .iter()
            .find(|s| s.sleep_stage == sleep_stage)
            .map(|s| s.busy_fraction() * 100.0)
    };
    Some(Pair {
        wrong: share(false)?,
        right: share(true)?,
        percent: true,
    })
}

/// The wrong way's figure and the right way's: ms, or a percentage of a
/// core.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pair {
    /// The wrong way's.
    pub wrong: f64,
    /// The right way's.
    pub right: f64,
    /// Percentages of a core rather than ms.
    pub percent: bool,
}

impl Pair {
    fn ms(wrong: f64, right: f64) -> Pair {
        Pair {
            wrong,
            right,
            percent: false,
        }
    }

    /// How many times the right way beat the wrong one (`None` where the
    /// right way's figure is zero).
    pub fn ratio(&self) -> Option<f64> {
        (self.right > 0.0).then(|| self.wrong / self.right)
    }

    /// Whether `clock` resolves the difference (percentages always are).
    fn resolved(&self, clock: Option<ClockInfo>) -> bool {
        self.percent || clock.is_none_or(|c| c.resolves(self.wrong - self.right))
    }

    /// Whether `clock` leaves one of its figures unresolved (marked ‡).
    fn marked(&self, clock: Option<ClockInfo>) -> bool {
        !self.percent && clock.is_some_and(|c| !c.resolves(self.wrong) || !c.resolves(self.right))
    }

    /// One of its figures, marked ‡ where `clock` does not resolve it.
    fn figure(&self, value: f64, clock: Option<ClockInfo>) -> Arg {
        if self.percent {
            return Arg::Fixed(value, if value < 10.0 { 1 } else { 0 });
        }
        Arg::Ms {
            value,
            marked: clock.is_some_and(|c| !c.resolves(value)),
        }
    }

    /// The pair in words, named as `lesson` names its two ways, and how
    /// many times the right way won.
    fn phrase(&self, lesson: Lesson, clock: Option<ClockInfo>) -> Phrase {
        let times = self.ratio().map_or(Arg::Code("∞".into()), |r| {
            Arg::Fixed(r, if r < 10.0 { 1 } else { 0 })
        });
        Phrase::new(lesson.pair_key())
            .arg("wrong", self.figure(self.wrong, clock))
            .arg("right", self.figure(self.right, clock))
            .arg("times", times)
    }
}

/// What the article states for a lesson.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Stated {
    /// Both figures (approximate, as the article gives them).
    Pair(Pair),
    /// Only how many times faster the right way was (approximate).
    Ratio(f64),
}

/// Whether a run bears the lesson out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The right way won by [`HOLDS_RATIO`] or more, beyond the clock.
    Holds,
    /// It won, but by less.
    Barely,
    /// The wrong way did as well or better.
    Opposite,
    /// The clock cannot tell the two apart.
    BelowClock,
    /// Not measured (not run yet, or not in this browser).
    NotMeasured,
}

impl Verdict {
    /// Every verdict.
    pub const ALL: [Verdict; 5] = [
        Verdict::Holds,
        Verdict::Barely,
        Verdict::Opposite,
        Verdict::BelowClock,
        Verdict::NotMeasured,
    ];

    fn of(pair: Option<&Pair>, clock: Option<ClockInfo>) -> Verdict {
        let Some(pair) = pair else {
            return Verdict::NotMeasured;
        };
        if !pair.resolved(clock) {
            return Verdict::BelowClock;
        }
        match pair.ratio() {
            None => Verdict::Holds,
            Some(r) if r >= HOLDS_RATIO => Verdict::Holds,
            Some(r) if r > 1.0 => Verdict::Barely,
            Some(_) => Verdict::Opposite,
        }
    }

    /// Its stable name (test ids, styles).
    pub fn id(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::Barely => "barely",
            Verdict::Opposite => "opposite",
            Verdict::BelowClock => "below_clock",
            Verdict::NotMeasured => "not_measured",
        }
    }

    /// The verdict in a word or two.
    pub fn phrase(self) -> Phrase {
        Phrase::new(Key::of(&format!("summary.verdict.{}", self.id())))
    }
}

/// One line of the summary.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// The lesson.
    pub lesson: Lesson,
    /// Whether the run bears it out.
    pub verdict: Verdict,
    /// The run's pair in words, if it measured one.
    pub run: Option<Phrase>,
    /// The native sets' pairs in words, each with the set's name.
    pub native: Vec<Phrase>,
    /// What the article states, in words.
    pub article: Option<Phrase>,
    /// Whether a figure of the run's or a native set's is marked ‡ (under
    /// its clock's resolution).
    pub marked: bool,
}

/// The summary line of `lesson`: the run's figures (from `run`, a report
/// with that lesson's experiment, or none yet) beside those of the
/// bundled `sets` (native runs, and the article's stated figures).
pub fn line(lesson: Lesson, run: Option<&Report>, sets: &[&Report]) -> Line {
    let measured = |r: &Report| lesson.pair(r).map(|p| (p, r.env.clock));
    let mine = run.and_then(measured);
    let mut marked = mine.is_some_and(|(p, c)| p.marked(c));
    let native = sets
        .iter()
        .filter_map(|s| {
            let (pair, clock) = measured(s)?;
            marked |= pair.marked(clock);
            Some(
                Phrase::new(key!("summary.source"))
                    .phrase("source", s.env.short_name())
                    .phrase("figures", pair.phrase(lesson, clock)),
            )
        })
        .collect();
    let article = sets
        .iter()
        .find_map(|s| lesson.stated(s))
        .map(|stated| match stated {
            Stated::Pair(pair) => pair.phrase(lesson, None),
            Stated::Ratio(r) => {
                Phrase::new(key!("summary.article_ratio")).arg("times", Arg::Fixed(r, 0))
            }
        });
    Line {
        lesson,
        verdict: Verdict::of(mine.as_ref().map(|(p, _)| p), mine.and_then(|(_, c)| c)),
        run: mine.map(|(pair, clock)| pair.phrase(lesson, clock)),
        native,
        article,
        marked,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::Config;
    use crate::experiments::pool_starvation::{PoolConfig, PoolRun, PoolStarvation};
    use crate::experiments::wake_latency::{Strategy, WakeConfig, WakeLatency, WakeResult};
    use crate::outcome::Outcome;
    use crate::schema::Environment;

    fn env() -> Environment {
        Environment {
            clock: Some(ClockInfo {
                min_step_ms: 0.005,
                typical_step_ms: 0.005,
                readings: 100,
            }),
            ..Environment::test_chrome()
        }
    }

    fn pool(blocking: f64, awaiting: f64) -> Report {
        let run = |mode, batch_ms| PoolRun {
            mode,
            batch_ms,
            extra_job_wait_ms: 0.0,
            spans: Vec::new(),
        };
        let mut r = Report::new(env(), None);
        r.pool_starvation = Some(PoolStarvation {
            config: PoolConfig::for_cores(2),
            runs: vec![
                run(JobMode::Blocking, blocking),
                run(JobMode::Async, awaiting),
            ],
            blocking_sleeps: true,
        });
        r
    }

    #[test]
    fn a_lesson_holds_when_the_right_way_wins_clearly() {
        let en = crate::text::Catalog::english();
        let l = line(Lesson::SleepVsDelay, Some(&pool(3000.0, 520.0)), &[]);
        assert_eq!(l.verdict, Verdict::Holds);
        let run = en.render(l.run.as_ref().unwrap());
        assert!(
            run.contains("3,000") && run.contains("520") && run.contains("5.8×"),
            "{run}"
        );
        assert_eq!(
            line(Lesson::SleepVsDelay, Some(&pool(600.0, 520.0)), &[]).verdict,
            Verdict::Barely
        );
        assert_eq!(
            line(Lesson::SleepVsDelay, Some(&pool(500.0, 520.0)), &[]).verdict,
            Verdict::Opposite
        );
        assert_eq!(
            line(Lesson::SleepVsDelay, None, &[]).verdict,
            Verdict::NotMeasured
        );
        // Waits the clock cannot tell apart are no verdict either way.
        let blurred = line(Lesson::SleepVsDelay, Some(&pool(0.05, 0.01)), &[]);
        assert_eq!(blurred.verdict, Verdict::BelowClock);
        assert!(blurred.marked && !l.marked);
    }

    #[test]
    fn every_lesson_has_its_words_and_an_experiment() {
        let en = crate::text::Catalog::english();
        let mut experiments: Vec<Experiment> = Vec::new();
        for lesson in Lesson::ALL {
            assert!(!en.render(&lesson.phrase()).contains('⟦'), "{lesson:?}");
            let pair = Pair::ms(2.0, 1.0).phrase(lesson, None);
            assert!(!en.render(&pair).contains('⟦'), "{lesson:?}");
            assert!(!experiments.contains(&lesson.experiment()));
            experiments.push(lesson.experiment());
        }
        for v in Verdict::ALL {
            assert!(!en.render(&v.phrase()).contains('⟦'), "{v:?}");
        }
    }

    /// The article's figures come from its stated set, never from a
    /// browser run; a measured set stands beside the run under its name.
    #[test]
    fn sets_add_the_article_and_native_figures() {
        let json = include_str!("../../../www/data/native/dotnet10-article-apple-m4.json");
        let article = Report::from_json(json).unwrap();
        let en = crate::text::Catalog::english();
        let l = line(
            Lesson::SleepVsDelay,
            Some(&pool(3000.0, 520.0)),
            &[&article],
        );
        let stated = en.render(l.article.as_ref().unwrap());
        assert!(
            stated.contains("18,000") && stated.contains("18×"),
            "{stated}"
        );
        let wake = line(Lesson::SignalDontPoll, None, &[&article]);
        assert!(en.render(wake.article.as_ref().unwrap()).contains("50×"));
        assert_eq!(wake.verdict, Verdict::NotMeasured);
        let native_json = include_str!("../../../www/data/native/rust-linux-x86_64.json");
        let native = Report::from_json(native_json).unwrap();
        let l = line(Lesson::SleepVsDelay, None, &[&native, &article]);
        assert_eq!(l.native.len(), 1);
        assert!(
            en.render(&l.native[0]).contains("Rust"),
            "{}",
            en.render(&l.native[0])
        );
        let mut wake_run = Report::new(env(), None);
        wake_run.wake_latency = Some(WakeLatency {
            config: WakeConfig::default(),
            skew_ms: Some(0.0),
            results: vec![
                WakeResult {
                    strategy: Strategy::SleepPoll,
                    outcome: Outcome::measured(vec![1.1, 1.2, 1.3]).unwrap(),
                },
                WakeResult {
                    strategy: Strategy::Event,
                    outcome: Outcome::measured(vec![0.05, 0.06, 0.07]).unwrap(),
                },
            ],
        });
        let l = line(Lesson::SignalDontPoll, Some(&wake_run), &[&article]);
        assert_eq!(l.verdict, Verdict::Holds);
    }
}
