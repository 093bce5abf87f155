//! `cargo xtask minify-js`, trunk's post-build hook (Trunk.toml): in a
//! release build it minifies the wasm-bindgen glue with terser, since
//! trunk's own minifier cannot parse it (`export default`) and ships it as
//! written, then rewrites index.html's integrity (SRI) of what it changed.
//! It runs in the staging directory, before trunk moves the build into
//! `dist/`, so `serve` and `dist` ship the same files.

use crate::tools::{self, find_in};
use crate::{Result, run};
use base64::Engine;
use sha2::{Digest, Sha384};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The glue files and whether each is an ES module (the app's, whose
/// top-level names terser may shorten) or a classic script (the worker's,
/// whose global `wasm_bindgen` its loader calls).
const GLUE: [(&str, bool); 2] = [("app.js", true), ("worker.js", false)];

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

/// Runs as trunk's hook; does nothing for a debug build.
pub fn hook() -> Result {
    if std::env::var("TRUNK_PROFILE").as_deref() != Ok("release") {
        return Ok(());
    }
    let staging = PathBuf::from(
        std::env::var_os("TRUNK_STAGING_DIR")
            .ok_or("TRUNK_STAGING_DIR is not set: minify-js runs as trunk's post-build hook")?,
    );
    let terser = tools::ensure_terser()?;
    let index = staging.join("index.html");
    let mut html = String::from_utf8(read(&index)?).map_err(|e| format!("index.html: {e}"))?;
    for (pattern, module) in GLUE {
        let file = find_in(&staging, pattern)?;
        let before = read(&file)?;
        let mut cmd = Command::new("node");
        cmd.arg(&terser)
            .arg(&file)
            .args(["--compress", "--mangle", "--output"])
            .arg(&file);
        if module {
            cmd.arg("--module");
        }
        run(&mut cmd)?;
        let after = read(&file)?;
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        let (old, new) = (integrity(&before), integrity(&after));
        if html.contains(&old) {
            html = html.replace(&old, &new);
        } else if html.contains(name.as_ref()) && html.contains("integrity") {
            return Err(format!(
                "index.html loads {name} with an integrity that is not its own"
            ));
        }
        eprintln!(
            "xtask: minified {name}: {} -> {} bytes",
            before.len(),
            after.len()
        );
    }
    std::fs::write(&index, html).map_err(|e| format!("{}: {e}", index.display()))
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
