//! The catalogs as their sources keep them, for people to review: the
//! page's own texts in `www/i18n/LANG.json`, `LANG.runs.json` and
//! `LANG.compare.json`, and each experiment's beside them in a folder
//! named by its id (`www/i18n/producer_consumer/de.json`, keys under
//! `producer_consumer.` only). The build writes each language's part as
//! the one file the page fetches ([`write_parts`], trunk's post-build
//! hook); tidy, the static shell and the embed's page read the same
//! merge ([`part`]).

use crate::Result;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use waitlab_core::experiments::Experiment;
use waitlab_core::lang::Lang;
use waitlab_core::text::Part;

/// The folders of the experiments' texts in `i18n`, each with its id;
/// an error for a folder no experiment is named by.
fn slices(i18n: &Path) -> Result<Vec<(String, PathBuf)>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(i18n).map_err(|e| format!("{}: {e}", i18n.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_dir() {
            let id = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_owned();
            if !Experiment::ALL.iter().any(|e| e.id() == id) {
                return Err(format!("{}: no experiment has this id", path.display()));
            }
            out.push((id, path));
        }
    }
    out.sort();
    Ok(out)
}

/// The JSON object in `path`, or none where the file is absent.
fn object(path: &Path) -> Result<Map<String, Value>> {
    if !path.exists() {
        return Ok(Map::new());
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    match serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))? {
        Value::Object(map) => Ok(map),
        _ => Err(format!("{}: not a JSON object", path.display())),
    }
}

/// `lang`'s texts of `part`: the page's file in `i18n` and every
/// experiment's, one object (keys in order). An error where an
/// experiment's file holds a key of another, or two files the same key.
pub fn part(i18n: &Path, lang: Lang, part: Part) -> Result<Map<String, Value>> {
    let file = part.file(lang);
    let mut all = object(&i18n.join(&file))?;
    for (id, folder) in slices(i18n)? {
        let path = folder.join(&file);
        for (key, value) in object(&path)? {
            if !key.starts_with(&format!("{id}.")) {
                return Err(format!("{}: {key} is not under {id}.", path.display()));
            }
            if all.insert(key.clone(), value).is_some() {
                return Err(format!("{}: {key} is in another file too", path.display()));
            }
        }
    }
    Ok(all)
}

/// `part` as JSON text, for code that reads a catalog file.
pub fn part_json(i18n: &Path, lang: Lang, p: Part) -> Result<String> {
    Ok(Value::Object(part(i18n, lang, p)?).to_string())
}

/// Writes every language's parts in `i18n` (a build's copy of the
/// sources) as the page fetches them, one compact file each (without the
/// indentation kept for people: about 100 B gzip less a file), and
/// removes the experiments' folders.
pub fn write_parts(i18n: &Path) -> Result {
    for lang in Lang::ALL {
        for p in Part::ALL {
            let path = i18n.join(p.file(lang));
            std::fs::write(&path, part_json(i18n, lang, p)?)
                .map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    for (_, folder) in slices(i18n)? {
        std::fs::remove_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch `i18n` with a page file and one experiment's.
    fn scratch(name: &str, slice: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("waitlab-catalogs-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("spin_ladder")).unwrap();
        std::fs::write(dir.join("en.json"), r#"{"page.title": "waitlab"}"#).unwrap();
        std::fs::write(dir.join("spin_ladder/en.json"), slice).unwrap();
        dir
    }

    #[test]
    fn an_experiments_texts_join_the_pages() {
        let dir = scratch("join", r#"{"spin_ladder.heading": "3"}"#);
        let en = part(&dir, Lang::En, Part::Page).unwrap();
        assert_eq!(
            en.keys().collect::<Vec<_>>(),
            ["page.title", "spin_ladder.heading"]
        );
        assert!(part(&dir, Lang::En, Part::Runs).unwrap().is_empty());
        write_parts(&dir).unwrap();
        assert!(!dir.join("spin_ladder").exists());
        let written = std::fs::read_to_string(dir.join("en.json")).unwrap();
        assert_eq!(
            written,
            r#"{"page.title":"waitlab","spin_ladder.heading":"3"}"#
        );
    }

    #[test]
    fn a_key_of_another_or_twice_is_refused() {
        let other = scratch("other", r#"{"timed_waits.heading": "1"}"#);
        assert!(part(&other, Lang::En, Part::Page).is_err());
        let twice = scratch("twice", r#"{"spin_ladder.heading": "3"}"#);
        std::fs::write(twice.join("en.json"), r#"{"spin_ladder.heading": "3"}"#).unwrap();
        assert!(part(&twice, Lang::En, Part::Page).is_err());
        std::fs::create_dir_all(twice.join("not_an_experiment")).unwrap();
        assert!(slices(&twice).is_err());
    }
}
