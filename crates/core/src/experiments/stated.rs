//! Figures a source (the article) states rather than waitlab measures:
//! what they are of, in the source's words, and the column a number fills.

use super::Experiment;
use crate::text::{Key, Phrase};
use serde::{Deserialize, Serialize};

/// A figure stated by a source (the article) rather than measured here.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StatedFigure {
    /// A stable name for its words in the page's catalogs
    /// (`stated.ID.what`, `.analogue`, `.quote`), which read it in the
    /// reader's language; without one (or without those entries) the page
    /// shows the source's own words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The experiment it belongs to.
    pub experiment: Experiment,
    /// What was measured, in the source's terms.
    pub what: String,
    /// What it corresponds to in the article's vocabulary.
    pub analogue: String,
    /// The number, if the statement has one (`None` for a fact such as
    /// "completes synchronously").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<StatedValue>,
    /// The statement, in a sentence.
    pub quote: String,
}

impl StatedFigure {
    /// One of its texts: the catalog's words for it where it has an id,
    /// the source's otherwise.
    fn text(&self, part: &str, own: &str) -> Phrase {
        match &self.id {
            Some(id) => Phrase::new(Key::of(&format!("stated.{id}.{part}"))).data("fallback", own),
            None => Phrase::written(own),
        }
    }

    /// Its subject.
    pub fn what_phrase(&self) -> Phrase {
        self.text("what", &self.what)
    }

    /// Its .NET construct.
    pub fn analogue_phrase(&self) -> Phrase {
        self.text("analogue", &self.analogue)
    }

    /// The statement.
    pub fn quote_phrase(&self) -> Phrase {
        self.text("quote", &self.quote)
    }
}

/// The number of a stated figure, in its column's unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StatedValue {
    /// The column it fills ([`Spec::id`](super::Spec::id)).
    pub column: String,
    /// The value, or the low end of a stated range.
    pub low: f64,
    /// The high end of a stated range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub high: Option<f64>,
    /// Whether the source gives it as approximate ("about 50×").
    #[serde(default)]
    pub approximate: bool,
}
