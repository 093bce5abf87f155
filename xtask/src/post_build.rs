//! `cargo xtask post-build`, trunk's post-build hook (Trunk.toml). It runs
//! in the staging directory, before trunk moves the build into `dist/`, so
//! `serve` and `dist` ship the same files:
//! - it splits the app's wasm into a main module and chunks loaded on
//!   demand (`split.rs`), in every build;
//! - in a release build it minifies the wasm-bindgen glue and the chunks'
//!   loader with terser, since trunk's own minifier cannot parse the glue
//!   (`export default`) and ships it as written, and the pages' own
//!   scripts (`embed.js`, `coi.js`);
//! - it rewrites index.html's integrity (SRI) of every file it changed;
//! - it writes the catalogs compact (`i18n/*.json`);
//! - it writes the embed's page, `embed.html`: index.html without the
//!   full page's static shell (`shell.rs`), which shows its first screen
//!   and fetches the app when the reader presses Run (`facade.rs`).

use crate::tools::{self, find_in};
use crate::{Result, run, split};
use base64::Engine;
use sha2::{Digest, Sha384};
use std::path::{Path, PathBuf};
use std::process::Command;

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
    /// the app (`facade.rs`).
    fn write(self) -> Result {
        let names = crate::facade::key_names(&self.path.with_file_name("i18n"))?;
        let embed = self.path.with_file_name("embed.html");
        std::fs::write(&embed, crate::facade::page(&self.html, &names)?)
            .map_err(|e| format!("{}: {e}", embed.display()))?;
        std::fs::write(&self.path, self.html).map_err(|e| format!("{}: {e}", self.path.display()))
    }
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
/// integrity (`coi.js`, which must run before anything else).
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

/// Rewrites every catalog in the build's `i18n/` without the indentation
/// its source keeps for people (about 100 B gzip less for each).
fn compact_catalogs(staging: &Path) -> Result {
    let folder = staging.join("i18n");
    for entry in std::fs::read_dir(&folder).map_err(|e| format!("{}: {e}", folder.display()))? {
        let file = entry.map_err(|e| e.to_string())?.path();
        if file.extension().is_some_and(|e| e == "json") {
            let value: serde_json::Value = serde_json::from_slice(&read(&file)?)
                .map_err(|e| format!("{}: {e}", file.display()))?;
            std::fs::write(&file, value.to_string())
                .map_err(|e| format!("{}: {e}", file.display()))?;
        }
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
    compact_catalogs(&staging)?;
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
        minify_plain(&terser, &staging.join("coi.js"))?;
    }
    index.write()
}

#[cfg(test)]
mod tests {
    #[test]
    fn integrity_is_trunks_sri() {
        // `printf abc | openssl dgst -sha384 -binary | base64`
        assert_eq!(
            super::integrity(b"abc"),
            "sha384-ywB1P0WjXou1oD1pmsZQBycsMqsO3tFjGotgWkP/W+2AhgcroefMI1i67KE0yCWn"
        );
    }
}
