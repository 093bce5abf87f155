//! The page's address (share payloads in the fragment, `?embed=`), the
//! clipboard, and messages to an embedding page. Window only.

use super::js_error_message;
pub use waitlab_core::experiments::EMBED_HEIGHT_MESSAGE as HEIGHT_MESSAGE;
use waitlab_core::link;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

fn window() -> web_sys::Window {
    web_sys::window().expect("page code runs in a window")
}

/// The fragment without its `#`, as the runs it carries and the secret
/// an embedding host appended (WordPress's; see `link::host_secret`).
fn fragment_parts() -> (String, Option<String>) {
    let hash = window().location().hash().unwrap_or_default();
    let (runs, secret) = link::host_secret(hash.strip_prefix('#').unwrap_or(&hash));
    (runs.to_owned(), secret.map(str::to_owned))
}

/// The fragment without its `#` and without the secret an embedding
/// host appended (empty if none).
pub fn fragment() -> String {
    fragment_parts().0
}

/// The secret the embedding host appended to the address, which the
/// page's own fragment updates keep ([`replace_fragment`]).
fn host_secret() -> Option<String> {
    fragment_parts().1
}

/// The value of query parameter `name`, URI-decoded, if present.
pub fn query_param(name: &str) -> Option<String> {
    let search = window().location().search().unwrap_or_default();
    search
        .trim_start_matches('?')
        .split('&')
        .filter_map(|pair| pair.split_once('=').or(Some((pair, ""))))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| {
            js_sys::decode_uri_component(v)
                .ok()
                .and_then(|s| s.as_string())
                .unwrap_or_default()
        })
}

/// Sets query parameter `name` to `value` in the address (keeping the
/// others and the fragment), without a history entry or a reload.
pub fn set_query_param(name: &str, value: &str) {
    let search = window().location().search().unwrap_or_default();
    let mut pairs: Vec<String> = search
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty() && p.split('=').next() != Some(name))
        .map(str::to_owned)
        .collect();
    pairs.push(format!(
        "{name}={}",
        String::from(js_sys::encode_uri_component(value))
    ));
    let hash = window().location().hash().unwrap_or_default();
    let url = format!("{}?{}{hash}", page_url(), pairs.join("&"));
    if let Ok(history) = window().history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

/// The page's address without query or fragment.
pub fn page_url() -> String {
    let l = window().location();
    format!(
        "{}{}",
        l.origin().unwrap_or_default(),
        l.pathname().unwrap_or_default()
    )
}

/// The address of the file `name` beside this page (the folder's own
/// address for `""`, which serves the full page): the full page and the
/// embed's page (`embed.html`) link to each other with it.
pub fn beside_page(name: &str) -> String {
    let l = window().location();
    let path = l.pathname().unwrap_or_default();
    let folder = path.rfind('/').map_or("/", |end| &path[..=end]);
    format!("{}{folder}{name}", l.origin().unwrap_or_default())
}

/// Replaces the fragment without adding a history entry or reloading
/// (keeping the secret the embedding host appended at its end).
pub fn replace_fragment(fragment: &str) {
    let secret = host_secret().map(|s| format!("{}{s}", link::HOST_SECRET));
    let hash = match (fragment, secret) {
        ("", None) => String::new(),
        (runs, None) => format!("#{runs}"),
        ("", Some(secret)) => format!("#{secret}"),
        (runs, Some(secret)) => format!("#{runs}#{secret}"),
    };
    let url = format!(
        "{}{}{hash}",
        page_url(),
        window().location().search().unwrap_or_default()
    );
    if let Ok(history) = window().history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

/// Copies `text` to the clipboard.
pub async fn copy_text(text: &str) -> Result<(), String> {
    let navigator = window().navigator();
    let clipboard = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard"))
        .ok()
        .filter(|c| !c.is_undefined())
        .ok_or("this browser gives the page no clipboard")?;
    let write: js_sys::Function = js_sys::Reflect::get(&clipboard, &JsValue::from_str("writeText"))
        .map_err(|e| js_error_message(&e))?
        .dyn_into()
        .map_err(|_| "this browser's clipboard cannot write text".to_owned())?;
    let promise: js_sys::Promise = write
        .call1(&clipboard, &JsValue::from_str(text))
        .map_err(|e| js_error_message(&e))?
        .dyn_into()
        .map_err(|_| "the clipboard did not answer".to_owned())?;
    JsFuture::from(promise)
        .await
        .map(drop)
        .map_err(|e| js_error_message(&e))
}

/// The page this one is framed in, if it is in a frame.
pub fn embedding_window() -> Option<web_sys::Window> {
    let w = window();
    w.parent().ok().flatten().filter(|parent| *parent != w)
}

/// Tells the embedding page (if any) the document's height, as
/// `{ type: "waitlab:height", height }` and, to a host that gave a secret,
/// as WordPress's `{ message: "height", value, secret }`.
pub fn post_height() {
    let (Some(parent), Some(root)) = (
        embedding_window(),
        window().document().and_then(|d| d.document_element()),
    ) else {
        return;
    };
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&message, &"type".into(), &HEIGHT_MESSAGE.into());
    // The content's height: the root's box, not its scroll height, which
    // is never less than the frame's own height and so could only grow.
    let height = JsValue::from_f64(root.get_bounding_client_rect().height().ceil());
    let _ = js_sys::Reflect::set(&message, &"height".into(), &height);
    let _ = parent.post_message(&message, "*");
    if let Some(secret) = host_secret() {
        let message = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&message, &"message".into(), &"height".into());
        let _ = js_sys::Reflect::set(&message, &"value".into(), &height);
        let _ = js_sys::Reflect::set(&message, &"secret".into(), &secret.as_str().into());
        let _ = parent.post_message(&message, "*");
    }
}
