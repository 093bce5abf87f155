//! `cargo xtask post-build`, trunk's post-build hook (Trunk.toml). It runs
//! in the staging directory, before trunk moves the build into `dist/`, so
//! `serve` and `dist` ship the same files:
//! - it splits the app's wasm into a main module and chunks loaded on
//!   demand (`split.rs`), in every build;
//! - in a release build it minifies the wasm-bindgen glue and the chunks'
//!   loader with terser, since trunk's own minifier cannot parse the glue
//!   (`export default`) and ships it as written, and the pages' own
//!   scripts (`embed.js`, `head.js`);
//! - it rewrites index.html's integrity (SRI) of every file it changed;
//! - it writes each language's catalog parts compact, each experiment's
//!   texts merged in (`i18n/*.json`, `catalogs.rs`);
//! - it writes the embed's page, `embed.html`: index.html without the
//!   full page's static shell (`shell.rs`), which shows its first screen
//!   and fetches the app when the reader presses Run (`facade.rs`);
//! - it leaves the pages no inline script, so that their
//!   Content-Security-Policy can allow scripts by origin alone: trunk's
//!   start-up script goes to a file of its own, `start-HASH.js`;
//! - it writes the policy `_headers` gives every path into both pages as
//!   a `<meta http-equiv>`, for hosts that send no headers (`headers.rs`).

use crate::tools::{self, find_in};
use crate::{Result, run, split};
use base64::Engine;
use sha2::{Digest, Sha384};
use std::path::{Path, PathBuf};
use std::process::Command;
use waitlab_core::lang::Lang;
use waitlab_core::text::{Catalog, Part};

/// The integrity attribute's value for `bytes`, as trunk writes it.
fn integrity(bytes: &[u8]) -> String {
    format!(
        "sha384-{}",
        base64::engine::general_purpose::STANDARD.encode(Sha384::digest(bytes))
    )
}

fn read(file: &Path) -> Result<Vec<u8>> {
    std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))
}

/// index.html of the staging directory, kept in step with the files the
/// hook changes.
struct Index {
    path: PathBuf,
    html: String,
}

impl Index {
    fn read(staging: &Path) -> Result<Index> {
        let path = staging.join("index.html");
        let html = String::from_utf8(read(&path)?).map_err(|e| format!("index.html: {e}"))?;
        Ok(Index { path, html })
    }

    /// Writes `bytes` over the staged `file`, and the new integrity where
    /// index.html gave the old one.
    fn replace(&mut self, file: &Path, bytes: &[u8]) -> Result {
        let (old, new) = (integrity(&read(file)?), integrity(bytes));
        std::fs::write(file, bytes).map_err(|e| format!("{}: {e}", file.display()))?;
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        if self.html.contains(&old) {
            self.html = self.html.replace(&old, &new);
        } else if self.html.contains(name.as_ref()) && self.html.contains("integrity") {
            return Err(format!(
                "index.html loads {name} with an integrity that is not its own"
            ));
        }
        Ok(())
    }

    /// Writes index.html, and beside it the embed's page: the same without
    /// the full page's shell, showing its first screen instead of starting
    /// the app (`facade.rs`). Both carry the policy `_headers` gives every
    /// path (which names the site's address `site` beside `'self'`:
    /// `headers::naming_site`), and index.html starts the app from a file.
    fn write(self, site: &str) -> Result {
        let staging = self.path.parent().ok_or("index.html has no folder")?;
        let names = crate::facade::key_names(&staging.join("i18n"))?;
        let headers = staging.join("_headers");
        let file = crate::headers::naming_site(&String::from_utf8_lossy(&read(&headers)?), site);
        std::fs::write(&headers, &file).map_err(|e| format!("_headers: {e}"))?;
        let rules = crate::headers::rules(&file)?;
        let policy = crate::headers::page_policy(&rules)?;
        let embed = self.path.with_file_name("embed.html");
        let embed_page = with_policy(&crate::facade::page(&self.html, &names)?, &policy)?;
        std::fs::write(&embed, embed_page).map_err(|e| format!("{}: {e}", embed.display()))?;
        let (html, file, script) = start_script_to_file(&self.html)?;
        std::fs::write(staging.join(&file), script).map_err(|e| format!("{file}: {e}"))?;
        std::fs::write(&self.path, with_policy(&html, &policy)?)
            .map_err(|e| format!("{}: {e}", self.path.display()))
    }
}

/// `html` with `policy` in a `<meta http-equiv>` right after its charset,
/// ahead of every script it governs.
fn with_policy(html: &str, policy: &str) -> Result<String> {
    let charset = "<meta charset=utf-8>";
    let at = html
        .find(charset)
        .ok_or("the page has no <meta charset=utf-8> to put its policy after")?
        + charset.len();
    if policy.contains('"') {
        return Err("the policy has a double quote, which its attribute cannot hold".into());
    }
    Ok(format!(
        "{}<meta content=\"{policy}\" http-equiv=Content-Security-Policy>{}",
        &html[..at],
        &html[at..]
    ))
}

/// trunk's inline start-up script moved into a file: the page loading
/// it, the file's name (`start-` and 16 hex digits of its hash, like
/// trunk's own names) and its text, which starts the app as trunk's does
/// (without trunk's start event and global, which nothing uses).
fn start_script_to_file(html: &str) -> Result<(String, String, String)> {
    let start = crate::facade::trunk_start(html)?;
    let script = format!(
        "import init from '{}';\ninit({{ module_or_path: '{}' }});\n",
        start.glue, start.wasm
    );
    let hash: String = Sha384::digest(script.as_bytes())[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let file = format!("start-{hash}.js");
    // Beside the glue, as trunk puts it (at the root unless a public URL
    // says otherwise).
    let folder = &start.glue[..start.glue.rfind('/').map_or(0, |i| i + 1)];
    let tag = format!(
        "<script integrity={} src={folder}{file} type=module></script>",
        integrity(script.as_bytes())
    );
    let page = format!("{}{tag}{}", &html[..start.at], &html[start.end..]);
    Ok((page, file, script))
}

/// The script `file` minified by terser (as an ES module, whose top-level
/// names terser may shorten, or as a classic script, whose globals it
/// keeps).
fn minified(terser: &Path, file: &Path, module: bool) -> Result<Vec<u8>> {
    let before = read(file)?;
    let out = file.with_extension("min.js");
    let mut cmd = Command::new("node");
    cmd.arg(terser)
        .arg(file)
        .args(["--compress", "--mangle", "--output"])
        .arg(&out);
    if module {
        cmd.arg("--module");
    }
    run(&mut cmd)?;
    let after = read(&out)?;
    std::fs::remove_file(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!(
        "xtask: minified {}: {} -> {} bytes",
        file.display(),
        before.len(),
        after.len()
    );
    Ok(after)
}

/// Minifies `file` in place, and its integrity where index.html has one.
fn minify(terser: &Path, file: &Path, module: bool, index: &mut Index) -> Result {
    index.replace(file, &minified(terser, file, module)?)
}

/// Minifies `file` in place: a script the pages load without an
/// integrity (`head.js`, which must run before anything else).
fn minify_plain(terser: &Path, file: &Path) -> Result {
    let after = minified(terser, file, false)?;
    std::fs::write(file, after).map_err(|e| format!("{}: {e}", file.display()))
}

fn copy_folder(from: &Path, to: &Path) -> Result {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    for entry in std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))? {
        let file = entry.map_err(|e| e.to_string())?.path();
        let dest = to.join(file.file_name().unwrap_or_default());
        std::fs::copy(&file, &dest).map_err(|e| format!("{}: {e}", dest.display()))?;
    }
    Ok(())
}

/// Runs as trunk's hook.
pub fn hook() -> Result {
    let release = std::env::var("TRUNK_PROFILE").as_deref() == Ok("release");
    let staging = PathBuf::from(
        std::env::var_os("TRUNK_STAGING_DIR")
            .ok_or("TRUNK_STAGING_DIR is not set: post-build runs as trunk's post-build hook")?,
    );
    crate::catalogs::write_parts(&staging.join("i18n"))?;
    let mut index = Index::read(&staging)?;
    let split = split::split(&staging, release)?;
    index.replace(&find_in(&staging, "app.js")?, &read(&split.glue)?)?;
    index.replace(&find_in(&staging, "app_bg.wasm")?, &read(&split.wasm)?)?;
    let folder = staging.join(&split.folder);
    copy_folder(&split.chunks, &folder)?;
    if release {
        let terser = tools::ensure_terser()?;
        minify(&terser, &find_in(&staging, "app.js")?, true, &mut index)?;
        minify(&terser, &find_in(&staging, "worker.js")?, false, &mut index)?;
        minify(&terser, &folder.join("split.js"), true, &mut index)?;
        minify(&terser, &staging.join("embed.js"), false, &mut index)?;
        minify_plain(&terser, &staging.join("head.js"))?;
    }
    let site = crate::oembed::site_url()?;
    index.write(&site)?;
    let page = crate::catalogs::part_json(&staging.join("i18n"), Lang::En, Part::Page)?;
    let en = Catalog::from_json(Lang::En, &page)?;
    crate::oembed::write(&staging, &site, &en)
}

#[cfg(test)]
mod tests {
    const PAGE: &str = "<!doctype html><html lang=en><meta charset=utf-8><script src=head.js></script>\
        <script type=module>import init, * as bindings from '/app-9.js';\n\nconst wasm = await init({ module_or_path: '/app-9_bg.wasm' });\n</script>\
        <link href=/app-9.js rel=modulepreload>";

    #[test]
    fn the_page_starts_the_app_from_a_file_under_its_policy() {
        let (page, file, script) = super::start_script_to_file(PAGE).unwrap();
        assert!(file.starts_with("start-") && file.len() == "start-.js".len() + 16);
        assert_eq!(
            script,
            "import init from '/app-9.js';\ninit({ module_or_path: '/app-9_bg.wasm' });\n"
        );
        assert!(!page.contains("<script type=module>") && !page.contains("import init"));
        assert!(page.contains(&format!(
            "<script integrity={} src=/{file} type=module></script><link",
            super::integrity(script.as_bytes())
        )));
        let page = super::with_policy(&page, "default-src 'none'").unwrap();
        assert!(page.starts_with(
            "<!doctype html><html lang=en><meta charset=utf-8><meta content=\"default-src 'none'\" http-equiv=Content-Security-Policy><script src=head.js>"
        ));
        assert!(super::with_policy("<p>", "a").is_err());
        assert!(super::with_policy(PAGE, "a \"b\"").is_err());
    }

    #[test]
    fn integrity_is_trunks_sri() {
        // `printf abc | openssl dgst -sha384 -binary | base64`
        assert_eq!(
            super::integrity(b"abc"),
            "sha384-ywB1P0WjXou1oD1pmsZQBycsMqsO3tFjGotgWkP/W+2AhgcroefMI1i67KE0yCWn"
        );
    }
}
