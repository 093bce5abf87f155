//! The raw result of a run as JSON: shown, and offered as a download.

use crate::i18n::{t, tr};
use leptos::prelude::*;
use waitlab_core::key;
use waitlab_core::schema::Report;
use waitlab_core::text::Phrase;

/// A collapsed JSON view of `report` with a download link.
#[component]
pub fn RawReport(
    /// The report.
    report: Report,
) -> impl IntoView {
    let json = report.to_json();
    let download = format!(
        "data:application/json;charset=utf-8,{}",
        js_sys::encode_uri_component(&json)
    );
    view! {
        <details class="raw">
            <summary>{tr(&Phrase::new(key!("results.raw")).count("version", report.version))}</summary>
            <a class="button" download="waitlab-result.json" href=download>{t(key!("results.download_json"))}</a>
            <pre data-testid="report-json">{json}</pre>
        </details>
    }
}
