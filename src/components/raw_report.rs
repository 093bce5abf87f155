//! The raw result of a run as JSON: shown, and offered as a download.

use leptos::prelude::*;
use waitlab_core::schema::Report;

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
            <summary>"Raw result (JSON, schema waitlab.result v"{report.version}")"</summary>
            <a class="button" download="waitlab-result.json" href=download>"Download JSON"</a>
            <pre data-testid="report-json">{json}</pre>
        </details>
    }
}
