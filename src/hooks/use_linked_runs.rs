//! `use_linked_runs`: results opened from share links (the page's fragment
//! holds one or more payloads separated by `;`), links added to compare,
//! and this browser's latest run of each experiment for "share all".
//! Provided as context by the page.

use super::reader::{Encoded, read};
use leptos::prelude::*;
use leptos::task::spawn_local;
use waitlab_browser::{location, page};
use waitlab_core::experiments::Experiment;
use waitlab_core::key;
use waitlab_core::link;
use waitlab_core::schema::Report;
use waitlab_core::text::{Arg, Part, Phrase};

/// Most runs opened side by side.
pub const MAX_SHARED: usize = 8;

/// One run opened from a link.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkedRun {
    /// Its payload (`v1:…`), kept to rebuild the fragment.
    pub payload: String,
    /// The decoded report.
    pub report: Report,
}

/// What [`use_linked_runs`] returns.
#[derive(Debug, Clone, Copy)]
pub struct LinkedRuns {
    /// The runs opened from links, in link order.
    pub opened: RwSignal<Vec<LinkedRun>>,
    /// Why parts of a link could not be read.
    pub problems: RwSignal<Vec<Phrase>>,
    /// This browser's latest run of each experiment.
    pub mine: RwSignal<Vec<Report>>,
    /// The reader's own timed wait, which this browser's link of
    /// experiment 1 carries once timed.
    pub own: super::OwnWays<waitlab_core::experiments::timed_waits::CellKey>,
    /// The reader's own pair of waiter and setter, which this browser's
    /// link of experiment 4 carries once timed.
    pub pair: super::OwnWays<waitlab_core::experiments::wake_latency::Strategy>,
    /// Whether opened links wait to be brought into view.
    landing: StoredValue<bool>,
}

impl LinkedRuns {
    /// Opens every payload of `link` (the texts of runs first); returns how
    /// many were added, or why none could be.
    pub async fn add(&self, link: &str) -> Result<usize, Phrase> {
        crate::i18n::part_ready(Part::Runs).await?;
        let mut added = 0;
        let mut problems = Vec::new();
        for payload in link::payloads(link) {
            let payload = payload.to_owned();
            if self.opened.with(|o| o.len()) >= MAX_SHARED {
                problems
                    .push(Phrase::new(key!("share.too_many")).count("count", MAX_SHARED as u64));
                break;
            }
            if self.opened.with(|o| o.iter().any(|r| r.payload == payload)) {
                continue;
            }
            match read(Encoded::Link(payload.clone())).await {
                Ok(report) => {
                    self.opened
                        .update(|o| o.push(LinkedRun { payload, report }));
                    added += 1;
                }
                Err(problem) => problems.push(problem),
            }
        }
        self.sync_fragment();
        match (added, problems.is_empty()) {
            (0, false) => Err(Phrase::new(key!("share.problems")).arg("list", Arg::List(problems))),
            (0, true) => Err(Phrase::new(key!("share.no_result"))),
            _ => {
                self.problems.update(|p| p.extend(problems));
                Ok(added)
            }
        }
    }

    /// Opens the runs of `fragment` in place of those open now, as a
    /// navigation to it would (an empty fragment closes them all), and on
    /// the full page brings what it shared into view.
    async fn open_instead(&self, fragment: &str) {
        self.opened.set(Vec::new());
        self.problems.set(Vec::new());
        if fragment.is_empty() {
            self.sync_fragment();
        } else {
            match self.add(fragment).await {
                Ok(_) => self
                    .landing
                    .set_value(location::query_param("embed").is_none()),
                Err(problem) => self.problems.set(vec![problem]),
            }
        }
    }

    /// Whether a link just opened on the full page still waits to be
    /// brought into view (the results view that shows it first does so,
    /// in its chunk); reading it clears it.
    pub fn take_landing(&self) -> bool {
        let asked = self.landing.get_value();
        self.landing.set_value(false);
        asked
    }

    /// Closes the opened run at `index`.
    pub fn remove(&self, index: usize) {
        self.opened.update(|o| {
            if index < o.len() {
                o.remove(index);
            }
        });
        self.sync_fragment();
    }

    /// Records this browser's latest run (replacing its earlier run of the
    /// same experiments).
    pub fn record(&self, report: &Report) {
        self.mine.update(|mine| {
            mine.retain(|r| {
                waitlab_core::experiments::Experiment::ALL
                    .iter()
                    .all(|&e| !(r.has(e) && report.has(e)))
            });
            mine.push(report.clone());
        });
    }

    /// The first opened run with results of `experiment` (tracked: it
    /// changes as links are decoded).
    pub fn first_with(&self, experiment: waitlab_core::experiments::Experiment) -> Option<Report> {
        self.opened.with(|o| {
            o.iter()
                .find(|r| r.report.has(experiment))
                .map(|r| r.report.clone())
        })
    }

    fn sync_fragment(&self) {
        let fragment = self.opened.with_untracked(|o| {
            o.iter()
                .map(|r| r.payload.as_str())
                .collect::<Vec<_>>()
                .join(";")
        });
        location::replace_fragment(&fragment);
    }
}

/// Whether `fragment` names a place on the page (the shared runs' panel, an
/// experiment's section) rather than runs.
fn is_anchor(fragment: &str) -> bool {
    fragment == "share" || Experiment::from_slug(fragment).is_some()
}

/// Reads the page's fragment and returns the shared runs (decoded as the
/// browser inflates them, a moment after the page starts); follows the
/// fragment when it changes without a reload, until the calling component
/// is cleaned up.
pub fn use_linked_runs() -> LinkedRuns {
    let runs = LinkedRuns {
        opened: RwSignal::new(Vec::new()),
        problems: RwSignal::new(Vec::new()),
        mine: RwSignal::new(Vec::new()),
        own: super::OwnWays::new(),
        pair: super::OwnWays::new(),
        landing: StoredValue::new(false),
    };
    let fragment = location::fragment();
    if is_anchor(&fragment) {
        // A place on the page (an experiment's permalink, "Open in
        // waitlab" from an embed): its section is made after the browser
        // looked for it.
        let target = format!("#{fragment}");
        spawn_local(async move { page::land_on(&target, || true).await });
    } else if !fragment.is_empty() {
        spawn_local(async move { runs.open_instead(&fragment).await });
    }
    // The page's own fragment updates replace the history entry, which
    // fires no hashchange: every event is a navigation by the reader (to
    // a link, or to a place on the page, which leaves the runs open).
    let listener = StoredValue::new_local(Some(page::EventListener::hash_change(move || {
        let fragment = location::fragment();
        if !is_anchor(&fragment) {
            spawn_local(async move { runs.open_instead(&fragment).await });
        }
    })));
    on_cleanup(move || listener.set_value(None));
    runs
}
