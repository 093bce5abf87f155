//! Tidy checks: architecture invariants enforced as tests (run by
//! `cargo test --workspace`, so by `cargo xtask test`).

use crate::root;
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if path.is_dir() {
            if !matches!(name.as_ref(), "target" | "dist" | "node_modules")
                && !name.starts_with('.')
            {
                rust_files(&path, out);
            }
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

fn all_rust_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["src", "crates", "tests", "xtask"] {
        rust_files(&root().join(dir), &mut files);
    }
    assert!(files.len() > 10, "tidy found too few files: {files:?}");
    files
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Architecture invariant: waitlab-core has no browser or UI dependency.
#[test]
fn core_is_pure() {
    let manifest = read(&root().join("crates/core/Cargo.toml"));
    for banned in ["web-sys", "js-sys", "leptos", "wasm-bindgen", "gloo"] {
        assert!(
            !manifest.contains(banned),
            "crates/core/Cargo.toml must not depend on {banned}"
        );
    }
    let mut files = Vec::new();
    rust_files(&root().join("crates/core"), &mut files);
    for f in files {
        let text = read(&f);
        for banned in ["std::fs", "std::net", "std::process", "web_sys", "js_sys"] {
            assert!(!text.contains(banned), "{} uses {banned}", f.display());
        }
    }
}

/// Architecture invariant: the browser glue (and so the browser-layer
/// tests) never compiles Leptos; the end-to-end tests depend on the core,
/// not on the app.
#[test]
fn glue_and_tests_stay_light() {
    let browser = read(&root().join("crates/browser/Cargo.toml"));
    assert!(
        !browser.contains("leptos"),
        "crates/browser/Cargo.toml must not depend on leptos"
    );
    let e2e = read(&root().join("tests/e2e/Cargo.toml"));
    for banned in ["leptos", "waitlab-browser", "\nwaitlab ="] {
        assert!(
            !e2e.contains(banned),
            "tests/e2e/Cargo.toml must not depend on {banned}"
        );
    }
}

/// Every Rust file opens with a `//!` line saying what lives there.
#[test]
fn every_file_has_a_module_header() {
    for f in all_rust_files() {
        assert!(
            read(&f).starts_with("//!"),
            "{} must start with a //! line",
            f.display()
        );
    }
}

/// Architecture invariant: no text reaches the page as HTML.
#[test]
fn no_html_injection_points() {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    rust_files(&root().join("crates/browser"), &mut files);
    for f in files {
        let text = read(&f);
        for banned in [
            "inner_html",
            "set_inner_html",
            "outer_html",
            "insert_adjacent_html",
        ] {
            assert!(!text.contains(banned), "{} uses {banned}", f.display());
        }
    }
}

/// The wasm-bindgen pin in Cargo.toml and Trunk.toml agree, so trunk
/// never tries to download another wasm-bindgen.
#[test]
fn wasm_bindgen_pins_agree() {
    let version = crate::tools::wasm_bindgen_version().unwrap();
    let trunk = read(&root().join("Trunk.toml"));
    assert!(
        trunk.contains(&format!("wasm_bindgen = \"{version}\"")),
        "Trunk.toml [tools] wasm_bindgen must be {version}"
    );
    assert!(
        trunk.contains("offline = true"),
        "Trunk.toml must build offline"
    );
}
