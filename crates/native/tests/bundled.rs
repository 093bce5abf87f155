//! The sets the page bundles in `www/data/native/` (this probe's runs and
//! the article's stated figures): every file the index lists parses with the
//! current schema, passes the page's validation and round-trips unchanged,
//! and every part the page fetches of it reads.

use waitlab_core::schema::{Report, Source};

/// Every set the page bundles (listed by `www/data/native/index.json`)
/// parses with the current schema, passes the page's validation and
/// round-trips through the schema types unchanged.
#[test]
fn bundled_reference_sets_parse_and_round_trip() {
    use waitlab_core::reference::{ReferenceIndex, parse_set};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../www/data/native");
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    let index = ReferenceIndex::from_json(&read("index.json")).unwrap();
    assert!(index.sets.len() >= 2, "the article's set and a native run");
    for entry in &index.sets {
        let report =
            parse_set(&read(&entry.file)).unwrap_or_else(|e| panic!("{}: {e}", entry.file));
        let again = Report::from_json(&report.to_json()).unwrap();
        assert_eq!(again, report, "{} does not round-trip", entry.file);
        let native = report.env.native.as_ref().unwrap();
        assert!(!native.cpu.is_empty() && !native.cpu.contains("cores"));
        assert!(
            !matches!(native.source, Source::Written(_)),
            "{}: its provenance says where its numbers come from as an article or a command",
            entry.file
        );
        let stated_or_measured = !report.stated.is_empty()
            || report.timed_waits.is_some()
            || report.wake_latency.is_some();
        assert!(stated_or_measured, "{} has no numbers", entry.file);
        // Every part the page fetches for it reads as the page reads it.
        let stem = entry.file.trim_end_matches(".json");
        for experiment in waitlab_core::experiments::Experiment::ALL {
            if !report.has(experiment) && report.stated.iter().all(|f| f.experiment != experiment) {
                continue;
            }
            let path = dir
                .join("../..")
                .join(waitlab_core::link::set::part_path(stem, experiment));
            let deflated = std::fs::read(&path)
                .unwrap_or_else(|e| panic!("{}: {e}; run cargo xtask packs", path.display()));
            let body = miniz_oxide::inflate::decompress_to_vec(&deflated).unwrap();
            let part = waitlab_core::link::set::decode_part(&body)
                .unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
            assert!(
                part.has(experiment) || !part.stated.is_empty(),
                "{}",
                path.display()
            );
        }
    }
}
