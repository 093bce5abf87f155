//! `use_own_ways`: a reader's own way of waiting, kept while experiment
//! 1's results come and go: the code in its editor (a link's, until the
//! reader edits it), and its latest timed run, which that run's link and
//! embed carry.

use leptos::prelude::*;
use waitlab_core::experiments::timed_waits::OwnWay;
use waitlab_core::schema::Report;
use waitlab_core::stats::Summary;

/// What [`use_own_ways`] returns; provided by the page.
#[derive(Debug, Clone, Copy)]
pub struct OwnWays {
    /// The code in the editor; `None`: the recipe.
    pub code: RwSignal<Option<String>>,
    /// Whether that code came from a link (not yet edited here).
    pub from_link: RwSignal<bool>,
    /// The latest timed run here, and the summary of the built-in cell it
    /// was judged against (which tells the run it belongs to).
    timed: RwSignal<Option<(Summary, OwnWay)>>,
}

impl OwnWays {
    /// Keeps `way`, timed against `against`, for the run that has it.
    pub fn keep(&self, against: Summary, way: OwnWay) {
        self.timed.set(Some((against, way)));
    }

    /// Forgets the timed run (its results left the page).
    pub fn forget(&self) {
        self.timed.try_set(None);
    }

    /// Offers the code a shared run carries as the editor's, unless the
    /// reader has code of their own there.
    pub fn offer(&self, way: &OwnWay) {
        if self.code.with_untracked(Option::is_none) {
            self.code.set(Some(way.code.clone()));
            self.from_link.set(true);
        }
    }

    /// `report` with the way timed beside its experiment 1, if that is
    /// this browser's run the way was judged against (tracked).
    pub fn attach(&self, mut report: Report) -> Report {
        if let Some(tw) = report.timed_waits.as_mut().filter(|_| !report.from_link) {
            self.timed.with(|timed| {
                if let Some((against, way)) = timed {
                    let same = tw
                        .cells
                        .iter()
                        .any(|c| c.key == way.against && c.outcome.summary() == Some(against));
                    if same {
                        tw.own = Some(way.clone());
                    }
                }
            });
        }
        report
    }
}

/// The page's own ways: none yet.
pub fn use_own_ways() -> OwnWays {
    OwnWays {
        code: RwSignal::new(None),
        from_link: RwSignal::new(false),
        timed: RwSignal::new(None),
    }
}
