//! `use_reference_sets`: the bundled native and article sets, fetched once
//! at start-up and validated with waitlab-core, plus which ones the reader
//! chose to show. Provided as context by the page so every experiment's
//! comparison reads the same state.

use leptos::prelude::*;
use leptos::task::spawn_local;
use std::sync::Arc;
use waitlab_browser::fetch::fetch_text_within;
use waitlab_core::reference::{INDEX_PATH, ReferenceIndex, parse_set};
use waitlab_core::schema::Report;

/// One bundled set as loaded.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedSet {
    /// Its file name (stable key of the selector).
    pub file: String,
    /// The set (shared, as every comparison reads it), or why it could not
    /// be used.
    pub report: Result<Arc<Report>, String>,
}

/// Where loading stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Loading {
    /// Still fetching.
    Pending,
    /// Still fetching this file, which is slow to come.
    Slow(String),
    /// The index could not be used, so no set is available.
    Failed(String),
    /// Every set listed in the index, loaded or with its error.
    Done(Vec<LoadedSet>),
}

/// What [`use_reference_sets`] returns.
#[derive(Debug, Clone, Copy)]
pub struct ReferenceSets {
    /// The loading state.
    pub loading: RwSignal<Loading>,
    /// Files of the sets the reader shows.
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
                .filter(|(_, s)| shown.contains(&s.file))
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

async fn load(loading: RwSignal<Loading>) -> (Loading, Vec<String>) {
    let fetch = |url: String| async move {
        let slow = url.clone();
        let result = fetch_text_within(&url, SLOW_MS, LIMIT_MS, move || {
            loading.set(Loading::Slow(slow))
        })
        .await;
        if loading.with_untracked(|l| matches!(l, Loading::Slow(u) if *u == url)) {
            loading.set(Loading::Pending);
        }
        result
    };
    let index = match fetch(INDEX_PATH.to_owned()).await {
        Ok(text) => match ReferenceIndex::from_json(&text) {
            Ok(index) => index,
            Err(e) => return (Loading::Failed(e.to_string()), Vec::new()),
        },
        Err(e) => return (Loading::Failed(e), Vec::new()),
    };
    let base = INDEX_PATH.rsplit_once('/').map_or("", |(dir, _)| dir);
    let mut sets = Vec::with_capacity(index.sets.len());
    for entry in &index.sets {
        let report = fetch(format!("{base}/{}", entry.file))
            .await
            .and_then(|text| parse_set(&text).map(Arc::new).map_err(|e| e.to_string()));
        sets.push(LoadedSet {
            file: entry.file.clone(),
            report,
        });
    }
    let shown = index
        .sets
        .into_iter()
        .filter(|e| e.shown)
        .map(|e| e.file)
        .collect();
    (Loading::Done(sets), shown)
}

/// Starts loading the bundled sets and returns their state.
pub fn use_reference_sets() -> ReferenceSets {
    let sets = ReferenceSets {
        loading: RwSignal::new(Loading::Pending),
        shown: RwSignal::new(Vec::new()),
    };
    spawn_local(async move {
        let (loading, shown) = load(sets.loading).await;
        sets.shown.set(shown);
        sets.loading.set(loading);
    });
    sets
}
