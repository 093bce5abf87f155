//! waitlab: how should code wait? The article's experiments, re-run in the
//! reader's browser.
//!
//! The page (`bin/app` via `main.rs`). Layers, from the outside in:
//! `pages` and `components` render; `hooks` give them reactive state;
//! `runner` runs each experiment; `experiments` holds each one's form,
//! results and runner, one folder each (`OnPage`). The probes, the probe worker and the
//! wrappers over web-sys and js-sys live in the `waitlab-browser` crate,
//! which has no Leptos; everything that can be computed without a browser
//! lives in `waitlab-core`.

pub mod components;
pub mod experiments;
pub mod hooks;
pub mod i18n;
pub mod pages;
pub mod runner;

pub use pages::App;
