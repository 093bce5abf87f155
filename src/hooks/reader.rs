//! The reader of encoded runs: share links' payloads and the bundled
//! sets' parts, decoded by `waitlab_core::link` (a link inflated by the
//! browser first). It is in the comparisons' wasm chunk, fetched when the
//! page first opens a link or the reader first reaches a comparison: a
//! page opened without a link that is only read never fetches it.

use leptos::wasm_split::{SplitLoaderError, wasm_split};
use std::future::Future;
use std::pin::Pin;
use waitlab_browser::links;
use waitlab_core::key;
use waitlab_core::link::set;
use waitlab_core::schema::Report;
use waitlab_core::text::Phrase;

/// A run as it comes to the page.
pub enum Encoded {
    /// A share link's payload (`v1:…`).
    Link(String),
    /// A bundled set's part, inflated, and where it came from.
    Part {
        /// Its address, named when it cannot be read.
        url: String,
        /// Its bytes.
        bytes: Vec<u8>,
    },
}

/// A run being read: its report, or why it has none.
type Reading = Pin<Box<dyn Future<Output = Result<Report, Phrase>>>>;

#[wasm_split(comparisons, wasm_split_path = ::leptos::wasm_split, fallible)]
fn reading(encoded: Encoded) -> Result<Reading, SplitLoaderError> {
    Ok(Box::pin(async move {
        match encoded {
            Encoded::Link(payload) => links::decode(&payload).await.map_err(|e| e.phrase()),
            Encoded::Part { url, bytes } => set::decode_part(&bytes).map_err(|e| {
                Phrase::new(key!("reference.bad_pack"))
                    .data("url", url)
                    .phrase("why", e.phrase())
            }),
        }
    }))
}

/// The report `encoded` holds, or why it holds none (among the reasons:
/// the reader's chunk could not be fetched).
pub async fn read(encoded: Encoded) -> Result<Report, Phrase> {
    match reading(encoded).await {
        Ok(reading) => reading.await,
        Err(_) => Err(Phrase::new(key!("links.not_loaded"))),
    }
}
