//! Result links in the page: `waitlab_core::link`'s body codec with the
//! browser's raw DEFLATE around it ([`crate::deflate`]).

use crate::deflate::{InflateError, deflate, inflate};
use waitlab_core::link::{self, LinkError, MAX_BODY_BYTES, NOT_INFLATABLE};
use waitlab_core::schema::Report;

/// The share payload (`v1:…`) of `report`.
pub async fn encode(report: &Report) -> Result<String, String> {
    Ok(link::wrap(&deflate(&link::encode_body(report)).await?))
}

/// The report a share payload holds, or why it holds none. Never panics,
/// and inflates at most [`MAX_BODY_BYTES`].
pub async fn decode(payload: &str) -> Result<Report, LinkError> {
    let packed = link::unwrap(payload)?;
    let body = inflate(&packed, MAX_BODY_BYTES)
        .await
        .map_err(|e| match e {
            InflateError::TooLarge => LinkError::Damaged("inflates to more than 64 KiB"),
            InflateError::Corrupt(_) => NOT_INFLATABLE,
        })?;
    link::decode_body(&body)
}
