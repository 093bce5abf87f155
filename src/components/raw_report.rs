//! The raw result of a run: its JSON shown, and the run to download as
//! JSON (the schema) or CSV (one row per sample), files named after the
//! experiment and the day it ran. The JSON is written when it is first
//! shown and the files when they are asked for, never while the results
//! render (a series of 100,000 samples is megabytes of it).

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
    let shown = RwSignal::new(false);
    let failed = RwSignal::new(None::<String>);
    let version = report.version;
    let report = StoredValue::new(report);
    let offer = move |extension: &str, mime: &str, text: &dyn Fn(&Report) -> String| {
        let (name, text) =
            report.with_value(|r| (export::file_name(r, Some(experiment), extension), text(r)));
        failed.set(page::download(&name, mime, &text).err());
    };
    let download_json = move |_| offer("json", "application/json", &Report::to_json);
    let download_csv = move |_| offer("csv", "text/csv", &|r| export::csv(r, experiment));
    view! {
        <details class="raw" on:toggle=move |_| if !shown.get_untracked() { shown.set(true) }>
            <summary>{tr(&Phrase::new(key!("results.raw")).count("version", version))}</summary>
            <div class="downloads">
                <button type="button" data-testid="download-json" on:click=download_json>{t(key!("results.download_json"))}</button>
                <button type="button" data-testid="download-csv" on:click=download_csv>{t(key!("results.download_csv"))}</button>
            </div>
            {move || failed.get().map(|why| view! { <p class="error" role="alert">{why}</p> })}
            // Scrollable: it takes the focus, so a keyboard can scroll it.
            <pre data-testid="report-json" tabindex="0">{move || shown.get().then(|| report.with_value(Report::to_json))}</pre>
        </details>
    }
}
