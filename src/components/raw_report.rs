//! The raw result of a run: its JSON shown, and the run to download as
//! JSON (the schema) or CSV (one row per sample), files named after the
//! experiment and the day it ran. The files are written when asked for,
//! never while the results render.

use crate::i18n::{t, tr};
use leptos::prelude::*;
use waitlab_browser::page;
use waitlab_core::experiment::Experiment;
use waitlab_core::export;
use waitlab_core::key;
use waitlab_core::schema::Report;
use waitlab_core::text::Phrase;

/// A collapsed JSON view of `report` with its downloads.
#[component]
pub fn RawReport(
    /// The experiment whose results these are.
    experiment: Experiment,
    /// The report.
    report: Report,
) -> impl IntoView {
    let json = report.to_json();
    let failed = RwSignal::new(None::<String>);
    let offer = move |name: String, mime: &str, text: String| {
        failed.set(page::download(&name, mime, &text).err());
    };
    let version = report.version;
    let for_json = std::rc::Rc::new(report);
    let for_csv = for_json.clone();
    let download_json = move |_| {
        let name = export::file_name(&for_json, Some(experiment), "json");
        offer(name, "application/json", for_json.to_json());
    };
    let download_csv = move |_| {
        let name = export::file_name(&for_csv, Some(experiment), "csv");
        offer(name, "text/csv", export::csv(&for_csv, experiment));
    };
    view! {
        <details class="raw">
            <summary>{tr(&Phrase::new(key!("results.raw")).count("version", version))}</summary>
            <div class="downloads">
                <button type="button" data-testid="download-json" on:click=download_json>{t(key!("results.download_json"))}</button>
                <button type="button" data-testid="download-csv" on:click=download_csv>{t(key!("results.download_csv"))}</button>
            </div>
            {move || failed.get().map(|why| view! { <p class="error" role="alert">{why}</p> })}
            <pre data-testid="report-json">{json}</pre>
        </details>
    }
}
