//! `use_environment`: experiment 5, the environment, behind a hook like the
//! other experiments, and what the page needs to say about shared memory:
//! whether it is off and why, and a problem the service worker that
//! isolates the page may report later. Provided as context by the page.

use crate::runner::environment;
use leptos::prelude::*;
use waitlab_browser::{memory, page, wait};
use waitlab_core::outcome::reason;
use waitlab_core::schema::Environment;
use waitlab_core::shared_memory::Off;

/// What [`use_environment`] returns.
#[derive(Debug, Clone, Copy)]
pub struct UseEnvironment {
    /// The measured environment; `None` until it is measured.
    pub env: ReadSignal<Option<Environment>>,
    set_env: WriteSignal<Option<Environment>>,
    /// Logical cores, known at once (forms size their defaults with it).
    pub cores: u32,
    /// What the page detected of shared memory at once: not isolated,
    /// or isolated without `SharedArrayBuffer` (a reason code), or `None`.
    unavailable: Option<&'static str>,
    /// What went wrong isolating the page through the service worker, if
    /// anything (it may come after the page mounted).
    pub isolation_problem: ReadSignal<Option<String>>,
}

impl UseEnvironment {
    /// Why shared memory is off, if it is; tracked, since a frame learns
    /// whether the browser or its host is to blame a moment after it
    /// mounts (the isolation problem).
    pub fn shared_memory_off(&self) -> Option<Off> {
        Off::detect(
            self.unavailable != Some(reason::NOT_ISOLATED),
            self.unavailable.is_none(),
            self.isolation_problem.get().as_deref(),
        )
    }

    /// Measures the environment into `env`. The clock is read in a busy
    /// loop for a few ms, so this waits for the first paint (or a moment,
    /// where a hidden page paints nothing) and the page shows at once.
    pub fn measure_after_first_paint(&self) {
        let set_env = self.set_env;
        leptos::task::spawn_local(async move {
            wait::animation_frame_within(200).await;
            wait::fresh_task().await;
            set_env.set(Some(environment()));
        });
    }
}

/// What the page knows of its environment at once; follows the isolation
/// problem until the calling component is cleaned up.
pub fn use_environment() -> UseEnvironment {
    let (env, set_env) = signal(None);
    let (problem, set_problem) = signal(page::isolation_problem());
    let listener =
        StoredValue::new_local(Some(page::EventListener::isolation_problem(move || {
            set_problem.set(page::isolation_problem())
        })));
    on_cleanup(move || listener.set_value(None));
    UseEnvironment {
        env,
        set_env,
        cores: page::hardware_concurrency(),
        unavailable: memory::unavailable_reason(),
        isolation_problem: problem,
    }
}
