//! A labelled choice of one of experiment 1's cells: the histogram's, and
//! the built-in way a reader's own is compared with.

use crate::i18n::{t, tr};
use leptos::prelude::*;
use waitlab_core::experiments::timed_waits::CellKey;
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
