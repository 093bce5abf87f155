//! A live animation driven by `requestAnimationFrame`: a ball that glides
//! back and forth. It only moves when the main thread is free to render a
//! frame, so a blocked main thread freezes it for everyone to see.

use crate::browser::page::AnimationLoop;
use leptos::html::Div;
use leptos::prelude::*;

/// Period of one back-and-forth, ms.
const PERIOD_MS: f64 = 1600.0;

/// The ball on its track.
#[component]
pub fn Ticker() -> impl IntoView {
    let ball = NodeRef::<Div>::new();
    let frames = StoredValue::new_local(None::<AnimationLoop>);
    Effect::new(move |_| {
        if ball.get().is_some() {
            frames.set_value(Some(AnimationLoop::start(move |t| {
                if let Some(el) = ball.get_untracked() {
                    let phase = (t % PERIOD_MS) / PERIOD_MS;
                    let x = 1.0 - (2.0 * phase - 1.0).abs();
                    let _ =
                        el.set_attribute("style", &format!("left: calc({x:.4} * (100% - 18px))"));
                }
            })));
        }
    });
    on_cleanup(move || frames.set_value(None));
    view! {
        <div class="ticker" title="Moved by requestAnimationFrame: it freezes while the main thread is blocked">
            <div class="ball" node_ref=ball></div>
        </div>
    }
}
