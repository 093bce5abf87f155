//! A live animation driven by `requestAnimationFrame`: a ball that glides
//! back and forth. It only moves when the main thread is free to render a
//! frame, so a blocked main thread freezes it for everyone to see.
//!
//! For a reader who prefers reduced motion it steps instead of gliding,
//! so a freeze still shows.
//!
//! It runs only while its experiment runs (and a moment after), so it
//! never shares the main thread with another experiment's probes, and it
//! moves the ball with a transform, which needs no layout.

use leptos::html::Div;
use leptos::prelude::*;
use waitlab_browser::page::{self, AnimationLoop};
use waitlab_browser::wait;
use waitlab_core::key;

/// Period of one back-and-forth, ms.
const PERIOD_MS: f64 = 1600.0;
/// For a reader who asked for less motion the ball does not glide: it
/// steps between five places (0, ¼, ½, ¾, 1 of the track), a step every
/// 200 ms, so a run of missing frames still shows as a pause.
const REDUCED_STEPS: f64 = 4.0;
/// How long the ball keeps moving after the run, ms.
const LINGER_MS: u32 = 600;

/// The ball on its track, moving while `running`.
#[component]
pub fn Ticker(
    /// Whether the experiment runs.
    #[prop(into)]
    running: Signal<bool>,
) -> impl IntoView {
    let slider = NodeRef::<Div>::new();
    let frames = StoredValue::new_local(None::<AnimationLoop>);
    // Each start or stop bumps the generation, so a stop scheduled by an
    // earlier run cannot end a later one.
    let generation = StoredValue::new(0_u32);
    Effect::new(move |_| {
        let run = running.get();
        let current = generation.get_value().wrapping_add(1);
        generation.set_value(current);
        if run {
            let steps = page::prefers_reduced_motion();
            frames.set_value(Some(AnimationLoop::start(move |t| {
                if let Some(el) = slider.get_untracked() {
                    let phase = (t % PERIOD_MS) / PERIOD_MS;
                    let glide = 1.0 - (2.0 * phase - 1.0).abs();
                    let x = if steps {
                        (glide * REDUCED_STEPS).round() / REDUCED_STEPS
                    } else {
                        glide
                    };
                    // A property of the element's style, not its `style`
                    // attribute, which a policy without 'unsafe-inline'
                    // styles refuses.
                    let _ = web_sys::HtmlElement::style(&el).set_property(
                        "transform",
                        &format!("translateX({}%)", waitlab_core::number::fixed(x * 100.0, 2)),
                    );
                }
            })));
        } else {
            leptos::task::spawn_local(async move {
                wait::timeout(LINGER_MS).await;
                if generation.try_get_value() == Some(current) {
                    frames.set_value(None);
                }
            });
        }
    });
    on_cleanup(move || frames.set_value(None));
    view! {
        <div class="ticker" data-testid="ticker"
            title=crate::i18n::t(key!("ticker.title"))>
            <div class="slider" node_ref=slider><div class="ball"></div></div>
        </div>
    }
}
