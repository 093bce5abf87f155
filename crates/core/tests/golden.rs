//! Golden-data tests of waitlab-core's public boundary.
//!
//! - `data/quantiles.json`: samples and type-7 quantiles computed by Python's
//!   `statistics.quantiles(method="inclusive")`, an independent
//!   implementation of the same definition.
//! - `data/describe.json`: series and their BenchmarkDotNet-style
//!   description computed by SciPy and NumPy (`data/describe.py` writes it).
//! - `data/verdicts.json`: pairs of series and their one-sided Mann-Whitney
//!   U tests computed by SciPy (`data/verdicts.py` writes it).
//! - `data/report_v1.json`: a version-1 report as the page exports it; it
//!   must keep parsing and round-trip byte for byte.
//! - `data/native_report.json` (read by the link codec's tests): a frozen
//!   native run of every experiment, with a calibrated spin ladder.

use waitlab_core::clock::ClockInfo;
use waitlab_core::compare::verdict::{self, ALPHA, Verdict};
use waitlab_core::describe::describe;
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

#[test]
fn descriptions_match_scipy() {
    let near = |got: f64, want: &serde_json::Value, what: &str, name: &str, rel: f64| {
        let want = want.as_f64().unwrap();
        assert!(
            (got - want).abs() <= rel * want.abs().max(1.0),
            "{name}: {what} is {got}, SciPy says {want}"
        );
    };
    let close = |got, want, what, name| near(got, want, what, name, 1e-9);
    let data: serde_json::Value = serde_json::from_str(include_str!("data/describe.json")).unwrap();
    for case in data.as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let samples: Vec<f64> = serde_json::from_value(case["samples"].clone()).unwrap();
        let clock = case["step_ms"].as_f64().map(|step| ClockInfo {
            min_step_ms: step,
            typical_step_ms: step,
            readings: 1000,
        });
        let d = describe(&Samples::new(samples).unwrap(), clock, None);
        let want = &case["want"];
        assert_eq!(u64::from(d.n), want["n"].as_u64().unwrap(), "{name}");
        close(d.mean, &want["mean"], "mean", name);
        close(d.std_dev, &want["std_dev"], "sd", name);
        match d.error {
            // Student's t quantile by Hill's algorithm 396 (distrs), good to
            // about seven digits; the page shows three.
            Some(e) => near(e, &want["error"], "error", name, 1e-6),
            None => assert!(want["error"].is_null(), "{name}: no error"),
        }
        let q = &want["quantiles"];
        for (i, got) in [d.min, d.q1, d.median, d.q3, d.p90, d.p99, d.max]
            .into_iter()
            .enumerate()
        {
            close(got, &q[i], "quantile", name);
        }
        for (got, field) in [
            (d.median_interval, "median_interval"),
            (d.rerun_interval, "rerun_interval"),
        ] {
            match got {
                Some(i) => {
                    close(i.lo, &want[field][0], "lower end", name);
                    close(i.hi, &want[field][1], "upper end", name);
                }
                None => assert!(want[field].is_null(), "{name}: no {field}"),
            }
        }
        close(
            d.outliers.fences.lo,
            &want["fences"][0],
            "lower fence",
            name,
        );
        close(
            d.outliers.fences.hi,
            &want["fences"][1],
            "upper fence",
            name,
        );
        let outliers = [u64::from(d.outliers.low), u64::from(d.outliers.high)];
        assert_eq!(serde_json::json!(outliers), want["outliers"], "{name}");
        close(d.mvalue, &want["mvalue"], "mvalue", name);
        assert_eq!(
            serde_json::json!(d.at_resolution),
            want["at_resolution"],
            "{name}"
        );
    }
}

#[test]
fn verdicts_match_scipy() {
    let data: serde_json::Value = serde_json::from_str(include_str!("data/verdicts.json")).unwrap();
    let cases = data.as_array().unwrap();
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let series = |k: &str| {
            let v: Vec<f64> = serde_json::from_value(case[k].clone()).unwrap();
            Samples::new(v).unwrap()
        };
        let (x, y) = (series("x"), series("y"));
        let shift = case["shift"].as_f64().unwrap();
        let want = |k: &str| case[k].as_f64().unwrap();
        let close = |got: f64, want: f64, what: &str| {
            // The normal CDF of distrs is good to about 1e-15 absolute
            // (and 0 far in the tail); the page says "p < 0.001" of any
            // p-value that small.
            let ok = if want < 1e-12 {
                got < 1e-12
            } else {
                (got - want).abs() <= 1e-9 * want.max(1e-3)
            };
            assert!(ok, "{name}: {what} is {got}, SciPy says {want}");
        };
        let shifted = |by: f64| x.sorted().iter().map(|v| v + by).collect::<Vec<_>>();
        close(
            verdict::mann_whitney(&shifted(-shift), y.sorted()).greater,
            want("p_slower"),
            "p slower",
        );
        close(
            verdict::mann_whitney(&shifted(shift), y.sorted()).less,
            want("p_faster"),
            "p faster",
        );
        let t = verdict::test(x.sorted(), y.sorted(), shift);
        close(t.effect + 2.0, want("cliffs_delta") + 2.0, "Cliff's delta");
        let expected = if want("p_slower") < ALPHA {
            Verdict::Slower
        } else if want("p_faster") < ALPHA {
            Verdict::Faster
        } else {
            Verdict::Same
        };
        assert_eq!(t.verdict, expected, "{name}");
    }
    let verdicts: Vec<_> = cases
        .iter()
        .map(|c| {
            let v = |k: &str| c[k].as_f64().unwrap();
            (v("p_slower") < ALPHA, v("p_faster") < ALPHA)
        })
        .collect();
    assert!(verdicts.contains(&(true, false)) && verdicts.contains(&(false, true)));
    assert!(
        verdicts.contains(&(false, false)),
        "the data has every verdict"
    );
}
