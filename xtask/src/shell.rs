//! `cargo xtask shell`: the page's words before the wasm has started.
//!
//! `index.html` carries a static copy of the page's headings and
//! explanations (between `<!-- shell -->` and `<!-- /shell -->`), written
//! from the English catalog, so a first visit reads at once; the app
//! replaces it when it mounts. Each text's element names its key
//! (`data-t`): a reader of another language sees the same layout with its
//! words blanked (the head's script marks the page `shell-neutral`),
//! never English, until the head's script has the page's texts in that
//! language (a request it starts before the body is read, and hands on to
//! the app) and writes them in. A test keeps the copy fresh.

use crate::{Result, root};
use waitlab_core::experiments::Experiment;
use waitlab_core::lang::Lang;
use waitlab_core::text::{Catalog, Key, Part};

const OPEN: &str = "<!-- shell -->";
const CLOSE: &str = "<!-- /shell -->";

/// `text` for HTML, as an element's text or a quoted attribute's value.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The shell's HTML, from the English catalog, whose keys are `names`.
pub fn html(en: &Catalog, names: &[String]) -> Result<String> {
    // `data-t="name">text`, for the element that holds a text.
    let t = |key: Key| -> Result<String> {
        let name = crate::facade::name_of(key, names)?;
        Ok(format!("data-t=\"{name}\">{}", escape(&en.text(key))))
    };
    let mut out = String::new();
    out.push_str(&format!(
        "{OPEN}\n    <div id=\"shell\" class=\"shell\" aria-busy=\"true\">\n      \
         <header class=\"site\"><div class=\"site-bar\"><h1>waitlab</h1></div>\
         <p class=\"tagline\" {}</p></header>\n      <main>\n",
        t(Key::of("page.tagline"))?
    ));
    let card = |heading: &str, lead: &str| -> Result<String> {
        Ok(format!(
            "        <section class=\"card\"><h2 {}</h2><p class=\"lead\" {}</p></section>\n",
            t(Key::of(heading))?,
            t(Key::of(lead))?
        ))
    };
    out.push_str(&card("runall.heading", "runall.lead")?);
    out.push_str(&card("env.heading", "env.lead")?);
    out.push_str(&card("share.heading", "share.lead")?);
    out.push_str(&card("reference.heading", "reference.lead")?);
    for experiment in Experiment::ALL {
        out.push_str(&format!(
            "        <section class=\"card experiment\"><h2><span class=\"num-badge\">{}</span> <span {}</span></h2><div class=\"explain\">",
            experiment.badge(),
            t(experiment.heading())?
        ));
        for paragraph in experiment.explanation() {
            out.push_str(&format!("<p {}</p>", t(paragraph)?));
        }
        out.push_str("</div></section>\n");
    }
    out.push_str(&format!("      </main>\n    </div>\n    {CLOSE}"));
    Ok(out)
}

/// `index.html` with its shell written from the English catalog.
fn with_shell(index: &str) -> Result<String> {
    let part = crate::catalogs::part(&root().join("www/i18n"), Lang::En, Part::Page)?;
    let names: Vec<String> = part.keys().cloned().collect();
    let en = Catalog::from_json(Lang::En, &serde_json::Value::Object(part).to_string())?;
    let start = index
        .find(OPEN)
        .ok_or("index.html has no <!-- shell --> marker")?;
    let end = index
        .find(CLOSE)
        .ok_or("index.html has no <!-- /shell --> marker")?
        + CLOSE.len();
    Ok(format!(
        "{}{}{}",
        &index[..start],
        html(&en, &names)?,
        &index[end..]
    ))
}

/// The built `index.html` (minified or not) without its shell: the
/// embed's page, `embed.html`, which an iframe loads without the bytes of
/// the full page's words. The shell is the element whose id is `shell`,
/// with every `<div>` inside it (`html` writes no other nesting).
pub fn without_shell(index: &str) -> Result<String> {
    let id = ["id=\"shell\"", "id=shell"]
        .iter()
        .find_map(|id| index.find(id))
        .ok_or("the built index.html has no element with id shell")?;
    let start = index[..id]
        .rfind("<div")
        .ok_or("the shell's id is not on a <div>")?;
    let mut depth = 0usize;
    let mut at = start;
    loop {
        let open = index[at..].find("<div").map(|i| at + i);
        let close = index[at..]
            .find("</div>")
            .map(|i| at + i)
            .ok_or("the built index.html's shell is not closed")?;
        match open {
            Some(open) if open < close => {
                depth += 1;
                at = open + "<div".len();
            }
            _ => {
                depth -= 1;
                at = close + "</div>".len();
                if depth == 0 {
                    return Ok(format!("{}{}", &index[..start], &index[at..]));
                }
            }
        }
    }
}

/// Rewrites the shell in `index.html`.
pub fn write() -> Result {
    let path = root().join("index.html");
    let index = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    std::fs::write(&path, with_shell(&index)?).map_err(|e| format!("{}: {e}", path.display()))?;
    println!("xtask: wrote the shell of {}", path.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    /// The embed's page is `index.html` without the shell, as written and
    /// as a minifier leaves it (unquoted attributes, no comments).
    #[test]
    fn the_embed_page_has_no_shell() {
        let index = std::fs::read_to_string(crate::root().join("index.html")).unwrap();
        let embed = super::without_shell(&index).unwrap();
        assert!(!embed.contains("id=\"shell\"") && !embed.contains("data-t="));
        assert!(embed.contains("<!-- shell -->\n    \n    <!-- /shell -->"));
        assert!(embed.contains("<noscript>") && embed.ends_with("</html>\n"));
        let minified = "<body><div class=shell id=shell><header><div class=a>x</div></header>\
            <main><section><div class=explain><p>y</p></div></section></main></div><noscript>z</noscript></body>";
        assert_eq!(
            super::without_shell(minified).unwrap(),
            "<body><noscript>z</noscript></body>"
        );
        assert!(super::without_shell("<body><div id=shell><div></div></body>").is_err());
    }

    /// `index.html`'s shell is what the English catalog gives: run `cargo
    /// xtask shell` after changing a heading or an explanation.
    #[test]
    fn the_shell_is_fresh() {
        let index = std::fs::read_to_string(crate::root().join("index.html")).unwrap();
        assert!(
            super::with_shell(&index).unwrap() == index,
            "index.html's shell is stale: run cargo xtask shell"
        );
    }
}
