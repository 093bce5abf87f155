//! Golden-data tests of waitlab-core's public boundary.
//!
//! - `data/quantiles.json`: samples and type-7 quantiles computed by Python's
//!   `statistics.quantiles(method="inclusive")`, an independent
//!   implementation of the same definition.
//! - `data/report_v1.json`: a version-1 report as the page exports it; it
//!   must keep parsing and round-trip byte for byte.
//! - `www/data/native/`: the reference sets the page bundles.

use waitlab_core::schema::Report;
use waitlab_core::stats::Samples;

#[test]
fn quantiles_match_an_independent_implementation() {
    let data: serde_json::Value =
        serde_json::from_str(include_str!("data/quantiles.json")).unwrap();
    let cases = data.as_array().unwrap();
    assert!(cases.len() >= 3);
    for case in cases {
        let samples: Vec<f64> = serde_json::from_value(case["samples"].clone()).unwrap();
        let s = Samples::new(samples).unwrap();
        for pair in case["quantiles"].as_array().unwrap() {
            let q = pair[0].as_f64().unwrap();
            let want = pair[1].as_f64().unwrap();
            let got = s.quantile(q);
            assert!(
                (got - want).abs() <= 1e-9 * want.abs().max(1.0),
                "q={q}: got {got}, want {want}"
            );
        }
    }
}

#[test]
fn report_v1_golden_round_trips() {
    let text = include_str!("data/report_v1.json");
    let report = Report::from_json(text).unwrap();
    assert_eq!(report.to_json(), text.trim_end());
}

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
        assert!(!native.source.is_empty() && !native.cpu.is_empty());
        let stated_or_measured = !report.stated.is_empty()
            || report.timed_waits.is_some()
            || report.wake_latency.is_some();
        assert!(stated_or_measured, "{} has no numbers", entry.file);
    }
}
