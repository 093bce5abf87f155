//! `use_embed`: the page as an iframe in someone's blog post. Which
//! experiment the `?embed=` parameter asks for, the link that opens the
//! same view (and the runs in its fragment) on the full page, and the
//! page's height posted to the parent on every resize.

use leptos::prelude::*;
use waitlab_browser::{location, page};
use waitlab_core::experiments::Experiment;

/// Whether the page runs as an embed (`?embed=`); provided by the page.
#[derive(Debug, Clone, Copy)]
pub struct Embedded(pub bool);

/// The experiment slug the page is embedded with (`?embed=`), if any.
pub fn embed_slug() -> Option<String> {
    location::query_param("embed")
}

/// What [`use_embed`] returns.
#[derive(Debug, Clone)]
pub struct UseEmbed {
    /// The full page in the embed's language, at the embedded experiment
    /// or with this page's fragment (its linked runs).
    pub open_url: String,
}

/// Posts the page's height to the parent now and on every resize, until
/// the calling component is cleaned up.
pub fn use_embed() -> UseEmbed {
    let resize = StoredValue::new_local(None::<page::ResizeListener>);
    // Only a framed page has anyone to tell (and a page observing itself
    // for nobody only risks WebKit's "ResizeObserver loop" errors).
    if location::embedding_window().is_some() {
        Effect::new(move |_| {
            resize.set_value(Some(page::ResizeListener::new(location::post_height)));
            location::post_height();
        });
    }
    on_cleanup(move || resize.set_value(None));
    let page = format!(
        "{}?lang={}",
        location::beside_page(""),
        crate::i18n::lang().code()
    );
    // The runs in the fragment land on what they shared; without runs,
    // the page lands on the embedded experiment.
    let fragment = location::fragment();
    let place = if fragment.is_empty() {
        embed_slug().filter(|slug| Experiment::from_slug(slug).is_some())
    } else {
        Some(fragment)
    };
    let open_url = match place {
        Some(place) => format!("{page}#{place}"),
        None => page,
    };
    UseEmbed { open_url }
}
