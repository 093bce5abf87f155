//! The raw result of a run: its JSON shown, and the run to download as
//! JSON (the schema) or CSV (one row per sample), files named after the
//! experiment and the day it ran. The JSON is written when it is first
//! shown and the files when they are asked for, never while the results
//! render (a series of 100,000 samples is megabytes of it).
//!
//! The writers (serde's serializers of every result type among them) are
//! a wasm chunk of their own (`written`): a reader who never opens a
//! raw result or asks for a file never fetches them.

use crate::i18n::{t, tr};
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos::wasm_split::{SplitLoaderError, wasm_split};
use waitlab_browser::page;
use waitlab_core::experiments::Experiment;
use waitlab_core::export;
use waitlab_core::key;
use waitlab_core::schema::Report;
use waitlab_core::text::Phrase;

/// A file a run is written to.
#[derive(Clone, Copy)]
enum File {
    /// The report in the result schema.
    Json,
    /// One row per sample of the experiment.
    Csv,
}

impl File {
    fn extension(self) -> &'static str {
        match self {
            File::Json => "json",
            File::Csv => "csv",
        }
    }

    fn mime(self) -> &'static str {
        match self {
            File::Json => "application/json",
            File::Csv => "text/csv",
        }
    }
}

/// `report` written as `file` (the CSV with `experiment`'s samples).
#[wasm_split(export, wasm_split_path = ::leptos::wasm_split, fallible)]
fn written(report: Report, experiment: Experiment, file: File) -> Result<String, SplitLoaderError> {
    Ok(match file {
        File::Json => report.to_json(),
        File::Csv => export::csv(&report, experiment),
    })
}

/// Writes `report` as `file` in its chunk, then hands the text to `then`,
/// which says what went wrong, if anything; a chunk that cannot be fetched
/// is said too. The view may be gone by the time the chunk lands: `failed`
/// is then left alone.
fn write(
    report: StoredValue<Report>,
    experiment: Experiment,
    file: File,
    failed: RwSignal<Option<String>>,
    then: impl FnOnce(&Report, String) -> Option<String> + 'static,
) {
    let Some(r) = report.try_get_value() else {
        return;
    };
    spawn_local(async move {
        let failure = match written(r.clone(), experiment, file).await {
            Ok(text) => then(&r, text),
            Err(_) => Some(tr(&Phrase::new(key!("results.not_loaded")))),
        };
        failed.try_set(failure);
    });
}

/// A collapsed JSON view of `report` with its downloads.
#[component]
pub fn RawReport(
    /// The experiment whose results these are.
    experiment: Experiment,
    /// The report.
    report: Report,
) -> impl IntoView {
    let json = RwSignal::new(None::<String>);
    let failed = RwSignal::new(None::<String>);
    let version = report.version;
    // Whose run: the page's style tells a reader's own from a linked one.
    let source = if report.from_link { "link" } else { "run" };
    let report = StoredValue::new(report);
    let offer = move |file: File| {
        write(report, experiment, file, failed, move |r, text| {
            let name = export::file_name(r, Some(experiment), file.extension());
            page::download(&name, file.mime(), &text).err()
        });
    };
    let show = move || {
        if json.get_untracked().is_none() {
            write(report, experiment, File::Json, failed, move |_, text| {
                json.try_set(Some(text));
                None
            });
        }
    };
    view! {
        <details class="raw" data-source=source on:toggle=move |_| show()>
            <summary>{tr(&Phrase::new(key!("results.raw")).count("version", version))}</summary>
            <div class="downloads">
                <button type="button" data-testid="download-json" on:click=move |_| offer(File::Json)>{t(key!("results.download_json"))}</button>
                <button type="button" data-testid="download-csv" on:click=move |_| offer(File::Csv)>{t(key!("results.download_csv"))}</button>
            </div>
            {move || failed.get().map(|why| view! { <p class="error" role="alert">{why}</p> })}
            // Scrollable: it takes the focus, so a keyboard can scroll it.
            <pre data-testid="report-json" tabindex="0">{move || json.get()}</pre>
        </details>
    }
}
