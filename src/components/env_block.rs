//! The environment block (experiment 5): the clock and the browser that
//! every other number depends on.

use leptos::prelude::*;
use waitlab_core::chart::format_ms;
use waitlab_core::schema::Environment;

/// Facts about where a run was (or will be) made.
#[component]
pub fn EnvBlock(
    /// The environment to show.
    env: Environment,
) -> impl IntoView {
    let clock = match env.clock {
        Some(c) => format!(
            "{} ms smallest step, {} ms typical",
            format_ms(c.min_step_ms),
            format_ms(c.typical_step_ms)
        ),
        None => "the clock did not move while it was read".to_owned(),
    };
    let isolation = if env.cross_origin_isolated {
        "yes"
    } else {
        "no: no shared memory, coarse clock"
    };
    view! {
        <dl class="env" data-testid="env">
            <div><dt>"Browser"</dt><dd data-testid="env-browser">{env.short_name()}</dd></div>
            <div><dt>"performance.now()"</dt><dd data-testid="env-clock">{clock}</dd></div>
            <div><dt>"Cross-origin isolated"</dt>
                <dd data-testid="env-coi" class:warn=!env.cross_origin_isolated>{isolation}</dd></div>
            <div><dt>"Logical cores"</dt><dd>{env.hardware_concurrency}</dd></div>
        </dl>
        <p class="ua" title="navigator.userAgent">{env.user_agent}</p>
    }
}
