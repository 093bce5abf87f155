//! Records the compiler's and tokio's versions for the environment block,
//! and lists the English catalog's files (the page's parts and each
//! experiment's folder's) for `english()` to build in.

use std::path::Path;
use std::process::Command;

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_owned())
        .unwrap_or_else(|| "rustc (unknown version)".to_owned());
    println!("cargo:rustc-env=WAITLAB_RUSTC_VERSION={version}");

    let lock = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.lock");
    println!("cargo:rerun-if-changed={}", lock.display());
    let tokio = std::fs::read_to_string(&lock)
        .ok()
        .and_then(|text| {
            let mut lines = text.lines();
            lines.find(|l| *l == "name = \"tokio\"")?;
            let v = lines
                .next()?
                .strip_prefix("version = \"")?
                .strip_suffix('"')?;
            Some(v.to_owned())
        })
        .unwrap_or_else(|| "unknown".to_owned());
    println!("cargo:rustc-env=WAITLAB_TOKIO_VERSION={tokio}");
    english_files();
}

/// Writes `english.rs` in `OUT_DIR`: an array of `include_str!` of every
/// English catalog file in `www/i18n/` and its experiments' folders.
fn english_files() {
    let i18n = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../www/i18n");
    println!("cargo:rerun-if-changed={}", i18n.display());
    let english = |dir: &Path| -> Vec<std::path::PathBuf> {
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| {
                let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
                name.starts_with("en.") && name.ends_with(".json")
            })
            .collect();
        files.sort();
        files
    };
    let mut files = english(&i18n);
    let mut folders: Vec<_> = std::fs::read_dir(&i18n)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    for folder in folders {
        files.extend(english(&folder));
    }
    let items: String = files
        .iter()
        .map(|f| format!("include_str!({:?}),\n", f.canonicalize().unwrap()))
        .collect();
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("english.rs");
    std::fs::write(out, format!("[\n{items}]\n")).unwrap();
}
