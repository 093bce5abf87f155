//! waitlab-core: everything waitlab computes without a browser.
//!
//! The page, its worker and the native probe are thin glue around this
//! crate. It has no web-sys, js-sys or Leptos dependency and does no IO, so
//! every rule about probes, statistics, the result schema, the worker
//! protocol and chart geometry is tested with a plain `cargo test` and
//! behaves the same natively and in wasm32.

pub mod bytes;
pub mod chart;
pub mod clock;
pub mod compare;
pub mod describe;
pub mod environment;
pub mod experiments;
pub mod export;
pub mod field;
pub mod findings;
pub mod lang;
pub mod lesson;
pub mod link;
pub mod number;
pub mod outcome;
pub mod own_wait;
pub mod protocol;
pub mod reference;
pub mod sampling;
pub mod schema;
pub mod shared_memory;
pub mod stats;
mod strategies;
pub mod summary;
pub mod svg;
pub mod text;
pub mod trace;
pub mod value;
