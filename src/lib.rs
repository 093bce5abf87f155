//! waitlab: how should code wait? The article's experiments, re-run in the
//! reader's browser.
//!
//! The page (`bin/app` via `main.rs`) and the probe worker (`bin/worker`)
//! share this library. Layers, from the outside in: `pages` and
//! `components` render; `hooks` give them reactive state; `runner` and
//! `probes` measure; `browser` wraps web-sys and js-sys. Everything that can
//! be computed without a browser lives in the `waitlab-core` crate.

pub mod browser;
pub mod components;
pub mod hooks;
pub mod pages;
pub mod probes;
pub mod runner;

pub use pages::App;
