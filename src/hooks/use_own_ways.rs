//! A reader's own ways of waiting, kept while results come and go
//! ([`OwnWays`], part of [`LinkedRuns`](super::LinkedRuns)): for each
//! experiment that takes one, the code in its editor (a link's, until
//! the reader edits it), and its latest timed run, which that run's link
//! and embed carry.

use leptos::prelude::*;
use std::sync::Arc;
use waitlab_core::experiments::own_way::OwnWay;
use waitlab_core::stats::Summary;

/// What [`OwnWays`] holds.
#[derive(Debug, Clone, PartialEq)]
struct Held<K> {
    /// The code in the editor; `None`: the recipe.
    code: Option<String>,
    /// The built-in way a link's code in the editor was judged against,
    /// while it is unedited.
    from_link: Option<K>,
    /// The latest timed run here, and the summary of the built-in way it
    /// was judged against (which tells the run it belongs to).
    timed: Option<(Summary, Arc<OwnWay<K>>)>,
}

/// A reader's own way of waiting beside the built-in ways `K`, one
/// signal for the page.
#[derive(Debug)]
pub struct OwnWays<K: 'static>(RwSignal<Held<K>>);

impl<K> Clone for OwnWays<K> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<K> Copy for OwnWays<K> {}

/// A timed way and the summary of the way it was judged against.
pub type Timed<K> = Option<(Summary, Arc<OwnWay<K>>)>;

impl<K: Copy + PartialEq + Send + Sync + std::fmt::Debug + 'static> OwnWays<K> {
    /// None yet: the recipe in the editor, nothing timed.
    pub(super) fn new() -> OwnWays<K> {
        OwnWays(RwSignal::new(Held {
            code: None,
            from_link: None,
            timed: None,
        }))
    }

    /// The code in the editor (tracked); `None`: the recipe.
    pub fn code(&self) -> Option<String> {
        self.0.with(|h| h.code.clone())
    }

    /// The built-in way a link's code in the editor was judged against,
    /// while that code is unedited (tracked).
    pub fn from_link(&self) -> Option<K> {
        self.0.with(|h| h.from_link)
    }

    /// Puts the reader's `code` in the editor (`None`: the recipe).
    pub fn edit(&self, code: Option<String>) {
        self.0.update(|h| {
            h.code = code;
            h.from_link = None;
        });
    }

    /// Keeps `way`, timed against a way of `against`'s figures, for the
    /// run that has that way.
    pub fn keep(&self, against: Summary, way: OwnWay<K>) {
        self.0.update(|h| h.timed = Some((against, Arc::new(way))));
    }

    /// Forgets the timed run (a new one began). A run of the experiment
    /// made since has other figures, which [`attach`](super::attach)
    /// tells apart, so nothing is forgotten when results leave the page.
    pub fn forget(&self) {
        self.0.try_update(|h| h.timed = None);
    }

    /// Offers the code a shared run carries as the editor's, unless the
    /// reader has code of their own there.
    pub fn offer(&self, way: &OwnWay<K>) {
        if self.0.with_untracked(|h| h.code.is_none()) {
            self.0.update(|h| {
                h.code = Some(way.code.clone());
                h.from_link = Some(way.against);
            });
        }
    }

    /// The timed way and what it was judged against, now (untracked).
    pub fn timed_now(&self) -> Timed<K> {
        self.0.with_untracked(|h| h.timed.clone())
    }

    /// The timed way and what it was judged against (tracked, changing
    /// only when a run is kept or forgotten).
    pub fn timed(&self) -> Memo<Timed<K>> {
        let held = self.0;
        Memo::new(move |_| held.with(|h| h.timed.clone()))
    }
}
