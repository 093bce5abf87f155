//! Tests of the result schema (`schema.rs`).

use super::*;
use crate::environment::civil_date;
use crate::experiments::timed_waits::NestedChain;
use crate::key;
use crate::stats::Samples;
use crate::stats::Summary;
use crate::text::Phrase;

#[test]
fn calendar_dates() {
    assert_eq!(civil_date(0.0), (1970, 1, 1));
    assert_eq!(civil_date(951_782_400_000.0), (2000, 2, 29));
    assert_eq!(civil_date(1_796_083_199_999.0), (2026, 11, 30));
    assert_eq!(civil_date(1_796_083_200_000.0), (2026, 12, 1));
    assert_eq!(civil_date(-86_400_000.0), (1969, 12, 31));
    for hostile in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e300, -1e300] {
        civil_date(hostile);
    }
}

fn summary(p50: f64) -> Summary {
    Samples::new(vec![p50]).unwrap().summary()
}

#[test]
fn clamp_onset_finds_the_first_settled_level() {
    let chain = |p: &[f64]| NestedChain {
        levels: p.iter().map(|&v| summary(v)).collect(),
    };
    let c = chain(&[0.1, 0.2, 0.1, 0.3, 4.1, 4.0, 4.2]);
    assert_eq!(c.clamp_onset(0.1), Some(5));
    // One stray slow early level does not count as the onset.
    let c = chain(&[5.0, 0.2, 4.1, 4.0]);
    assert_eq!(c.clamp_onset(0.1), Some(3));
    assert_eq!(chain(&[0.1, 0.2]).clamp_onset(0.1), None);
    assert_eq!(chain(&[4.5, 4.5]).clamp_onset(0.1), Some(1));
    assert_eq!(chain(&[]).clamp_onset(0.1), None);
}

#[test]
fn short_names() {
    let env = |ua: &str| Environment {
        user_agent: ua.to_owned(),
        ..Environment::test_chrome()
    };
    let mut en = crate::text::Catalog::new(crate::lang::Lang::En);
    for (name, v) in [
        ("data", "{text}"),
        ("env.browser_on_os", "{browser} on {os}"),
    ] {
        en.insert(name, crate::text::Entry::Text(v.to_owned()));
    }
    let check = |ua: &str, want: &str| assert_eq!(en.render(&env(ua).short_name()), want);
    check(
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36",
        "Chrome 156 on Linux",
    );
    check(
        "Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0",
        "Firefox 153 on Linux",
    );
    check(
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
        "Safari 18 on macOS",
    );
    check("curl", "curl");
}

#[test]
fn combining_keeps_every_experiment_once() {
    let env = |hidden| Environment {
        user_agent: "x".into(),
        hardware_concurrency: 2,
        cross_origin_isolated: true,
        clock: None,
        started_at_unix_ms: 0.0,
        hidden_during_run: hidden,
        native: None,
    };
    let mut a = Report::new(env(false), None);
    a.wake_latency = Some(crate::experiments::wake_latency::WakeLatency {
        config: crate::experiments::wake_latency::WakeConfig::default(),
        skew_ms: None,
        results: Vec::new(),
        own: None,
    });
    let b = Report::new(env(true), None);
    let all = Report::combine(&[a.clone(), b]).unwrap();
    assert!(all.env.hidden_during_run);
    assert_eq!(all.wake_latency, a.wake_latency);
    assert!(all.timed_waits.is_none());
    assert!(Report::combine(&[]).is_none());
}

/// The provenance's fixed words are the page's, in the reader's
/// language; the names stay as written; a version-2 file's sentence is
/// kept as it was.
#[test]
fn provenance_words_are_the_pages() {
    use crate::lang::Lang;
    use crate::text::{Catalog, Entry};
    let mut de = Catalog::new(Lang::De);
    let text = |t: &str| Entry::Text(t.to_owned());
    de.insert(
        "reference.provenance",
        text("{cpu}, {cores} · {source}{samples}"),
    );
    de.insert("reference.cores", text("{count} Kerne"));
    de.insert(
        "reference.from_article",
        text("angegeben im Artikel „{title}“"),
    );
    de.insert("reference.samples", text(" · {count} Messwerte pro Test"));
    de.insert("data", text("{text}"));
    let json = r#"{"name": "n", "runtime": "r", "os": "o", "cpu": "Apple M4",
        "source": {"article": "Thread.Sleep vs Task.Delay"}, "samples": 200}"#;
    let native: NativeEnv = serde_json::from_str(json).unwrap();
    assert_eq!(
        de.render(&native.provenance(10)),
        "Apple M4, 10 Kerne · angegeben im Artikel „Thread.Sleep vs Task.Delay“ · 200 Messwerte pro Test"
    );
    let old = json.replace(
        r#"{"article": "Thread.Sleep vs Task.Delay"}"#,
        r#""stated somewhere""#,
    );
    let native: NativeEnv = serde_json::from_str(&old).unwrap();
    assert_eq!(native.source, Source::Written("stated somewhere".into()));
    assert_eq!(
        serde_json::to_string(&native.source).unwrap(),
        r#""stated somewhere""#
    );
}

#[test]
fn version_and_schema_are_checked() {
    let future = r#"{"schema":"waitlab.result","version":99}"#;
    assert!(matches!(
        Report::from_json(future),
        Err(SchemaError::UnsupportedVersion { found: 99, .. })
    ));
    let foreign = r#"{"schema":"other","version":1}"#;
    assert!(matches!(
        Report::from_json(foreign),
        Err(SchemaError::ForeignSchema(_))
    ));
    assert!(matches!(
        Report::from_json("<script>"),
        Err(SchemaError::Malformed(_))
    ));
}

/// A failure is kept as a phrase in JSON and read back as one; a
/// version-3 file's failure sentence reads as written.
#[test]
fn failures_are_phrases_and_old_sentences_stay() {
    let mut report = Report::new(Environment::test_chrome(), None);
    let said = Phrase::new(key!("run.failed")).phrase("why", Phrase::written("the worker stopped"));
    report.failure = Some(Failure::Said(said.clone()));
    let back = Report::from_json(&report.to_json()).unwrap();
    assert_eq!(back.failure, Some(Failure::Said(said)));
    let old = report.to_json().replace("\"version\": 4", "\"version\": 3");
    let old = old
        .split("\"failure\"")
        .next()
        .unwrap()
        .trim_end()
        .trim_end_matches(',')
        .to_owned()
        + ", \"failure\": \"Der Lauf schlug fehl\" }";
    let read = Report::from_json(&old).unwrap();
    assert_eq!(
        read.failure,
        Some(Failure::Written("Der Lauf schlug fehl".into()))
    );
}
