//! leptos-use style hooks over `browser/` and the runners: each returns a
//! named struct of signals and actions, and cleans up in `on_cleanup`.

mod use_experiment;
mod use_linked_runs;
mod use_reference_sets;

pub use use_experiment::{Notice, UseExperiment, use_experiment};
pub use use_linked_runs::{LinkedRun, LinkedRuns, use_linked_runs};
pub use use_reference_sets::{Loading, ReferenceSets, use_reference_sets};
