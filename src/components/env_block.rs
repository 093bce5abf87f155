//! The environment block (experiment 5): the clock and the browser that
//! every other number depends on.

use crate::i18n::{ms, t, tr};
use leptos::prelude::*;
use waitlab_core::key;
use waitlab_core::schema::Environment;
use waitlab_core::text::Phrase;

/// Facts about where a run was (or will be) made.
#[component]
pub fn EnvBlock(
    /// The environment to show.
    env: Environment,
) -> impl IntoView {
    let clock = match env.clock {
        Some(c) => tr(&Phrase::new(key!("env.clock"))
            .data("min", ms(c.min_step_ms))
            .data("typical", ms(c.typical_step_ms))),
        None => t(key!("env.clock_still")),
    };
    let isolation = t(if env.cross_origin_isolated {
        key!("env.isolated_yes")
    } else {
        key!("env.isolated_no")
    });
    view! {
        <dl class="env" data-testid="env">
            <div><dt>{t(key!("env.browser"))}</dt><dd data-testid="env-browser">{tr(&env.short_name())}</dd></div>
            <div><dt>"performance.now()"</dt><dd data-testid="env-clock">{clock}</dd></div>
            <div><dt>{t(key!("env.isolated"))}</dt>
                <dd data-testid="env-coi" class:warn=!env.cross_origin_isolated>{isolation}</dd></div>
            <div><dt>{t(key!("env.cores"))}</dt><dd>{env.hardware_concurrency}</dd></div>
        </dl>
        <p class="ua" title="navigator.userAgent">{env.user_agent}</p>
    }
}
