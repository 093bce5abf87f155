//! `use_reference_sets`: the bundled native and article sets, as packs
//! (`waitlab_core::link::set`): the index, fetched at start-up, names the
//! sets; the parts, one per set and experiment shown (an embed fetches its
//! experiment's only), are fetched when the reader first reaches a
//! comparison. Inflated by the browser and read by waitlab-core (the
//! reader's chunk), plus which ones the reader chose to show. Provided as
//! context by the page so every experiment's comparison reads the same
//! state.

use super::reader::{Encoded, read};
use futures::future::join_all;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::sync::Arc;
use waitlab_browser::deflate::inflate;
use waitlab_browser::fetch::fetch_bytes_within;
use waitlab_core::experiments::Experiment;
use waitlab_core::key;
use waitlab_core::link::MAX_BODY_BYTES;
use waitlab_core::link::set::{self, INDEX_PATH, IndexedSet};
use waitlab_core::schema::{NativeEnv, Report};
use waitlab_core::text::Phrase;

/// One bundled set as loaded.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedSet {
    /// Its name, the stem of its JSON file (stable key of the selector).
    pub set: String,
    /// Where its numbers come from, as the index says.
    pub native: NativeEnv,
    /// The cores of the machine it ran on, as the index says.
    pub cores: u32,
    /// The experiments it has parts for, as the index says.
    pub parts: Vec<Experiment>,
    /// Its parts for the experiments on the page in one report (shared, as
    /// every comparison reads it), or why it could not be used; `None`
    /// until they are fetched.
    pub report: Option<Result<Arc<Report>, Phrase>>,
}

/// Where loading stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Loading {
    /// Still fetching the index.
    Pending,
    /// Still fetching this file, which is slow to come.
    Slow(String),
    /// The index could not be used, so no set is available.
    Failed(Phrase),
    /// Every set listed in the index, with its parts once they are in (or
    /// their error).
    Done(Vec<LoadedSet>),
}

/// What [`use_reference_sets`] returns.
#[derive(Debug, Clone, Copy)]
pub struct ReferenceSets {
    /// The loading state.
    pub loading: RwSignal<Loading>,
    /// Names of the sets the reader shows.
    pub shown: RwSignal<Vec<String>>,
    /// The experiments whose parts the page fetches.
    experiments: StoredValue<Vec<Experiment>>,
    /// Whether their parts were asked for.
    asked: StoredValue<bool>,
}

impl ReferenceSets {
    /// How many sets the index lists (none until it is in).
    pub fn listed(&self) -> usize {
        self.loading.with(|loading| match loading {
            Loading::Done(sets) => sets.len(),
            _ => 0,
        })
    }

    /// The sets `keep` keeps whose parts loaded, each with its position
    /// in the index.
    fn loaded(&self, keep: impl Fn(&LoadedSet) -> bool) -> Vec<(usize, Arc<Report>)> {
        self.loading.with(|loading| match loading {
            Loading::Done(sets) => sets
                .iter()
                .enumerate()
                .filter(|(_, s)| keep(s))
                .filter_map(|(i, s)| Some((i, s.report.as_ref()?.as_ref().ok()?.clone())))
                .collect(),
            Loading::Pending | Loading::Slow(_) | Loading::Failed(_) => Vec::new(),
        })
    }

    /// The shown sets whose parts loaded, each with its position in the
    /// index (which picks its colour, so a set keeps it while others come
    /// and go).
    pub fn shown_reports(&self) -> Vec<(usize, Arc<Report>)> {
        let shown = self.shown.get();
        self.loaded(|s| shown.contains(&s.set))
    }

    /// Every bundled browser engine's set whose parts loaded, shown or
    /// not (what differs between engines is said from all of them).
    pub fn engine_reports(&self) -> Vec<Arc<Report>> {
        self.loaded(|s| s.native.is_engine())
            .into_iter()
            .map(|(_, report)| report)
            .collect()
    }

    /// Fetches the sets' parts ([`ReferenceSets::load_parts`]) once the
    /// index is in and no run is under way (after the run, if one is by
    /// then), as page work outside the runs: what every view that reads
    /// the sets (a comparison, the summary, an embed's lessons) calls as
    /// it is made.
    pub fn load_parts_when_idle(self, experiments: super::Experiments) {
        Effect::new(move |_| {
            let index_in = self.loading.with(|l| matches!(l, Loading::Done(_)));
            if index_in && !experiments.running() {
                spawn_local(async move { experiments.outside_runs(self.load_parts()).await });
            }
        });
    }

    /// Fetches every set's parts, the first time it is called once the
    /// index is in; resolves when they are in (at once after that).
    pub async fn load_parts(self) {
        if self.asked.get_value() {
            return;
        }
        let Some(index) = self.loading.with_untracked(|l| match l {
            Loading::Done(sets) => Some(sets.clone()),
            Loading::Pending | Loading::Slow(_) | Loading::Failed(_) => None,
        }) else {
            return;
        };
        self.asked.set_value(true);
        let experiments = self.experiments.get_value();
        let reports = join_all(
            index
                .iter()
                .map(|s| load_set(self.loading, s, &experiments)),
        )
        .await;
        let sets = index
            .into_iter()
            .zip(reports)
            .map(|(set, report)| LoadedSet {
                report: Some(report),
                ..set
            })
            .collect();
        self.loading.set(Loading::Done(sets));
    }
}

/// When a slow file is named on the page, ms.
const SLOW_MS: u32 = 1_000;
/// When a file that has not come is given up on, ms.
const LIMIT_MS: u32 = 20_000;

/// One pack, fetched (naming it while it is slow) and inflated.
async fn fetch_pack(loading: RwSignal<Loading>, url: String) -> Result<Vec<u8>, Phrase> {
    let slow = url.clone();
    let result = fetch_bytes_within(&url, SLOW_MS, LIMIT_MS, move || {
        loading.set(Loading::Slow(slow))
    })
    .await;
    if loading.with_untracked(|l| matches!(l, Loading::Slow(u) if *u == url)) {
        loading.set(Loading::Pending);
    }
    inflate(&result?, MAX_BODY_BYTES)
        .await
        .map_err(|_| Phrase::new(key!("reference.not_inflatable")).data("url", url))
}

/// `set`'s parts for `experiments`, in one report.
async fn load_set(
    loading: RwSignal<Loading>,
    set: &LoadedSet,
    experiments: &[Experiment],
) -> Result<Arc<Report>, Phrase> {
    let wanted = set.parts.iter().filter(|e| experiments.contains(e));
    let parts = join_all(wanted.map(|&e| async move {
        let url = set::part_path(&set.set, e);
        let bytes = fetch_pack(loading, url.clone()).await?;
        read(Encoded::Part { url, bytes }).await
    }))
    .await
    .into_iter()
    .collect::<Result<Vec<Report>, Phrase>>()?;
    let mut all = Report::combine(&parts).ok_or_else(|| Phrase::new(key!("reference.no_parts")))?;
    all.from_link = true;
    all.stated = parts.into_iter().flat_map(|p| p.stated).collect();
    Ok(Arc::new(all))
}

/// The index: every set it lists (no parts yet), and those shown at first.
async fn load_index(loading: RwSignal<Loading>) -> (Loading, Vec<String>) {
    let index: Vec<IndexedSet> = match fetch_pack(loading, INDEX_PATH.to_owned()).await {
        Ok(bytes) => match set::decode_index(&bytes) {
            Ok(index) => index,
            Err(e) => {
                let why = Phrase::new(key!("reference.bad_index")).phrase("why", e.phrase());
                return (Loading::Failed(why), Vec::new());
            }
        },
        Err(e) => return (Loading::Failed(e), Vec::new()),
    };
    let shown = index
        .iter()
        .filter(|e| e.shown)
        .map(|e| e.set.clone())
        .collect();
    let sets = index
        .into_iter()
        .map(|entry| LoadedSet {
            set: entry.set,
            native: entry.native,
            cores: entry.cores,
            parts: entry.experiments,
            report: None,
        })
        .collect();
    (Loading::Done(sets), shown)
}

/// Starts loading the bundled sets' index and returns their state; their
/// parts for `experiments` come with [`ReferenceSets::load_parts`].
pub fn use_reference_sets(experiments: Vec<Experiment>) -> ReferenceSets {
    let sets = ReferenceSets {
        loading: RwSignal::new(Loading::Pending),
        shown: RwSignal::new(Vec::new()),
        experiments: StoredValue::new(experiments),
        asked: StoredValue::new(false),
    };
    spawn_local(async move {
        let (loading, shown) = load_index(sets.loading).await;
        sets.shown.set(shown);
        sets.loading.set(loading);
    });
    sets
}
