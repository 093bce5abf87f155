//! A labelled text field bound to a string signal, as every experiment's
//! form uses them; parsing and validation happen in waitlab-core.

use crate::i18n::t;
use leptos::prelude::*;
use waitlab_core::text::Key;

/// One form field.
#[component]
pub fn Field(
    /// The label above the field, as a catalog key.
    label: Key,
    /// The `data-testid` of the input.
    testid: &'static str,
    /// The field's text.
    value: RwSignal<String>,
    /// Whether the field takes a whole number (numeric keyboard on phones).
    #[prop(optional)]
    numeric: bool,
) -> impl IntoView {
    view! {
        <label>{t(label)}
            <input type="text" inputmode=if numeric { "numeric" } else { "text" } data-testid=testid
                prop:value=value on:input=move |e| value.set(event_target_value(&e)) />
        </label>
    }
}
