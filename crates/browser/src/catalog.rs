//! The reader's language and its catalog, as the browser gives them: the
//! page's `<html lang>` (set by `index.html`'s head script), and each part
//! of its texts (`i18n/LANG.json`, `i18n/LANG.runs.json`) fetched and
//! parsed by the browser's own `JSON.parse` (so the page links no JSON
//! reader). Window only.

use crate::fetch::fetch_bytes;
use js_sys::{Array, JsString, Object};
use waitlab_core::lang::{Lang, Plural};
use waitlab_core::text::{Catalog, Entry, Part};
use wasm_bindgen::{JsCast, JsValue};

/// The page's `<html lang>`, if set.
pub fn document_language() -> Option<String> {
    let html = web_sys::window()?.document()?.document_element()?;
    html.get_attribute("lang").filter(|l| !l.is_empty())
}

/// `part` of `lang`'s texts as the browser's `JSON.parse` read them; add
/// them to a catalog with [`add_texts`] (no await in between, so a catalog
/// in use is never taken away while its texts arrive).
pub async fn fetch_texts(lang: Lang, part: Part) -> Result<Object, String> {
    let url = format!("i18n/{}", part.file(lang));
    let bytes = fetch_bytes(&url)
        .await
        .map_err(|_| format!("{url} could not be loaded"))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("{url} is not UTF-8 text"))?;
    let value = js_sys::JSON::parse(&text).map_err(|_| format!("{url} is not JSON"))?;
    value
        .dyn_into()
        .map_err(|_| format!("{url} is not a JSON object"))
}

/// Adds `texts` (from [`fetch_texts`]) to `catalog`, checked to be texts
/// and plural forms.
pub fn add_texts(catalog: &mut Catalog, texts: &Object) -> Result<(), String> {
    for pair in Object::entries(texts).iter() {
        let pair: Array = pair.unchecked_into();
        let key = pair.get(0).as_string().unwrap_or_default();
        let value = pair.get(1);
        let entry = match value.as_string() {
            Some(t) => Entry::Text(t),
            None => Entry::Plural(
                plural_forms(&value)
                    .ok_or_else(|| format!("{key} is neither a text nor plural forms"))?,
            ),
        };
        catalog.insert(&key, entry);
    }
    Ok(())
}

fn plural_forms(value: &JsValue) -> Option<Vec<(Plural, String)>> {
    let object: &Object = value.dyn_ref()?;
    Object::entries(object)
        .iter()
        .map(|pair| {
            let pair: Array = pair.unchecked_into();
            let name = pair.get(0).as_string()?;
            let text = pair.get(1).dyn_into::<JsString>().ok()?;
            Some((Plural::from_name(&name)?, String::from(text)))
        })
        .collect()
}

/// Sets `<html lang>` (and the page's title, already in its language).
pub fn set_document_language(lang: Lang, title: &str) {
    if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
        if let Some(html) = doc.document_element() {
            let _ = html.set_attribute("lang", lang.code());
        }
        doc.set_title(title);
    }
}
