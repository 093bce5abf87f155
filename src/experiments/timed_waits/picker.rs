//! A labelled choice of one of experiment 1's cells (the histogram's),
//! and which cells there are to choose from and the one chosen first.

use crate::i18n::{t, tr};
use leptos::prelude::*;
use waitlab_core::experiments::timed_waits::{CellKey, Mechanism, TimedWaits};
use waitlab_core::text::Key;

/// A labelled choice of one of `cells`, kept in `selected`.
#[component]
pub(super) fn CellPicker(
    /// Its label.
    label: Key,
    /// The select's `data-testid`.
    testid: &'static str,
    /// The cells to choose from.
    cells: Vec<CellKey>,
    /// The chosen one.
    selected: RwSignal<Option<CellKey>>,
) -> impl IntoView {
    let options = cells
        .iter()
        .map(|k| view! { <option value=k.id()>{tr(&k.label())}</option> })
        .collect_view();
    view! {
        <label class="toggle">{t(label)}" "
            <select data-testid=testid prop:value=move || selected.get().map(|k| k.id())
                on:change=move |e| {
                    let id = event_target_value(&e);
                    selected.set(cells.iter().copied().find(|k| k.id() == id));
                }>
                {options}
            </select>
        </label>
    }
}

/// The cells whose samples the run kept (a run opened from a link has
/// only their sketches): the ones a histogram can show.
pub(super) fn with_samples(tw: &TimedWaits) -> Vec<CellKey> {
    tw.cells
        .iter()
        .filter(|c| c.outcome.samples().is_some())
        .map(|c| c.key)
        .collect()
}

/// The default cell for the histogram, of `cells`: the smallest positive
/// wait of the back-to-back timer, else the first.
pub(super) fn default_selection(cells: &[CellKey]) -> Option<CellKey> {
    cells
        .iter()
        .find(|k| k.mechanism == Mechanism::TimeoutAwaited && k.requested_ms != Some(0))
        .or(cells.first())
        .copied()
}
