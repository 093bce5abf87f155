//! `use_reference_sets`: the bundled native and article sets, fetched once
//! at start-up as packs (`waitlab_core::link::set`: an index, then one
//! part per set and experiment shown; an embed fetches its experiment's
//! parts only), inflated by the browser and validated by waitlab-core,
//! plus which ones the reader chose to show. Provided as context by the
//! page so every experiment's comparison reads the same state.

use futures::future::join_all;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::sync::Arc;
use waitlab_browser::deflate::inflate;
use waitlab_browser::fetch::fetch_bytes_within;
use waitlab_core::experiment::Experiment;
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
    /// Its parts for the experiments on the page in one report (shared, as
    /// every comparison reads it), or why it could not be used.
    pub report: Result<Arc<Report>, Phrase>,
}

/// Where loading stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Loading {
    /// Still fetching.
    Pending,
    /// Still fetching this file, which is slow to come.
    Slow(String),
    /// The index could not be used, so no set is available.
    Failed(Phrase),
    /// Every set listed in the index, loaded or with its error.
    Done(Vec<LoadedSet>),
}

/// What [`use_reference_sets`] returns.
#[derive(Debug, Clone, Copy)]
pub struct ReferenceSets {
    /// The loading state.
    pub loading: RwSignal<Loading>,
    /// Names of the sets the reader shows.
    pub shown: RwSignal<Vec<String>>,
}

impl ReferenceSets {
    /// The shown sets that loaded, each with its position in the index
    /// (which picks its colour, so a set keeps it while others come and
    /// go).
    pub fn shown_reports(&self) -> Vec<(usize, Arc<Report>)> {
        let shown = self.shown.get();
        self.loading.with(|loading| match loading {
            Loading::Done(sets) => sets
                .iter()
                .enumerate()
                .filter(|(_, s)| shown.contains(&s.set))
                .filter_map(|(i, s)| Some((i, s.report.as_ref().ok()?.clone())))
                .collect(),
            Loading::Pending | Loading::Slow(_) | Loading::Failed(_) => Vec::new(),
        })
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

/// `entry`'s parts for `experiments`, in one report.
async fn load_set(
    loading: RwSignal<Loading>,
    entry: &IndexedSet,
    experiments: &[Experiment],
) -> Result<Arc<Report>, Phrase> {
    let wanted = entry.experiments.iter().filter(|e| experiments.contains(e));
    let parts = join_all(wanted.map(|&e| async move {
        let url = set::part_path(&entry.set, e);
        let bytes = fetch_pack(loading, url.clone()).await?;
        set::decode_part(&bytes).map_err(|e| {
            Phrase::new(key!("reference.bad_pack"))
                .data("url", url)
                .phrase("why", e.phrase())
        })
    }))
    .await
    .into_iter()
    .collect::<Result<Vec<Report>, Phrase>>()?;
    let mut all = Report::combine(&parts).ok_or_else(|| Phrase::new(key!("reference.no_parts")))?;
    all.from_link = true;
    all.stated = parts.into_iter().flat_map(|p| p.stated).collect();
    Ok(Arc::new(all))
}

async fn load(loading: RwSignal<Loading>, experiments: Vec<Experiment>) -> (Loading, Vec<String>) {
    let index = match fetch_pack(loading, INDEX_PATH.to_owned()).await {
        Ok(bytes) => match set::decode_index(&bytes) {
            Ok(index) => index,
            Err(e) => {
                let why = Phrase::new(key!("reference.bad_index")).phrase("why", e.phrase());
                return (Loading::Failed(why), Vec::new());
            }
        },
        Err(e) => return (Loading::Failed(e), Vec::new()),
    };
    let reports = join_all(
        index
            .iter()
            .map(|entry| load_set(loading, entry, &experiments)),
    )
    .await;
    let shown = index
        .iter()
        .filter(|e| e.shown)
        .map(|e| e.set.clone())
        .collect();
    let sets = index
        .into_iter()
        .zip(reports)
        .map(|(entry, report)| LoadedSet {
            set: entry.set,
            native: entry.native,
            report,
        })
        .collect();
    (Loading::Done(sets), shown)
}

/// Starts loading the bundled sets' parts for `experiments` and returns
/// their state.
pub fn use_reference_sets(experiments: Vec<Experiment>) -> ReferenceSets {
    let sets = ReferenceSets {
        loading: RwSignal::new(Loading::Pending),
        shown: RwSignal::new(Vec::new()),
    };
    spawn_local(async move {
        let (loading, shown) = load(sets.loading, experiments).await;
        sets.shown.set(shown);
        sets.loading.set(loading);
    });
    sets
}
