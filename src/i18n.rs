//! The page's words in the reader's language.
//!
//! The language comes from `?lang=`, else the browser's preferred
//! languages, else English, as `index.html`'s head script picks it (and
//! starts loading the page's part of its texts, `www/i18n/LANG.json`, only
//! that language's) before anything is drawn; the app mounts once that part
//! is in. The texts of runs and their results (`LANG.runs.json`) come when
//! the first run starts or the first result link opens, those of the
//! comparisons with native numbers (`LANG.compare.json`) when the reader
//! first reaches one ([`part_ready`]), so a reader who only reads the top
//! of the page fetches neither.
//!
//! Views ask for texts with [`t`] and [`tr`] while they render, as plain
//! strings, not signals: a reader who picks another language gets the page
//! rendered anew ([`Words::switch`]), while the runs, which live in
//! contexts above the rendered page, stay.

use js_sys::Object;
use leptos::prelude::*;
use std::cell::RefCell;
use waitlab_browser::{catalog, location};
use waitlab_core::key;
use waitlab_core::lang::Lang;
use waitlab_core::text::{Catalog, Key, Part, Phrase};

thread_local! {
    static CURRENT: RefCell<Option<Catalog>> = const { RefCell::new(None) };
    /// The parts besides the page's that [`CURRENT`] holds.
    static HAS: RefCell<Vec<Part>> = const { RefCell::new(Vec::new()) };
}

fn with<T>(f: impl FnOnce(&Catalog) -> T) -> T {
    CURRENT.with(|c| {
        f(c.borrow()
            .as_ref()
            .expect("the catalog loads before the app mounts"))
    })
}

/// `f` of the reader's catalog (for core's writers that word what they
/// write).
pub fn with_catalog<T>(f: impl FnOnce(&Catalog) -> T) -> T {
    with(f)
}

/// The text of `key`.
pub fn t(key: Key) -> String {
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

/// A whole count in the reader's language, its digits grouped.
pub fn count(n: u64) -> String {
    lang().count(n)
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

/// `part` of `lang`'s texts, else of English's if that one cannot be
/// loaded, and the language they are in.
async fn fetch(lang: Lang, part: Part) -> Result<(Lang, Object), String> {
    match catalog::fetch_texts(lang, part).await {
        Err(_) if lang != Lang::En => Ok((Lang::En, catalog::fetch_texts(Lang::En, part).await?)),
        other => Ok((lang, other?)),
    }
}

fn has(part: Part) -> bool {
    HAS.with_borrow(|has| has.contains(&part))
}

/// Makes `lang`'s texts the page's: the page's part, and the other parts
/// the page has needed already.
/// Falls back to English where `lang`'s cannot be loaded.
pub async fn load(lang: Lang) -> Result<(), String> {
    let (lang, page) = fetch(lang, Part::Page).await?;
    // Checked after the page's part is in, so a part needed meanwhile
    // comes in this language too.
    let parts = HAS.with_borrow(Vec::clone);
    let mut later = Vec::new();
    for &part in &parts {
        later.push(fetch(lang, part).await?.1);
    }
    let mut texts = Catalog::new(lang);
    for part in std::iter::once(&page).chain(&later) {
        catalog::add_texts(&mut texts, part)?;
    }
    catalog::set_document_language(lang, &texts.text(key!("page.title")));
    CURRENT.set(Some(texts));
    // A part that came in the old language while these were fetched is
    // not in the new catalog: it is fetched again when next needed.
    HAS.set(parts);
    Ok(())
}

/// Makes sure `part`'s texts are in, fetching them the first time: a run,
/// a run opened from a link or a comparison awaits this before it shows
/// anything. The error is a phrase of the page's own part.
pub async fn part_ready(part: Part) -> Result<(), Phrase> {
    let failed = |e| Phrase::new(key!("page.texts_failed")).data("why", e);
    while part != Part::Page && !has(part) {
        let asked = lang();
        let (_, texts) = fetch(asked, part).await.map_err(failed)?;
        // Another language may have been picked meanwhile: then its own.
        if has(part) || lang() != asked {
            continue;
        }
        CURRENT
            .with(|c| catalog::add_texts(c.borrow_mut().as_mut().expect("loaded"), &texts))
            .map_err(failed)?;
        HAS.with_borrow_mut(|has| has.push(part));
    }
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
