//! What an experiment gives the layers that handle every experiment
//! alike: the ways of waiting it tried ([`Tried`], each a [`Way`]), its
//! comparison rows ([`Measured`], which `compare` reads into values) and
//! its CSV lines ([`Sample`], which `export` writes). A leaf below the
//! experiments: it names none of them, and none of those layers.

use crate::outcome::Outcome;
use crate::stats::Summary;
use crate::strategies::Way;
use crate::text::Phrase;

/// One way of waiting an experiment tried, and what came of it.
pub struct Tried<'a> {
    /// Its id (the CSV's series).
    pub id: &'static str,
    /// How the page names it.
    pub label: Phrase,
    /// What it stands for in the article.
    pub analogue: Phrase,
    /// The wait it asked for, or the interval (the CSV's `requested_ms`).
    pub requested_ms: Option<u32>,
    /// What came of it.
    pub outcome: &'a Outcome,
}

impl<'a> Tried<'a> {
    /// Each of `items`, its way and outcome read by `of`, each asking for
    /// `requested_ms`.
    pub fn each<T, W: Way>(
        items: &'a [T],
        of: impl Fn(&'a T) -> (W, &'a Outcome),
        requested_ms: Option<u32>,
    ) -> Vec<Self> {
        let each = |item| {
            let (way, outcome) = of(item);
            Tried::of(way, requested_ms, outcome)
        };
        items.iter().map(each).collect()
    }

    /// `way`, asking for `requested_ms`, and what came of it.
    pub fn of(way: impl Way, requested_ms: Option<u32>, outcome: &'a Outcome) -> Self {
        Tried {
            id: way.id(),
            label: way.label(),
            analogue: way.analogue(),
            requested_ms,
            outcome,
        }
    }
}

/// One row of an experiment's table as the experiment gives it: what ran
/// and what it measured, which the experiment's columns read into values.
pub struct Measured<M> {
    /// What ran, in the source's own terms.
    pub what: Phrase,
    /// What it is the analogue of in the article.
    pub analogue: Phrase,
    /// What it measured; `None` if it has no numbers (its notes say why).
    pub measure: Option<M>,
    /// Statements and outcomes that are not numbers.
    pub notes: Vec<Phrase>,
    /// The wait a timed-waits row asked for.
    pub requested_ms: Option<u32>,
    /// The id of the way of waiting it measured, if it is one.
    pub id: Option<&'static str>,
    /// Its samples, ms, if it has a series of them.
    pub samples: Vec<f64>,
    /// Their median, ms.
    pub median_ms: Option<f64>,
    /// How far a rerun's median may lie from theirs, ms
    /// ([`Outcome::spread_ms`]).
    pub spread_ms: Option<f64>,
}

impl<M> Measured<M> {
    /// A row that measured `measure`.
    pub fn new(what: Phrase, analogue: Phrase, measure: M) -> Self {
        Measured {
            what,
            analogue,
            measure: Some(measure),
            notes: Vec::new(),
            requested_ms: None,
            id: None,
            samples: Vec::new(),
            median_ms: None,
            spread_ms: None,
        }
    }

    /// A row of a way of waiting an experiment tried: its measure read
    /// from the summary where it was measured, otherwise no numbers and
    /// the reason as a note.
    pub fn of_tried(tried: &Tried<'_>, measure: impl FnOnce(&Summary) -> M) -> Self {
        let (measure, notes, samples) = match tried.outcome {
            Outcome::Measured {
                summary,
                samples_ms,
            } => (Some(measure(summary)), Vec::new(), samples_ms.clone()),
            other => (None, other.phrase().into_iter().collect(), Vec::new()),
        };
        let median_ms = tried.outcome.summary().map(|s| s.p50);
        Measured {
            what: tried.label.clone(),
            analogue: tried.analogue.clone(),
            measure,
            notes,
            requested_ms: tried.requested_ms,
            id: Some(tried.id),
            samples,
            median_ms,
            spread_ms: tried.outcome.spread_ms(),
        }
    }
}

/// One CSV line before the environment's columns (`export::CSV_COLUMNS`).
pub struct Sample<'a> {
    /// The mechanism, strategy or mode.
    pub series: &'a str,
    /// The wait asked for, or the interval.
    pub requested_ms: Option<u32>,
    /// The sample's (or job's, call's, tick's) number.
    pub index: usize,
    /// When it happened, ms since the batch started.
    pub at_ms: Option<f64>,
    /// The sample.
    pub value_ms: f64,
}

/// One line per sample of `outcome` (none unless it was measured).
pub fn series<'a>(
    rows: &mut Vec<Sample<'a>>,
    series: &'a str,
    requested_ms: Option<u32>,
    outcome: &Outcome,
) {
    if let Outcome::Measured { samples_ms, .. } = outcome {
        rows.extend(
            samples_ms
                .iter()
                .enumerate()
                .map(|(index, &value_ms)| Sample {
                    series,
                    requested_ms,
                    index,
                    at_ms: None,
                    value_ms,
                }),
        );
    }
}
