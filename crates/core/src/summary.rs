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
//! blur ([`crate::lesson`]). Each experiment declares its lessons and reads
//! its own figures of them (`lessons.rs` in its folder); this gathers them
//! and names none.

use crate::experiments::{Experiment, Registered, Visit};
use crate::key;
use crate::lesson::{Article, Pair, Reading, Taught};
use crate::schema::Report;
use crate::text::{Arg, Key, Phrase};

pub mod recipe;

pub use crate::lesson::{HOLDS_RATIO, Verdict};

/// A lesson of the article, as the experiment that measures it declares
/// it ([`Lessons`](crate::lesson::Lessons)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lesson {
    /// The experiment that measures it.
    experiment: Experiment,
    /// What it declares of it.
    taught: Taught,
}

impl Lesson {
    /// Every lesson: each experiment's, in page order.
    pub fn all() -> Vec<Lesson> {
        Experiment::ALL.into_iter().flat_map(Lesson::of).collect()
    }

    /// The lessons `experiment` measures, in order.
    pub fn of(experiment: Experiment) -> impl Iterator<Item = Lesson> {
        struct Lessons;
        impl Visit for Lessons {
            type Out = &'static [Taught];
            fn visit<E: Registered>(self) -> &'static [Taught] {
                E::LESSONS
            }
        }
        experiment
            .visit(Lessons)
            .iter()
            .map(move |&taught| Lesson { experiment, taught })
    }

    /// The lesson named `id`, if an experiment teaches it.
    pub fn by_id(id: &str) -> Option<Lesson> {
        Lesson::all().into_iter().find(|l| l.id() == id)
    }

    /// Its stable name (catalog keys `summary.lesson.ID`, test ids, the
    /// recipes' files).
    pub fn id(self) -> &'static str {
        self.taught.id
    }

    /// The experiment that measures it.
    pub fn experiment(self) -> Experiment {
        self.experiment
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
        struct ReadingOf<'a>(&'a Report, Taught);
        impl Visit for ReadingOf<'_> {
            type Out = Option<Reading>;
            fn visit<E: Registered>(self) -> Option<Reading> {
                let at = E::LESSONS.iter().position(|&t| t == self.1)?;
                let mut readings = E::of(self.0)?.readings(self.0.env.clock);
                readings.get_mut(at)?.take()
            }
        }
        self.experiment.visit(ReadingOf(report, self.taught))
    }

    /// What the article states for it: a pair, a ratio, a range, a
    /// sentence, or nothing.
    fn stated(self, report: &Report) -> Option<Stated> {
        let stated = |id: &str| report.stated.iter().find(|f| f.id.as_deref() == Some(id));
        let value = |id: &str| stated(id).and_then(|f| f.value.as_ref());
        match self.taught.article {
            Article::Nothing => None,
            Article::Range(id) => {
                let overshoot = value(id)?;
                Some(Stated::Range(overshoot.low, overshoot.high?))
            }
            Article::Said(id) => stated(id).map(|_| Stated::Said),
            Article::Pair(wrong, right) => {
                Some(Stated::Pair(Pair::ms(value(wrong)?.low, value(right)?.low)))
            }
            Article::Ratio(id) => value(id).map(|v| Stated::Ratio(v.low)),
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

/// A lesson the reader's run could not measure, as the bundled set of the
/// reader's own engine measured it (isolated, with shared memory).
#[derive(Debug, Clone, PartialEq)]
pub struct EngineAnswer {
    /// The lesson.
    pub lesson: Lesson,
    /// The set's verdict.
    pub verdict: Verdict,
    /// Why the run could not measure it, the set's name and its figures,
    /// in words.
    pub said: Phrase,
}

/// Where `run` could not measure `lesson` and lacked shared memory for a
/// way of its experiment (an embed in an ordinary page of Firefox, say),
/// the answer of the bundled engine set among `sets` that was measured
/// isolated in the run's own engine and measured the lesson; `None` where
/// the run measured it, where it had shared memory (a hidden-tab run that
/// stayed visible lacks its lesson for another reason), or where no such
/// set has it.
pub fn own_engine_answer(lesson: Lesson, run: &Report, sets: &[&Report]) -> Option<EngineAnswer> {
    if lesson.reading(run).is_some() || run.lacked_shared_memory(lesson.experiment()).is_none() {
        return None;
    }
    let engine = run.env.engine()?;
    sets.iter()
        .filter(|s| s.env.cross_origin_isolated)
        .filter(|s| s.env.is_engine() && s.env.engine() == Some(engine))
        .find_map(|set| {
            let reading = lesson.reading(set)?;
            Some(EngineAnswer {
                lesson,
                verdict: reading.verdict(set.env.clock),
                said: Phrase::new(key!("summary.engine_answer"))
                    .phrase("why", unmeasured(lesson, run))
                    .phrase("set", set.env.short_name())
                    .phrase("figures", reading.phrase(lesson.pair_key(), set.env.clock)),
            })
        })
}

/// Why `report`, a run of `lesson`'s experiment, has no figures for it:
/// the shared memory a way of it lacked in this run, or else what its
/// section says.
fn unmeasured(lesson: Lesson, report: &Report) -> Phrase {
    match report.lacked_shared_memory(lesson.experiment()) {
        Some(reason) if report.env.native.is_none() => {
            Phrase::new(key!("summary.unmeasured_shared"))
                .phrase("why", crate::outcome::reason::phrase(reason))
        }
        _ => Phrase::new(key!("summary.unmeasured")),
    }
}

#[cfg(test)]
mod tests;
