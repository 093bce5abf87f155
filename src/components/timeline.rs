//! A run's timeline, one click away under its results: what each thread
//! did and when, as the probes recorded it. The view, its drawing and the
//! trace file's writer are a wasm chunk of their own (`timeline`), fetched
//! when the reader first opens it. A linked run has none: links carry
//! results, not timelines, and the place says so.

mod view;

use crate::components::chunked::chunked;
use crate::i18n::t;
use leptos::prelude::*;
use leptos::wasm_split::{SplitLoaderError, wasm_split};
use std::sync::Arc;
use waitlab_core::experiments::Experiment;
use waitlab_core::export;
use waitlab_core::key;
use waitlab_core::schema::Report;
use waitlab_core::trace::Trace;

/// The interactive view of `trace`, its file named `file` and its process
/// in the file `source`.
#[wasm_split(timeline, wasm_split_path = ::leptos::wasm_split, fallible)]
fn made(trace: Arc<Trace>, file: String, source: String) -> Result<AnyView, SplitLoaderError> {
    Ok(view::timeline(trace, file, source))
}

/// `report`'s timeline (of `experiment`), behind its summary line.
#[component]
pub fn Timeline(
    /// The experiment whose run it is.
    experiment: Experiment,
    /// The run.
    report: Report,
) -> impl IntoView {
    let opened = RwSignal::new(false);
    let file = export::file_name(&report, Some(experiment), "trace.json");
    let source = format!("waitlab, {}", report.env.link_name());
    let said = if report.from_link {
        key!("timeline.from_link")
    } else {
        key!("timeline.none")
    };
    let trace = StoredValue::new(report.trace.clone());
    let content = move || {
        opened.get().then(|| match trace.get_value() {
            Some(trace) => {
                let made = made(trace, file.clone(), source.clone());
                chunked(made, key!("timeline.not_loaded"), |v| v).into_any()
            }
            None => {
                view! { <p class="hint" data-testid="timeline-absent">{t(said)}</p> }.into_any()
            }
        })
    };
    view! {
        <details class="timeline" data-testid="timeline"
            on:toggle=move |_| if !opened.get_untracked() { opened.set(true) }>
            <summary>{t(key!("timeline.summary"))}</summary>
            {content}
        </details>
    }
}
