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

/// What makes the crate in `dir` impure: a browser or UI dependency in its
/// manifest, or IO or a browser binding named in its sources.
fn impurities(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let manifest = read(&dir.join("Cargo.toml"));
    for banned in ["web-sys", "js-sys", "leptos", "wasm-bindgen", "gloo"] {
        if manifest.contains(banned) {
            found.push(format!("Cargo.toml depends on {banned}"));
        }
    }
    let mut files = Vec::new();
    rust_files(dir, &mut files);
    for f in files {
        let text = read(&f);
        for banned in ["std::fs", "std::net", "std::process", "web_sys", "js_sys"] {
            if text.contains(banned) {
                found.push(format!("{} uses {banned}", f.display()));
            }
        }
    }
    found
}

/// Architecture invariant: waitlab-core has no browser or UI dependency
/// and does no IO.
#[test]
fn core_is_pure() {
    let found = impurities(&root().join("crates/core"));
    assert!(found.is_empty(), "waitlab-core is not pure: {found:?}");
}

/// [`impurities`] finds what it looks for: a planted dependency and a
/// planted file read.
#[test]
fn planted_impurities_are_found() {
    let dir = scratch(
        "impure",
        &[
            ("Cargo.toml", "[dependencies]\nweb-sys = \"0.3\"\n"),
            (
                "src/lib.rs",
                "//! A crate.\npub fn f() { let _ = std::fs::read(\"x\"); }\n",
            ),
        ],
    );
    let found = impurities(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(found.len(), 2, "{found:?}");
}

/// A scratch folder of `files` (path, text), made anew.
pub(crate) fn scratch(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("waitlab-tidy-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let file = dir.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    dir
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

/// Architecture invariant: no import cycle between the modules of the
/// core, the browser glue or the app, at any depth, so each type lives in
/// one place and a module can be read before the ones that use it. The
/// graph is `imports::graph`'s: whole files, paths resolved as rustc
/// resolves them (its own tests plant the cycles it must find).
#[test]
fn no_import_cycles() {
    let mut found = Vec::new();
    for crate_src in ["crates/core/src", "crates/browser/src", "src"] {
        let graph = crate::imports::graph(&root().join(crate_src));
        assert!(graph.len() > 3, "{crate_src}: too few modules found");
        for cycle in crate::imports::cycles(&graph) {
            found.push(format!("  {crate_src}: {}", cycle.join(", ")));
        }
    }
    assert!(
        found.is_empty(),
        "{} import cycles (strongly connected sets of modules):\n{}",
        found.len(),
        found.join("\n")
    );
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

/// `cargo xtask serve` (Trunk.toml's `[serve.headers]`) sends exactly the
/// headers `www/_headers` gives a static host for every path, so what is
/// tested (the end-to-end server reads `_headers`) is what is served.
#[test]
fn served_headers_agree() {
    let rules = crate::headers::rules(&read(&root().join("www/_headers"))).unwrap();
    let deployed: std::collections::BTreeSet<String> =
        crate::headers::of(&rules, "/*").into_iter().collect();
    let trunk = read(&root().join("Trunk.toml"));
    let served: std::collections::BTreeSet<String> = trunk
        .lines()
        .skip_while(|l| l.trim() != "[serve.headers]")
        .skip(1)
        .take_while(|l| !l.trim_start().starts_with('['))
        .filter_map(|l| {
            let (name, value) = l.split_once(" = ")?;
            Some(format!(
                "{}: {}",
                name.trim_matches('"'),
                value.trim().trim_matches('"')
            ))
        })
        .collect();
    assert!(
        deployed
            .iter()
            .any(|h| h.starts_with("Document-Isolation-Policy"))
    );
    assert_eq!(
        served, deployed,
        "Trunk.toml [serve.headers] and www/_headers differ"
    );
}

/// The catalogs, complete and used: every language has, in each part,
/// exactly the English part's keys, with the same placeholders and the
/// plural forms its language has; every key is used by the code (a
/// literal, or a key the code builds from the core's enumerations), and
/// every key-like literal the code uses is in the catalog.
#[test]
fn catalogs_are_complete_and_used() {
    let sources = ["src", "crates/core/src", "crates/browser/src"].map(|d| root().join(d));
    check_catalogs(&root().join("www/i18n"), &sources, keys_the_code_builds());
}

/// The catalog keys the code builds rather than writes out: by name, and
/// by key.
fn keys_the_code_builds() -> (
    std::collections::BTreeSet<String>,
    std::collections::BTreeSet<waitlab_core::text::Key>,
) {
    use std::collections::BTreeSet;
    use waitlab_core::text::Key;
    let mut used: BTreeSet<String> = BTreeSet::new();
    let mut used_keys: BTreeSet<Key> = BTreeSet::new();
    // Data and code shown as they are (`text::Phrase::data`, `code`).
    used.extend(["data", "code"].map(str::to_owned));
    // The embed's first screen (`www/embed.js`) asks for these.
    used.extend(crate::facade::KEYS.map(|(_, key)| key.to_owned()));
    use waitlab_core::experiments::Experiment;
    use waitlab_core::experiments::JobMode;
    use waitlab_core::experiments::timed_waits::Mechanism;
    // Labels an enumeration builds from its ids (those `strategies!`
    // declares are found in the sources, `strategy_labels`).
    used_keys.extend(Mechanism::every().map(|m| m.label().key));
    used_keys.extend(waitlab_core::trace::Kind::ALL.map(|k| k.label().key));
    for m in JobMode::ALL {
        used_keys.extend([m.label(), m.main_analogue(), m.pool_analogue()].map(|p| p.key));
    }
    used.extend(waitlab_core::field::FIELDS.map(|f| format!("field.{f}")));
    used.extend(waitlab_core::outcome::reason::ALL.map(|r| format!("reason.{r}")));
    for lesson in waitlab_core::summary::Lesson::all() {
        used.extend(["lesson", "pair"].map(|part| format!("summary.{part}.{}", lesson.id())));
        used_keys.insert(waitlab_core::summary::recipe::note(lesson).key);
        used_keys.insert(waitlab_core::summary::recipe::runs_on(lesson).phrase().key);
    }
    use waitlab_core::summary::recipe::Platform;
    used_keys.extend(Platform::ALL.map(|p| p.phrase().key));
    used.extend(waitlab_core::summary::Verdict::ALL.map(|v| format!("summary.verdict.{}", v.id())));
    for e in Experiment::ALL {
        used_keys.insert(e.name().key);
        used_keys.insert(e.heading());
        used_keys.extend(e.explanation());
        used_keys.extend(e.columns().iter().map(|c| e.header(c).key));
    }
    let sets = waitlab_core::reference::ReferenceIndex::from_json(&read(
        &root().join("www/data/native/index.json"),
    ))
    .unwrap();
    for entry in sets.sets {
        let set = waitlab_core::reference::parse_set(&read(
            &root().join("www/data/native").join(&entry.file),
        ))
        .unwrap();
        for f in set.stated {
            if let Some(id) = f.id {
                used.extend(
                    ["what", "analogue", "quote"].map(|part| format!("stated.{id}.{part}")),
                );
            }
        }
    }
    (used, used_keys)
}

/// Panics unless the catalogs in `i18n` have, in every language and part,
/// exactly the English part's keys, placeholders and its language's plural
/// forms, no two names of one hash, every key the Rust files under
/// `sources` write out, and no key that neither they write out nor `built`
/// names.
fn check_catalogs(
    i18n: &Path,
    sources: &[PathBuf],
    built: (
        std::collections::BTreeSet<String>,
        std::collections::BTreeSet<waitlab_core::text::Key>,
    ),
) {
    use std::collections::BTreeMap;
    use std::collections::BTreeSet;
    use waitlab_core::lang::{Lang, Plural};
    use waitlab_core::text::{Entry, Key, Part, entries_from_json, placeholders};
    let part = |lang: Lang, part: Part| -> BTreeMap<String, Entry> {
        let json = crate::catalogs::part_json(i18n, lang, part)
            .unwrap_or_else(|e| panic!("{}: {e}", part.file(lang)));
        entries_from_json(&json)
            .unwrap_or_else(|e| panic!("{}: {e}", part.file(lang)))
            .into_iter()
            .collect()
    };
    for p in Part::ALL {
        let english: BTreeSet<_> = part(Lang::En, p).into_keys().collect();
        for lang in Lang::ALL {
            let mine: BTreeSet<_> = part(lang, p).into_keys().collect();
            assert_eq!(
                mine,
                english,
                "{}: {} has other keys than English",
                lang.code(),
                p.file(lang)
            );
        }
    }
    let load = |lang: Lang| {
        let mut all = BTreeMap::new();
        for p in Part::ALL {
            all.extend(part(lang, p));
        }
        all
    };
    let en = load(Lang::En);
    // The code holds keys as hashes of their names: no two may meet.
    let mut hashes = BTreeMap::new();
    for name in en.keys() {
        if let Some(other) = hashes.insert(Key::of(name), name) {
            panic!("“{name}” and “{other}” have the same key: rename one");
        }
    }
    let shape = |e: &Entry| -> BTreeSet<String> {
        e.templates()
            .iter()
            .flat_map(|t| placeholders(t))
            .map(str::to_owned)
            .collect()
    };
    // Words of English left in another language (a value copied over
    // untranslated); code and names may be the same everywhere.
    let mut english_left = Vec::new();
    for lang in Lang::ALL {
        let c = load(lang);
        let (mine, english): (BTreeSet<_>, BTreeSet<_>) = (c.keys().collect(), en.keys().collect());
        let missing: Vec<_> = english.difference(&mine).collect();
        let extra: Vec<_> = mine.difference(&english).collect();
        assert!(missing.is_empty(), "{}: missing {missing:?}", lang.code());
        assert!(
            extra.is_empty(),
            "{}: not in English {extra:?}",
            lang.code()
        );
        // The categories a language uses for whole numbers.
        let categories: BTreeSet<&str> = (0..120u64)
            .chain([1_000_000, 2_000_000])
            .map(|n| lang.plural(n).name())
            .collect();
        for (key, entry) in &c {
            let want = &en[key];
            if lang != Lang::En {
                let reused = entry
                    .templates()
                    .into_iter()
                    .filter(|t| want.templates().contains(t) && english_prose(t));
                english_left.extend(reused.map(|t| format!("{}: {key}: “{t}”", lang.code())));
            }
            for template in entry.templates() {
                let got: BTreeSet<_> = placeholders(template)
                    .into_iter()
                    .map(str::to_owned)
                    .collect();
                assert_eq!(got, shape(want), "{}: {key}: “{template}”", lang.code());
            }
            if let Entry::Plural(forms) = entry {
                let names: BTreeSet<&str> = forms.iter().map(|(p, _)| p.name()).collect();
                assert!(
                    names.contains(Plural::Other.name()),
                    "{}: {key} has no “other”",
                    lang.code()
                );
                assert!(
                    names
                        .iter()
                        .all(|n| *n == "other" || categories.contains(n)),
                    "{}: {key} has forms {names:?}, the language uses {categories:?}",
                    lang.code()
                );
            }
        }
    }
    assert!(
        english_left.is_empty(),
        "English in other languages' catalogs: {english_left:?}"
    );
    // The keys the code can ask for: those it builds (`used`,
    // `used_keys`) and those it writes out.
    let (mut used, used_keys) = built;
    let namespaces: BTreeSet<&str> = en.keys().filter_map(|k| k.split('.').next()).collect();
    let mut unknown = Vec::new();
    let mut files = Vec::new();
    for dir in sources {
        rust_files(dir, &mut files);
    }
    for f in files {
        let text = read(&f);
        used.extend(strategy_labels(&text));
        for literal in text.split('"').skip(1).step_by(2) {
            let key_like = literal.contains('.')
                && literal
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.')
                && !literal.ends_with('.')
                && !literal.ends_with(".js")
                && !literal.ends_with(".json")
                && !literal.ends_with(".html")
                && !literal.ends_with(".bin");
            if !key_like {
                continue;
            }
            if en.contains_key(literal) {
                used.insert(literal.to_owned());
            } else if namespaces.contains(literal.split('.').next().unwrap_or("")) {
                unknown.push(format!("{}: “{literal}”", f.display()));
            }
        }
    }
    assert!(unknown.is_empty(), "keys the catalogs lack: {unknown:?}");
    let unused: Vec<_> = en
        .keys()
        .filter(|k| !used.contains(*k) && !used_keys.contains(&Key::of(k)))
        .collect();
    assert!(unused.is_empty(), "catalog keys nothing uses: {unused:?}");
}

/// Words a language may keep in English: the platform's names (a Web
/// Worker, a thread, a spin, a tick) and crates'.
const LOANWORDS: [&str; 9] = [
    "worker", "workers", "thread", "spin", "until", "tick", "ticks", "std", "tokio",
];

/// Whether a catalog `template` is English prose rather than code or a
/// name: outside its placeholders, a lowercase word of three letters or
/// more that is no loanword, and none of code's marks (a call's `(`, a
/// member's `.`, `::`, `_`, `+`, `=`, `<`, a camelCase word).
fn english_prose(template: &str) -> bool {
    let mut text = String::new();
    let mut depth = 0;
    for c in template.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            c if depth == 0 => text.push(c),
            _ => {}
        }
    }
    let chars: Vec<char> = text.chars().collect();
    let call_or_member = chars.windows(3).any(|w| {
        (w[0].is_ascii_alphabetic() && w[1] == '(')
            || (w[0].is_ascii_alphabetic() && w[1] == '.' && w[2].is_ascii_alphabetic())
    });
    let words: Vec<&str> = text
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
        .collect();
    let camel = |w: &&str| {
        w.chars().skip(1).any(|c| c.is_ascii_uppercase())
            && w.chars().any(|c| c.is_ascii_lowercase())
    };
    let code = call_or_member || text.contains(['_', '+', '=', '<']) || text.contains("::");
    !code
        && !words.iter().any(camel)
        && words.iter().any(|w| {
            w.len() >= 3 && w.chars().all(|c| c.is_ascii_lowercase()) && !LOANWORDS.contains(w)
        })
}

#[test]
fn english_prose_is_told_from_code() {
    assert!(english_prose("the same as {base}"));
    assert!(english_prose(".NET 10 on {cpu} (the article)."));
    assert!(english_prose("job {job} (extra)"));
    assert!(!english_prose("{times}×"));
    assert!(!english_prose("worker {n}"));
    assert!(!english_prose("await requestAnimationFrame"));
    assert!(!english_prose("std::thread::sleep({d})"));
    assert!(!english_prose("Thread.Sleep(1)"));
    assert!(!english_prose("Rust (std, tokio)"));
}

/// The labels' keys of every enumeration `strategies!` declares in `text`
/// (`in "PREFIX."`, then `Variant = "id",` lines): the prefix and each id.
fn strategy_labels(text: &str) -> Vec<String> {
    let mut keys = Vec::new();
    for block in text.split("strategies! {").skip(1) {
        let block = block.split("\n}").next().unwrap_or(block);
        let Some(prefix) = block
            .split(" in \"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
        else {
            continue;
        };
        for line in block.lines() {
            let id = line
                .trim()
                .split_once(" = \"")
                .and_then(|(_, rest)| rest.strip_suffix("\","));
            keys.extend(id.map(|id| format!("{prefix}{id}")));
        }
    }
    keys
}

/// A `strategies!` block's labels are the prefix and each id.
#[test]
fn strategies_name_their_labels() {
    let text = "strategies! {\n    /// Doc.\n    pub enum Gate in \"limit.gate.\" {\n        browser {\n            /// One.\n            Semaphore = \"semaphore\",\n        }\n        native {\n            Tokio = \"tokio\",\n        }\n    }\n}\nlet x = \"a\";";
    assert_eq!(
        strategy_labels(text),
        ["limit.gate.semaphore", "limit.gate.tokio"]
    );
}

/// [`check_catalogs`] fails on what it looks for: a language missing a
/// key, and a key nothing uses.
#[test]
fn planted_catalog_faults_are_found() {
    use waitlab_core::lang::Lang;
    use waitlab_core::text::Part;
    let catalogs = |unused: bool, missing_in: Option<Lang>| {
        let mut files: Vec<(String, String)> = Vec::new();
        for lang in Lang::ALL {
            for part in Part::ALL {
                let mut text = String::from("{}");
                if part == Part::Page {
                    let more = if unused {
                        r#", "demo.unused": "x""#
                    } else {
                        ""
                    };
                    text = if missing_in == Some(lang) {
                        "{}".to_owned()
                    } else {
                        format!(r#"{{"demo.used": "y"{more}}}"#)
                    };
                }
                files.push((format!("i18n/{}", part.file(lang)), text));
            }
        }
        files.push((
            "src/lib.rs".to_owned(),
            "//! Uses one key.\nconst K: &str = \"demo.used\";\n".to_owned(),
        ));
        files
    };
    let fails = |name: &str, files: Vec<(String, String)>| -> String {
        let files: Vec<(&str, &str)> = files
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        let dir = scratch(name, &files);
        let outcome = std::panic::catch_unwind(|| {
            check_catalogs(&dir.join("i18n"), &[dir.join("src")], Default::default())
        });
        let _ = std::fs::remove_dir_all(&dir);
        match outcome {
            Ok(()) => String::new(),
            Err(e) => e
                .downcast_ref::<String>()
                .cloned()
                .unwrap_or_else(|| "a panic".to_owned()),
        }
    };
    assert_eq!(fails("catalogs-fine", catalogs(false, None)), "");
    assert!(fails("catalogs-unused", catalogs(true, None)).contains("demo.unused"));
    assert!(fails("catalogs-missing", catalogs(false, Some(Lang::De))).contains("de"));
}

/// ARCHITECTURE.md stays a map a reader gets through: at most 350 lines
/// (the measurements and decisions are `docs/decisions.md`'s).
#[test]
fn architecture_stays_short() {
    let lines = read(&root().join("ARCHITECTURE.md")).lines().count();
    assert!(
        lines <= 350,
        "ARCHITECTURE.md has {lines} lines, at most 350"
    );
}

/// The code map in ARCHITECTURE.md names only what exists: every path in
/// backticks in its "Code map" section (one with a `/`) is a file or a
/// folder of the repository.
#[test]
fn code_map_names_what_exists() {
    let text = read(&root().join("ARCHITECTURE.md"));
    let map = text
        .split("\n## Code map")
        .nth(1)
        .expect("ARCHITECTURE.md has a Code map section");
    let map = map.split("\n## ").next().unwrap_or(map);
    let paths: Vec<&str> = map
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| t.contains('/') && !t.contains(' ') && !t.contains("::") && !t.contains('*'))
        .collect();
    assert!(paths.len() > 20, "the code map names {} paths", paths.len());
    let missing: Vec<&&str> = paths
        .iter()
        .filter(|p| !root().join(p.trim_end_matches('/')).exists())
        .collect();
    assert!(
        missing.is_empty(),
        "the code map names paths that do not exist: {missing:?}"
    );
}

/// No core module passes 600 lines (its tests, in a `tests.rs` beside it,
/// are counted apart): one that grows past it holds more than one thing.
#[test]
fn core_modules_stay_short() {
    let mut files = Vec::new();
    rust_files(&root().join("crates/core/src"), &mut files);
    let long: Vec<String> = files
        .iter()
        .filter(|f| !f.ends_with("tests.rs"))
        .map(|f| (f, read(f).lines().count()))
        .filter(|(_, n)| *n > 600)
        .map(|(f, n)| format!("{} ({n} lines)", f.display()))
        .collect();
    assert!(long.is_empty(), "core modules over 600 lines: {long:?}");
}
