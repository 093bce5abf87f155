//! The embed's page, `embed.html`, written by `cargo xtask post-build`
//! from the built `index.html`: without the full page's static shell
//! (`shell.rs`), and without starting the app. Its first screen is
//! `www/embed.js`'s: the experiment's heading and explanation and a Run
//! button, in the reader's language, and the app (most of an embed's
//! bytes) is fetched when the reader presses Run. This module gives that
//! script, as JSON in the page, what it needs: the app's glue and wasm
//! (as trunk's start-up script named them), the height message's type,
//! the catalog keys of its words and of each experiment's heading and
//! first explanation, and what each experiment's screen says of shared
//! memory in each state the page can detect (core's
//! `shared_memory::embed_note`, as phrases the script fills in).

use crate::Result;
use serde_json::{Map, Value, json};
use std::path::Path;
use waitlab_core::experiments::{EMBED_HEIGHT_MESSAGE, Experiment};
use waitlab_core::lang::Lang;
use waitlab_core::shared_memory::{self, Off};
use waitlab_core::text::{Arg, Key, Part, Phrase};

/// The words of the first screen: what `embed.js` calls each, and its
/// catalog key (in the page's part: the screen shows before anything else
/// is fetched).
pub const KEYS: [(&str, &str); 7] = [
    ("run", "run.run"),
    ("separator", "list.separator"),
    ("settings", "embed.settings"),
    ("hint", "embed.hint"),
    ("loading", "embed.loading"),
    ("failed", "embed.load_failed"),
    ("open", "embed.open"),
];

/// The text between `start` and the next `end` after it in `html`.
fn between<'a>(html: &'a str, start: &str, end: &str) -> Result<&'a str> {
    let from = html
        .find(start)
        .ok_or_else(|| format!("the built index.html has no {start:?}"))?
        + start.len();
    let to = html[from..]
        .find(end)
        .ok_or_else(|| format!("the built index.html's {start:?} is not closed"))?;
    Ok(&html[from..from + to])
}

/// `html` without every `<link …>` that names `file`.
fn without_links(html: &str, file: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find("<link") {
        let len = rest[at..].find('>').map_or(rest.len() - at, |e| e + 1);
        out.push_str(&rest[..at]);
        if !rest[at..at + len].contains(file) {
            out.push_str(&rest[at..at + len]);
        }
        rest = &rest[at + len..];
    }
    out.push_str(rest);
    out
}

/// The keys of the English catalog's page part in the folder `i18n`.
pub fn key_names(i18n: &Path) -> Result<Vec<String>> {
    let page = crate::catalogs::part(i18n, Lang::En, Part::Page)?;
    Ok(page.into_iter().map(|(name, _)| name).collect())
}

/// The name of `key` among the catalog's `names`.
pub(crate) fn name_of(key: Key, names: &[String]) -> Result<&str> {
    names
        .iter()
        .find(|n| Key::of(n) == key)
        .map(String::as_str)
        .ok_or_else(|| "the English catalog lacks a key the embed's screen shows".into())
}

/// The states of shared memory the screen tells apart, by the names
/// `embed.js` gives them: on, and each reason it is off.
const STATES: [(&str, Option<Off>); 4] = [
    ("on", None),
    ("host", Some(Off::HostNotIsolated)),
    ("frame", Some(Off::FrameNotIsolatable)),
    ("no_sab", Some(Off::NoSharedArrayBuffer)),
];

/// `phrase` for `embed.js`: `{key: name, args: {placeholder: value}}`, each
/// value code (a string), a phrase (an object) or a list of phrases (an
/// array). Fails on an argument the script cannot fill in (it formats no
/// numbers).
fn phrase_json(phrase: &Phrase, names: &[String]) -> Result<Value> {
    let mut args = Map::new();
    for (name, arg) in &phrase.args {
        let value = match arg {
            Arg::Code(code) => Value::from(code.as_ref()),
            Arg::Phrase(inner) => phrase_json(inner, names)?,
            Arg::List(items) => items
                .iter()
                .map(|p| phrase_json(p, names))
                .collect::<Result<Vec<_>>>()?
                .into(),
            other => return Err(format!("the embed's screen cannot show {other:?}")),
        };
        args.insert(name.to_string(), value);
    }
    Ok(json!({ "key": name_of(phrase.key, names)?, "args": args }))
}

/// What the screen says of shared memory for `e`, by state: whether it
/// runs, and its note's phrases.
fn shared_memory_json(e: Experiment, names: &[String]) -> Result<Value> {
    let mut states = Map::new();
    for (state, off) in STATES {
        let note = shared_memory::embed_note(e, off)
            .iter()
            .map(|p| phrase_json(p, names))
            .collect::<Result<Vec<_>>>()?;
        states.insert(
            state.to_owned(),
            json!([shared_memory::runs_in_embed(e, off), note]),
        );
    }
    Ok(Value::Object(states))
}

/// trunk's start-up script in a built page: `import init, * as bindings
/// from '<glue>';` and `init({ module_or_path: '<wasm>' })`.
pub struct TrunkStart<'a> {
    pub glue: &'a str,
    pub wasm: &'a str,
    /// Where its `<script>` begins.
    pub at: usize,
    /// Just after its `</script>`.
    pub end: usize,
}

/// Finds trunk's start-up script in `html`.
pub fn trunk_start(html: &str) -> Result<TrunkStart<'_>> {
    let glue = between(html, "import init, * as bindings from '", "'")?;
    let wasm = between(html, "module_or_path: '", "'")?;
    let at = html[..html.find("import init").unwrap_or(0)]
        .rfind("<script")
        .ok_or("trunk's start-up script has no <script>")?;
    let end = at
        + html[at..]
            .find("</script>")
            .ok_or("trunk's start-up script is not closed")?
        + "</script>".len();
    Ok(TrunkStart {
        glue,
        wasm,
        at,
        end,
    })
}

/// The embed's page from the built `index.html`; `names` are the keys of
/// the English catalog's page part.
pub fn page(index: &str, names: &[String]) -> Result<String> {
    let html = crate::shell::without_shell(index)?;
    let TrunkStart {
        glue,
        wasm,
        at: script_at,
        end: script_end,
    } = trunk_start(&html)?;
    let mut experiments = Map::new();
    for e in Experiment::ALL {
        let first = *e
            .explanation()
            .first()
            .ok_or("an experiment without an explanation")?;
        experiments.insert(
            e.slug().to_owned(),
            json!([
                e.badge(),
                name_of(e.heading(), names)?,
                name_of(first, names)?,
                shared_memory_json(e, names)?
            ]),
        );
    }
    let boot = json!({
        "app": glue,
        "wasm": wasm,
        "height": EMBED_HEIGHT_MESSAGE,
        "keys": KEYS.iter().map(|(role, key)| (role.to_string(), Value::from(*key))).collect::<Map<_, _>>(),
        "experiments": experiments,
    })
    .to_string()
    .replace("</", "<\\/");
    // The script beside the glue, wherever the build puts the app.
    let folder = &glue[..glue.rfind('/').map_or(0, |i| i + 1)];
    let start = format!(
        "<script id=waitlab-embed type=application/json>{boot}</script>\
         <script defer src={folder}embed.js></script>"
    );
    let (glue, wasm) = (glue.to_owned(), wasm.to_owned());
    let html = format!("{}{start}{}", &html[..script_at], &html[script_end..]);
    Ok(checked_across_origins(&without_links(
        &without_links(&html, &glue),
        &wasm,
    )))
}

/// `html` with `crossorigin` on every `<link>` that carries an integrity:
/// a frame sandboxed without `allow-same-origin` (an opaque origin)
/// fetches even its own site's files across origins, and the browser
/// checks an integrity only on a CORS response (without the attribute,
/// the style sheet is refused there).
fn checked_across_origins(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find("<link ") {
        let len = rest[at..].find('>').map_or(rest.len() - at, |e| e + 1);
        let tag = &rest[at..at + len];
        out.push_str(&rest[..at]);
        if tag.contains(" integrity=") && !tag.contains("crossorigin") {
            out.push_str("<link crossorigin ");
            out.push_str(&tag["<link ".len()..]);
        } else {
            out.push_str(tag);
        }
        rest = &rest[at + len..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(lang: Lang) -> Vec<(String, serde_json::Value)> {
        let i18n = crate::root().join("www/i18n");
        let page = crate::catalogs::part(&i18n, lang, Part::Page).unwrap();
        page.into_iter().collect()
    }

    /// trunk's start-up script and its preloads are gone, the screen's
    /// script and data are in, and the data names every experiment.
    #[test]
    fn the_embed_page_starts_no_app() {
        let built = "<html><head><link href=/style-1.css rel=stylesheet>\
            <script type=module>import init, * as bindings from '/app-9.js';\n\
            const wasm = await init({ module_or_path: '/app-9_bg.wasm' });</script>\
            <link crossorigin href=/app-9.js integrity=sha384-x rel=modulepreload>\
            <link as=fetch crossorigin href=/app-9_bg.wasm rel=preload type=application/wasm></head>\
            <body><div class=shell id=shell><p>x</p></div><noscript>z</noscript></body></html>";
        let en = key_names(&crate::root().join("www/i18n")).unwrap();
        let page = page(built, &en).unwrap();
        assert!(!page.contains("import init") && !page.contains("rel=preload"));
        assert!(!page.contains("modulepreload") && !page.contains("id=shell"));
        assert!(page.contains("<link href=/style-1.css rel=stylesheet>"));
        assert_eq!(
            checked_across_origins(
                "<link href=/s.css integrity=sha384-x rel=stylesheet><link href=data:, rel=icon>"
            ),
            "<link crossorigin href=/s.css integrity=sha384-x rel=stylesheet><link href=data:, rel=icon>"
        );
        assert!(page.contains("<script defer src=/embed.js></script></head>"));
        let data = between(&page, "type=application/json>", "</script>").unwrap();
        let data: serde_json::Value = serde_json::from_str(data).unwrap();
        assert_eq!(data["app"], "/app-9.js");
        assert_eq!(data["wasm"], "/app-9_bg.wasm");
        assert_eq!(data["experiments"]["timed-waits"][1], "timed_waits.heading");
        assert_eq!(
            data["experiments"].as_object().unwrap().len(),
            Experiment::ALL.len()
        );
        assert!(super::page("<html><body></body></html>", &en).is_err());
    }

    /// Every word the screen shows is plain text in every language's
    /// page part (the script fills in `{detail}` and nothing else).
    #[test]
    fn the_screen_words_are_plain_in_every_language() {
        for lang in Lang::ALL {
            let catalog = names(lang);
            let text = |key: &str| {
                catalog
                    .iter()
                    .find(|(k, _)| k == key)
                    .and_then(|(_, v)| v.as_str())
                    .unwrap_or_else(|| panic!("{}: {key} is not a plain text", lang.code()))
                    .to_owned()
            };
            let all: Vec<String> = catalog.iter().map(|(k, _)| k.clone()).collect();
            for e in Experiment::ALL {
                for key in [e.heading(), e.explanation()[0]] {
                    let t = text(name_of(key, &all).unwrap());
                    assert!(!t.contains('{'), "{}: {t}", lang.code());
                }
            }
            for (_, key) in KEYS {
                let t = text(key);
                assert!(
                    !t.contains('{') || (key == "embed.load_failed" && t.contains("{detail}")),
                    "{}: {key}: {t}",
                    lang.code()
                );
            }
        }
    }

    /// What the screen says of shared memory fills in every placeholder
    /// in every language, and says which rows each state costs.
    #[test]
    fn the_shared_memory_notes_fill_in_every_language() {
        let en = key_names(&crate::root().join("www/i18n")).unwrap();
        fn placeholders_filled(phrase: &Value, catalog: &[(String, Value)], lang: Lang) {
            let (key, args) = (phrase["key"].as_str().unwrap(), &phrase["args"]);
            let text = catalog
                .iter()
                .find(|(k, _)| k == key)
                .and_then(|(_, v)| v.as_str())
                .unwrap_or_else(|| panic!("{}: {key} is not a plain text", lang.code()));
            for name in waitlab_core::text::placeholders(text) {
                let arg = &args[name];
                assert!(!arg.is_null(), "{}: {key} lacks {{{name}}}", lang.code());
                match arg {
                    Value::Array(items) => {
                        for item in items {
                            placeholders_filled(item, catalog, lang);
                        }
                    }
                    Value::Object(_) => placeholders_filled(arg, catalog, lang),
                    _ => {}
                }
            }
        }
        for e in Experiment::ALL {
            let states = shared_memory_json(e, &en).unwrap();
            assert_eq!(states["on"][0], true);
            assert_eq!(states["on"][1].as_array().unwrap().len(), 1);
            for lang in Lang::ALL {
                let catalog = names(lang);
                for (_, state) in states.as_object().unwrap() {
                    for phrase in state[1].as_array().unwrap() {
                        placeholders_filled(phrase, &catalog, lang);
                    }
                }
            }
        }
        let ladder = shared_memory_json(Experiment::SpinLadder, &en).unwrap();
        assert_eq!(ladder["frame"][0], false);
        let timed = shared_memory_json(Experiment::TimedWaits, &en).unwrap();
        let rows = &timed["host"][1][1]["args"]["rows"];
        assert_eq!(rows[0]["key"], "embed.row");
        assert_eq!(
            rows[0]["args"]["row"]["key"],
            "timed_waits.mechanism.worker_atomics_wait"
        );
    }
}
