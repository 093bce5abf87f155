//! Golden-data tests of waitlab-core's public boundary.
//!
//! - `data/quantiles.json`: samples and type-7 quantiles computed by Python's
//!   `statistics.quantiles(method="inclusive")`, an independent
//!   implementation of the same definition.
//! - `data/report_v1.json`: a version-1 report as the page exports it; it
//!   must keep parsing and round-trip byte for byte.
//! - `data/native_report.json` (read by the link codec's tests): a frozen
//!   native run of every experiment, with a calibrated spin ladder.

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
