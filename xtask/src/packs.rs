//! `cargo xtask packs`: the bundled sets as the page loads them.
//!
//! Reads `www/data/native/index.json` and the JSON sets it lists, and
//! writes `www/data/native/packs/`: `index.bin` (the sets, their
//! provenance and experiments) and one `SET.EXPERIMENT.bin` part per set
//! and experiment, each a raw-DEFLATE body of `waitlab_core::link::set`.
//! The packs are committed beside their sources; a test checks they are
//! what the sources give, so a changed set without new packs fails.

use crate::{Result, root};
use std::path::PathBuf;
use waitlab_core::link::set::{self, IndexedSet};
use waitlab_core::reference::{ReferenceIndex, parse_set};

/// The source folder.
fn native_dir() -> PathBuf {
    root().join("www/data/native")
}

/// Every pack the sources give: (path relative to `www/`, inflated bytes).
pub fn packs() -> Result<Vec<(String, Vec<u8>)>> {
    let dir = native_dir();
    let read = |name: &str| {
        std::fs::read_to_string(dir.join(name))
            .map_err(|e| format!("{}: {e}", dir.join(name).display()))
    };
    let index = ReferenceIndex::from_json(&read("index.json")?).map_err(|e| e.to_string())?;
    let mut entries = Vec::new();
    let mut out = Vec::new();
    for entry in &index.sets {
        let report = parse_set(&read(&entry.file)?).map_err(|e| format!("{}: {e}", entry.file))?;
        let stem = entry.file.trim_end_matches(".json");
        let indexed = IndexedSet::of(stem, entry.shown, &report)
            .ok_or_else(|| format!("{}: no provenance", entry.file))?;
        for &experiment in &indexed.experiments {
            out.push((
                set::part_path(stem, experiment),
                set::encode_part(&report, experiment),
            ));
        }
        entries.push(indexed);
    }
    out.push((set::INDEX_PATH.to_owned(), set::encode_index(&entries)));
    Ok(out)
}

/// The packs' folder.
fn packs_dir() -> PathBuf {
    native_dir().join("packs")
}

/// Rewrites every pack (and removes packs no set gives any more).
pub fn write() -> Result {
    let dir = packs_dir();
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let packs = packs()?;
    for (path, body) in &packs {
        let file = root().join("www").join(path);
        std::fs::write(&file, miniz_oxide::deflate::compress_to_vec(body, 10))
            .map_err(|e| format!("{}: {e}", file.display()))?;
    }
    println!("xtask: wrote {} packs to {}", packs.len(), dir.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    /// The committed packs are exactly what the committed sets give: run
    /// `cargo xtask packs` after changing a set.
    #[test]
    fn packs_are_fresh() {
        let packs = super::packs().unwrap();
        let dir = super::packs_dir();
        let committed = std::fs::read_dir(&dir).unwrap().count();
        assert_eq!(
            committed,
            packs.len(),
            "stray or missing packs in {}",
            dir.display()
        );
        for (path, body) in packs {
            let file = crate::root().join("www").join(&path);
            let deflated = std::fs::read(&file)
                .unwrap_or_else(|e| panic!("{path}: {e}; run cargo xtask packs"));
            let inflated = miniz_oxide::inflate::decompress_to_vec(&deflated).unwrap();
            assert!(inflated == body, "{path} is stale: run cargo xtask packs");
        }
    }
}
