//! `cargo xtask gallery`: every experiment with its defaults in each
//! engine the end-to-end harness drives here (Chromium, Firefox,
//! WebKitGTK), each run written as a bundled set beside the native ones
//! (`www/data/native/ENGINE-linux-webdriver.json`, listed in its index
//! but not shown until the reader picks it), then the packs.
//!
//! A set says what it is: an engine on this Linux machine under a test
//! driver, its version, the machine's system and CPU, and this command
//! (`Source::Engine`), whose words the page gives in the reader's
//! language; never "Safari" or "your computer". Whether it was
//! cross-origin isolated is its run's own `cross_origin_isolated`.

use crate::{Result, root, run};
use waitlab_core::schema::{NativeEnv, Report, Source};

/// The machine as the native probe names it (its file, by path).
#[path = "../../crates/native/src/machine.rs"]
mod machine;

/// The engines: the harness's name, the name a set gives it, and its
/// set's file.
const ENGINES: [(&str, &str, &str); 3] = [
    ("chromium", "Chromium", "chromium-linux-webdriver.json"),
    ("firefox", "Firefox", "firefox-linux-webdriver.json"),
    ("webkit", "WebKitGTK", "webkitgtk-linux-webdriver.json"),
];

/// What the command line says it is.
const COMMAND: &str = "cargo xtask gallery";

/// The provenance of `engine` (its set name) at `version`: names and
/// numbers, no words.
fn provenance(engine: &str, version: &str) -> NativeEnv {
    // A major version, or major.minor where the major alone says little
    // (WebKitGTK 2.50).
    let parts: Vec<&str> = version.split('.').collect();
    let short = match parts.as_slice() {
        [major, minor, ..] if major.len() == 1 => format!("{major}.{minor}"),
        [major, ..] => (*major).to_owned(),
        [] => version.to_owned(),
    };
    NativeEnv {
        name: format!("{engine} {short}"),
        runtime: format!("{engine} {version}"),
        os: machine::os(),
        cpu: machine::cpu(),
        source: Source::Engine(COMMAND.to_owned()),
        samples: None,
    }
}

/// Runs the engines' gallery runs and writes their sets and the packs.
pub fn write() -> Result {
    let dist = crate::dist(Some(crate::oembed::TEST_SITE_URL))?;
    let browsers = crate::tools::ensure_browsers()?;
    let folder = root().join("target/gallery");
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    run(crate::e2e(
        &dist,
        &browsers,
        true,
        &[
            "--ignored",
            "--test-threads",
            "1",
            "--nocapture",
            "gallery_",
        ],
    )
    .env("WAITLAB_GALLERY", &folder))?;
    let index_path = root().join("www/data/native/index.json");
    for (harness, engine, file) in ENGINES {
        let path = folder.join(format!("{harness}.json"));
        let text = std::fs::read_to_string(&path).map_err(|e| {
            format!(
                "{}: {e} (the {engine} run did not finish: is the engine here?)",
                path.display()
            )
        })?;
        let run: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        let mut report =
            Report::from_json(&run["report"].to_string()).map_err(|e| e.to_string())?;
        let version = run["version"].as_str().unwrap_or("?");
        report.env.native = Some(provenance(engine, version));
        let out = root().join("www/data/native").join(file);
        std::fs::write(&out, format!("{}\n", report.to_json()))
            .map_err(|e| format!("{}: {e}", out.display()))?;
        let index = std::fs::read_to_string(&index_path)
            .map_err(|e| format!("{}: {e}", index_path.display()))?;
        if let Some(updated) = crate::with_set(&index, file, false)? {
            std::fs::write(&index_path, updated).map_err(|e| e.to_string())?;
        }
        println!("xtask: wrote {} ({engine} {version})", out.display());
    }
    crate::packs::write()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_set_says_it_is_an_engine_under_a_test_driver() {
        let p = super::provenance("WebKitGTK", "2.50.1");
        assert_eq!(p.name, "WebKitGTK 2.50");
        assert_eq!(
            super::provenance("Chromium", "148.0.7778.96").name,
            "Chromium 148"
        );
        assert_eq!(p.runtime, "WebKitGTK 2.50.1");
        assert!(p.is_engine());
    }
}
