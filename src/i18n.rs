//! The page's words in the reader's language.
//!
//! The language comes from `?lang=`, else the browser's preferred
//! languages, else English, as `index.html`'s head script picks it (and
//! starts loading its catalog, `www/i18n/LANG.json`, only that one) before
//! anything is drawn; the app mounts once the catalog is in. Views ask for texts with [`t`] and [`tr`] while they render, as
//! plain strings, not signals: a reader who picks another language gets the
//! page rendered anew ([`Words::switch`]), while the runs, which live in
//! contexts above the rendered page, stay.

use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;
use waitlab_browser::{catalog, location};
use waitlab_core::lang::Lang;
use waitlab_core::text::{Catalog, Phrase};

thread_local! {
    static CURRENT: RefCell<Option<Rc<Catalog>>> = const { RefCell::new(None) };
}

fn with<T>(f: impl FnOnce(&Catalog) -> T) -> T {
    CURRENT.with(|c| {
        let catalog = c
            .borrow()
            .clone()
            .expect("the catalog loads before the app mounts");
        f(&catalog)
    })
}

/// The text of `key`.
pub fn t(key: &str) -> String {
    with(|c| c.text(key))
}

/// `phrase` in the reader's language.
pub fn tr(phrase: &Phrase) -> String {
    with(|c| c.render(phrase))
}

/// A number written by `waitlab_core::number` (with `.`), in the reader's
/// language.
pub fn num(text: &str) -> String {
    with(|c| c.number(text))
}

/// A time in ms as a figure, in the reader's language.
pub fn ms(value: f64) -> String {
    with(|c| c.ms(value))
}

/// The reader's language.
pub fn lang() -> Lang {
    with(Catalog::lang)
}

/// The language the reader asked for, as the page's head script chose it
/// before anything was drawn (`<html lang>`: `?lang=`, else the browser's
/// preferred languages, else English).
pub fn requested_lang() -> Lang {
    catalog::document_language()
        .as_deref()
        .and_then(Lang::from_tag)
        .unwrap_or(Lang::En)
}

/// Loads `lang`'s catalog and makes it the page's; falls back to English
/// if that one cannot be loaded.
pub async fn load(lang: Lang) -> Result<(), String> {
    let catalog = match catalog::fetch_catalog(lang).await {
        Ok(c) => c,
        Err(_) if lang != Lang::En => catalog::fetch_catalog(Lang::En).await?,
        Err(e) => return Err(e),
    };
    catalog::set_document_language(catalog.lang(), &catalog.text("page.title"));
    CURRENT.with(|c| *c.borrow_mut() = Some(Rc::new(catalog)));
    Ok(())
}

/// The page's language as context: which one is shown, and a way to show
/// another.
#[derive(Debug, Clone, Copy)]
pub struct Words {
    /// The language shown; the page renders anew when it changes.
    pub lang: RwSignal<Lang>,
    /// A language being loaded, or why it could not be.
    pub switching: RwSignal<Option<Result<Lang, String>>>,
}

impl Words {
    /// The page's words, in the language already loaded.
    pub fn new() -> Self {
        Words {
            lang: RwSignal::new(lang()),
            switching: RwSignal::new(None),
        }
    }

    /// Shows the page in `lang`: loads its catalog, then renders the page
    /// anew, and keeps `?lang=` in the address so a reload or a link made
    /// now keeps it.
    pub fn switch(self, lang: Lang) {
        if lang == self.lang.get_untracked() {
            return;
        }
        self.switching.set(Some(Ok(lang)));
        leptos::task::spawn_local(async move {
            match load(lang).await {
                Ok(()) => {
                    location::set_query_param("lang", lang.code());
                    self.switching.set(None);
                    self.lang.set(lang);
                }
                Err(e) => self.switching.set(Some(Err(e))),
            }
        });
    }
}

impl Default for Words {
    fn default() -> Self {
        Self::new()
    }
}
