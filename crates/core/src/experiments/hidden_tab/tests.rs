//! Tests of experiment 10 (a hidden tab): the hidden spans, each way's
//! intervals read apart, its lost ticks and lateness, the findings, the
//! lesson and the link section.

use super::*;
use crate::experiments::Findings;
use crate::lesson::Lessons;

/// Ticks every `every` ms over `from..to`.
fn ticks(from: f64, to: f64, every: f64) -> Vec<f64> {
    let n = ((to - from) / every).floor() as usize;
    (0..=n).map(|i| from + i as f64 * every).collect()
}

/// A run of 15 s hidden from 5 s to 10 s: a worker that kept 10 ms, and
/// a page timer on a one-second grid while hidden.
fn run() -> HiddenTab {
    let hidden = hidden_spans(false, &[(5000.0, true), (10_000.0, false)], 15_000.0);
    let steady = ticks(0.0, 15_000.0, 10.0);
    let mut throttled = ticks(0.0, 5000.0, 10.0);
    throttled.extend(ticks(6000.0, 10_000.0, 1000.0));
    throttled.extend(ticks(10_010.0, 15_000.0, 10.0));
    let results = vec![
        KeeperResult::of_ticks(Keeper::PageNested, &throttled, &hidden, 10),
        KeeperResult::of_ticks(Keeper::WorkerTimeout, &steady, &hidden, 10),
    ];
    HiddenTab {
        config: HiddenConfig::default(),
        hidden,
        results,
    }
}

#[test]
fn spans_follow_the_visibility_changes() {
    let s = hidden_spans(
        false,
        &[(100.0, true), (300.0, false), (900.0, true)],
        1000.0,
    );
    let pairs: Vec<(f64, f64)> = s.iter().map(|s| (s.from_ms, s.to_ms)).collect();
    assert_eq!(pairs, [(100.0, 300.0), (900.0, 1000.0)]);
    // Hidden from the start; repeated events change nothing.
    let s = hidden_spans(
        true,
        &[(50.0, true), (200.0, false), (250.0, false)],
        1000.0,
    );
    assert_eq!(
        s,
        [Span {
            from_ms: 0.0,
            to_ms: 200.0
        }]
    );
    assert!(hidden_spans(false, &[], 1000.0).is_empty());
}

#[test]
fn intervals_are_read_apart_with_lost_ticks_and_lateness() {
    let r = run();
    let (page, worker) = (&r.results[0], &r.results[1]);
    assert_eq!(page.visible.p50(), Some(10.0));
    assert_eq!(page.hidden.summary().unwrap().max, 1000.0);
    // 500 ticks were due in 5 s hidden; 6 came (at 5, 6, 7, 8 and 9 s,
    // and one as the page came back).
    assert_eq!(page.lost, Some(494));
    assert!(page.slowdown().unwrap() > 50.0);
    assert_eq!(page.kept(), Some(Kept::No));
    assert_eq!(worker.hidden.p50(), Some(10.0));
    assert_eq!(worker.lost, Some(0));
    assert_eq!(worker.behind_ms, Some(0.0));
    assert_eq!(worker.kept(), Some(Kept::Time));
    // The page ended 496 ticks behind, less the 10 ms it resumed late.
    assert!(
        (page.behind_ms.unwrap() - 4950.0).abs() < 1e-6,
        "{:?}",
        page.behind_ms
    );
}

#[test]
fn a_loop_that_catches_up_runs_in_bursts_and_loses_nothing() {
    let r = run();
    // Every tick due by each wake-up runs at once when the page is woken
    // once a second, and the last second's as it comes back.
    let mut clock = ticks(0.0, 5000.0, 10.0);
    for wake in [6000.0, 7000.0, 8000.0, 9000.0, 10_000.5] {
        let since = *clock.last().unwrap();
        let due = ((wake - since) / 10.0).floor() as usize;
        clock.extend(std::iter::repeat_n(wake, due));
    }
    clock.extend(ticks(10_010.0, 15_000.0, 10.0));
    let k = KeeperResult::of_ticks(Keeper::PageClock, &clock, &r.hidden, 10);
    assert_eq!(k.lost, Some(0));
    assert_eq!(k.hidden.p50(), Some(0.0));
    assert_eq!(k.kept(), Some(Kept::InBursts));
}

#[test]
fn a_page_that_stayed_visible_says_so() {
    let steady = ticks(0.0, 15_000.0, 10.0);
    let r = KeeperResult::of_ticks(Keeper::PageInterval, &steady, &[], 10);
    assert_eq!(r.lost, None);
    assert!(matches!(r.hidden, Outcome::Unavailable { .. }));
    assert_eq!(r.kept(), None);
    let run = HiddenTab {
        config: HiddenConfig::default(),
        hidden: Vec::new(),
        results: vec![r],
    };
    let findings = run.findings(None);
    assert_eq!(findings.len(), 1);
    assert_eq!(
        findings[0].key,
        crate::key!("hidden_tab.finding.not_hidden")
    );
    assert_eq!(run.readings(None), [None]);
}

#[test]
fn findings_and_lesson_name_who_kept_time() {
    let r = run();
    let keys: Vec<_> = r.findings(None).iter().map(|p| p.key).collect();
    assert_eq!(
        keys,
        [
            crate::key!("hidden_tab.finding.kept"),
            crate::key!("hidden_tab.finding.slowed")
        ]
    );
    let Some(Some(crate::lesson::Reading::Pair(pair))) = r.readings(None).pop() else {
        panic!("a reading of the lesson");
    };
    assert_eq!((pair.wrong, pair.right), (1000.0, 10.0));
}

#[test]
fn the_link_section_round_trips() {
    let mut report =
        crate::schema::Report::new(crate::environment::Environment::test_chrome(), None);
    report.hidden_tab = Some(run());
    let body = crate::link::encode_body(&report);
    let back = crate::link::decode_body(&body).unwrap().hidden_tab.unwrap();
    assert_eq!(back.hidden, report.hidden_tab.as_ref().unwrap().hidden);
    assert_eq!(back.results[0].lost, Some(494));
    let p50 = back.results[1].hidden.p50().unwrap();
    assert!((p50 - 10.0).abs() < 0.1, "{p50}");
}
