//! The colour-scheme picker: the browser's preference (the default), or
//! light or dark, kept by `index.html`'s head script, which applies it
//! before anything is drawn.

use crate::i18n::t;
use leptos::prelude::*;
use waitlab_browser::page;
use waitlab_core::key;

/// A select of the colour schemes, showing the one in use.
#[component]
pub fn SchemePicker() -> impl IntoView {
    let chosen = page::scheme_choice();
    let change = move |e: leptos::ev::Event| page::choose_scheme(&event_target_value(&e));
    let options = [
        ("auto", key!("scheme.auto")),
        ("light", key!("scheme.light")),
        ("dark", key!("scheme.dark")),
    ];
    view! {
        <label class="scheme">
            <span class="visually-hidden">{t(key!("scheme.label"))}</span>
            <select data-testid="scheme" on:change=change>
                {options.map(|(value, label)| view! {
                    <option value=value selected=value == chosen>{t(label)}</option>
                }).collect_view()}
            </select>
        </label>
    }
}
