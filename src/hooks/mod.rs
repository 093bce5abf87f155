//! leptos-use style hooks over `browser/` and the runner: each returns a
//! named struct of signals and actions, and cleans up in `on_cleanup`.

mod use_timed_waits;

pub use use_timed_waits::{UseTimedWaits, use_timed_waits};
