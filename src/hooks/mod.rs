//! leptos-use style hooks over the browser glue and the runners: each
//! returns a named struct of signals and actions, and cleans up in
//! `on_cleanup`. Pages reach the browser through these, never directly.

mod beside;
mod reader;
mod use_embed;
mod use_environment;
mod use_experiment;
mod use_linked_runs;
mod use_own_ways;
mod use_reference_sets;

pub use beside::{Beside, attach};
pub use use_embed::{Embedded, UseEmbed, embed_slug, use_embed};
pub use use_environment::{UseEnvironment, use_environment};
pub use use_experiment::{
    Experiments, Notice, RunState, UseExperiment, use_experiment, use_experiments,
};
pub use use_linked_runs::{LinkedRun, LinkedRuns, use_linked_runs};
pub use use_own_ways::{OwnWays, Timed};
pub use use_reference_sets::{LoadedSet, Loading, ReferenceSets, use_reference_sets};
