//! Raw DEFLATE through the browser's own `CompressionStream` and
//! `DecompressionStream` ("deflate-raw"), so the page ships no inflater of
//! its own; inflation stops at a cap, so a small bomb cannot fill memory.
//! Main thread and workers.

use super::js_error_message;
use js_sys::{Array, Uint8Array};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, ReadableStream, ReadableStreamDefaultReader, ReadableWritablePair};

// The two transform streams, bound here: web-sys has them only behind its
// unstable-APIs flag.
#[wasm_bindgen]
extern "C" {
    type CompressionStream;
    #[wasm_bindgen(constructor, catch)]
    fn new(format: &str) -> Result<CompressionStream, JsValue>;

    type DecompressionStream;
    #[wasm_bindgen(constructor, catch)]
    fn new(format: &str) -> Result<DecompressionStream, JsValue>;
}

/// The format both streams use.
const FORMAT: &str = "deflate-raw";

/// Why bytes could not be inflated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InflateError {
    /// They inflate to more than the cap.
    TooLarge,
    /// They are not raw DEFLATE (or the browser cannot inflate).
    Corrupt(String),
}

/// `bytes` compressed as raw DEFLATE.
pub async fn deflate(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let stream = CompressionStream::new(FORMAT)
        .map_err(|e| format!("this browser cannot compress: {}", js_error_message(&e)))?;
    let pair: &ReadableWritablePair = stream.unchecked_ref();
    read_all(source(bytes)?.pipe_through(pair), usize::MAX)
        .await
        .map_err(|e| match e {
            InflateError::TooLarge => "the compressed link is too large".to_owned(),
            InflateError::Corrupt(why) => why,
        })
}

/// Raw-DEFLATE `bytes` inflated, if they inflate to at most `cap` bytes.
pub async fn inflate(bytes: &[u8], cap: usize) -> Result<Vec<u8>, InflateError> {
    let stream = DecompressionStream::new(FORMAT)
        .map_err(|e| InflateError::Corrupt(js_error_message(&e)))?;
    let pair: &ReadableWritablePair = stream.unchecked_ref();
    read_all(
        source(bytes)
            .map_err(InflateError::Corrupt)?
            .pipe_through(pair),
        cap,
    )
    .await
}

/// A stream of `bytes`.
fn source(bytes: &[u8]) -> Result<ReadableStream, String> {
    let parts = Array::of1(&Uint8Array::from(bytes));
    let blob = Blob::new_with_u8_array_sequence(&parts).map_err(|e| js_error_message(&e))?;
    Ok(blob.stream())
}

/// Every chunk of `stream`, cancelling it once more than `cap` bytes came.
async fn read_all(stream: ReadableStream, cap: usize) -> Result<Vec<u8>, InflateError> {
    let corrupt = |e: JsValue| InflateError::Corrupt(js_error_message(&e));
    let reader = ReadableStreamDefaultReader::new(&stream).map_err(corrupt)?;
    let mut out = Vec::new();
    loop {
        let chunk = JsFuture::from(reader.read()).await.map_err(corrupt)?;
        let done = js_sys::Reflect::get(&chunk, &JsValue::from_str("done")).map_err(corrupt)?;
        if done.is_truthy() {
            return Ok(out);
        }
        let value = js_sys::Reflect::get(&chunk, &JsValue::from_str("value")).map_err(corrupt)?;
        let value: Uint8Array = value
            .dyn_into()
            .map_err(|_| InflateError::Corrupt("a chunk that is not bytes".to_owned()))?;
        if out.len() + value.length() as usize > cap {
            let _ = reader.cancel();
            return Err(InflateError::TooLarge);
        }
        out.extend(value.to_vec());
    }
}
