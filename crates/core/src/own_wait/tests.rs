//! The own way's replies, parts, verdicts and links.

use super::*;
use crate::experiments::own_way::MOST_CODE_CHARS;

#[test]
fn replies_of_no_known_shape_are_refused() {
    let read = Reply::read;
    assert_eq!(
        read("ready", Some(0.005), None, None, None, None),
        Some(Reply::Ready { step_ms: 0.005 })
    );
    assert_eq!(
        read("ready", Some(0.0), None, None, None, None),
        Some(Reply::Ready { step_ms: 1.0 })
    );
    assert_eq!(read("ready", Some(f64::NAN), None, None, None, None), None);
    assert_eq!(read("ready", None, None, None, None, None), None);
    let two = Some(vec![1.0, 1.1]);
    assert_eq!(
        read("samples", None, two.clone(), None, None, Some(2)),
        Some(Reply::Samples(vec![1.0, 1.1]))
    );
    assert_eq!(
        read("samples", None, two.clone(), None, None, Some(3)),
        None,
        "not what was asked"
    );
    assert_eq!(
        read("samples", None, two, None, None, None),
        None,
        "nothing asked"
    );
    assert_eq!(
        read("samples", None, Some(vec![-1.0, 1.0]), None, None, Some(2)),
        None
    );
    assert_eq!(
        read(
            "samples",
            None,
            Some(vec![f64::INFINITY]),
            None,
            None,
            Some(1)
        ),
        None
    );
    let long = "x".repeat(1000);
    assert_eq!(
        read("error", None, None, Some(long), None, None),
        Some(Reply::Failed("x".repeat(MOST_MESSAGE_CHARS)))
    );
    assert_eq!(read("eval", None, None, Some("x".into()), None, None), None);
}

#[test]
fn parts_end_where_a_cell_would_check() {
    let at = checks(200);
    assert_eq!(at[0], MIN_SAMPLES);
    assert_eq!(at.last(), Some(&200));
    assert!(at.windows(2).all(|w| w[0] < w[1]));
    assert!(at.iter().all(|&n| n == 200 || Stop::checks_at(n)), "{at:?}");
    assert_eq!(checks(12), [12], "fewer than the rule's least: one part");
    assert!(part_limit_ms(30, 1.0) >= 3_000 && part_limit_ms(1_000_000, 1e9) == 60_000);
}

#[test]
fn a_hand_written_timer_is_judged_like_a_built_in_one() {
    let around = |m: f64| {
        (0..60)
            .map(|i| m + f64::from(i % 7) * 0.01)
            .collect::<Vec<_>>()
    };
    let clock = Some(ClockInfo {
        min_step_ms: 0.005,
        typical_step_ms: 0.005,
        readings: 100,
    });
    assert_eq!(
        judge(&around(1.1), clock, &around(1.1), 0.005).verdict(),
        Some(verdict::Verdict::Same)
    );
    assert_eq!(
        judge(&around(1.1), clock, &around(4.2), 0.005).verdict(),
        Some(verdict::Verdict::Slower)
    );
}

/// A real browser run of experiment 1 (the golden file) whose
/// back-to-back `setTimeout(1)` took 60 times, with a way of `code`
/// timed against it: that cell's own times.
fn shared(code: &str) -> (TimedWaits, Option<ClockInfo>) {
    let report =
        crate::schema::Report::from_json(include_str!("../../tests/data/report_v1.json")).unwrap();
    let mut tw = report.timed_waits.expect("the set has experiment 1");
    let against = CellKey {
        mechanism: crate::experiments::timed_waits::Mechanism::TimeoutAwaited,
        requested_ms: Some(1),
    };
    let samples: Vec<f64> = (0..60).map(|i| 1.1 + f64::from(i % 7) * 0.013).collect();
    tw.config.samples = 60;
    let builtin = tw.cells.iter_mut().find(|c| c.key == against).unwrap();
    builtin.outcome = Outcome::measured(samples.clone()).unwrap();
    tw.own = timed(
        code.to_owned(),
        against,
        (samples, 0.005),
        OtherTasks::new(5, 5),
    )
    .map(std::sync::Arc::new);
    (tw, report.env.clock)
}

/// The golden run's report holding `tw`.
fn with(tw: TimedWaits, clock: Option<ClockInfo>) -> crate::schema::Report {
    let mut report =
        crate::schema::Report::from_json(include_str!("../../tests/data/report_v1.json")).unwrap();
    assert_eq!(report.env.clock, clock);
    report.timed_waits = Some(tw);
    report
}

#[test]
fn a_way_travels_in_a_link_with_its_code_and_verdict() {
    let code = "async (ms) => {\n  await new Promise((r) => setTimeout(r, ms)); // <b>x</b>\n}";
    let (tw, clock) = shared(code);
    let told = tell_timed(&tw, clock, tw.own.as_ref().unwrap(), false).unwrap();
    assert_eq!(told.verdict_id, Some("same"), "a cell's own times");
    let report = with(tw.clone(), clock);
    let back = crate::link::decode_body(&crate::link::encode_body(&report)).unwrap();
    let way = back.timed_waits.as_ref().unwrap().own.as_ref().unwrap();
    assert_eq!(way.code, code, "code comes back whole, as text");
    assert_eq!(way.against, tw.own.as_ref().unwrap().against);
    let read = tell_timed(back.timed_waits.as_ref().unwrap(), clock, way, true).unwrap();
    assert_eq!(read.verdict_id, Some("same"), "sketches of one series");
    // The longest code a way holds fits a link; a longer one is cut.
    let mut long = report.clone();
    let way = long.timed_waits.as_mut().unwrap().own.as_mut().unwrap();
    std::sync::Arc::make_mut(way).code = "é".repeat(MOST_CODE_CHARS + 5);
    let back = crate::link::decode_body(&crate::link::encode_body(&long)).unwrap();
    let code = &back.timed_waits.unwrap().own.unwrap().code;
    assert_eq!(code.chars().count(), MOST_CODE_CHARS);
    // A run without a way writes the link it wrote before ways came.
    let mut plain = report.clone();
    plain.timed_waits.as_mut().unwrap().own = None;
    let body = crate::link::encode_body(&plain);
    assert!(body.len() < crate::link::encode_body(&report).len());
    // What the recipe and its 60 times add to a link, as the page
    // makes one (deflated, base64url).
    let link = |r: &crate::schema::Report| {
        let body = crate::link::encode_body(r);
        crate::link::wrap(&miniz_oxide::deflate::compress_to_vec(&body, 10)).len()
    };
    let added = link(&report) - link(&plain);
    println!("a timed way adds {added} characters to a link");
    assert!(added < 600, "{added} characters");
    assert_eq!(
        crate::link::decode_body(&body)
            .unwrap()
            .timed_waits
            .unwrap()
            .own,
        None
    );
}

/// Whether a way held its thread is said beside its verdict, and a
/// link carries it; a way without the count (a link made before it)
/// says nothing of it; a count no sandbox gives is refused.
#[test]
fn a_way_that_held_its_thread_says_so_beside_its_verdict() {
    let (mut tw, clock) = shared(Kind::Timed.recipe());
    let en = crate::text::Catalog::english();
    for (ran_in, id, words) in [
        (0, "held", "held its thread"),
        (5, "free", "other tasks run"),
        (2, "some", "3 of 5"),
    ] {
        std::sync::Arc::make_mut(tw.own.as_mut().unwrap()).other_tasks = OtherTasks::new(ran_in, 5);
        let told = tell_timed(&tw, clock, tw.own.as_ref().unwrap(), false).unwrap();
        let (phrase, said) = told.held.expect("counted");
        let text = en.render(&phrase);
        assert_eq!(said, id, "{text}");
        assert!(text.contains(words) && !text.contains('⟦'), "{text}");
        let report = with(tw.clone(), clock);
        let back = crate::link::decode_body(&crate::link::encode_body(&report)).unwrap();
        let way = back.timed_waits.unwrap().own.unwrap();
        assert_eq!(way.other_tasks, OtherTasks::new(ran_in, 5));
    }
    std::sync::Arc::make_mut(tw.own.as_mut().unwrap()).other_tasks = None;
    let told = tell_timed(&tw, clock, tw.own.as_ref().unwrap(), false).unwrap();
    assert_eq!(told.held, None);
    let back = crate::link::decode_body(&crate::link::encode_body(&with(tw, clock))).unwrap();
    assert_eq!(back.timed_waits.unwrap().own.unwrap().other_tasks, None);
    let read = |tasks| Reply::read("tasks", None, None, None, Some(tasks), None);
    assert_eq!(
        read((2.0, 5.0)),
        Some(Reply::OtherTasks(OtherTasks { ran_in: 2, of: 5 }))
    );
    for bad in [
        (6.0, 5.0),
        (1.0, 4.0),
        (0.5, 5.0),
        (-1.0, 5.0),
        (f64::NAN, 5.0),
    ] {
        assert_eq!(read(bad), None, "{bad:?}");
    }
    assert_eq!(Reply::read("tasks", None, None, None, None, None), None);
}

/// A way faster than a chained timer held to the nesting clamp says
/// why; faster than a cell the clamp does not hold, or not faster, it
/// says nothing more.
#[test]
fn a_way_faster_than_a_clamped_chain_names_the_clamp() {
    let (mut tw, clock) = shared(Kind::Timed.recipe());
    let en = crate::text::Catalog::english();
    let against = tw.own.as_ref().unwrap().against;
    let level = tw
        .chain
        .clamp_onset(clock.unwrap().tolerance_ms())
        .expect("the golden run's chain is clamped");
    let told = |tw: &TimedWaits| tell_timed(tw, clock, tw.own.as_ref().unwrap(), false).unwrap();
    assert_eq!(told(&tw).reason, None, "the same as an unclamped cell");
    // The built-in cell held at the clamp, the way at 1.1 ms.
    let clamped: Vec<f64> = (0..60).map(|i| 4.1 + f64::from(i % 5) * 0.01).collect();
    let cell = tw.cells.iter_mut().find(|c| c.key == against).unwrap();
    cell.outcome = Outcome::measured(clamped).unwrap();
    let told_now = told(&tw);
    assert_eq!(told_now.verdict_id, Some("faster"));
    let reason = en.render(&told_now.reason.expect("the clamp named"));
    assert!(
        reason.contains("nesting clamp") && reason.contains(&format!("level {level}")),
        "{reason}"
    );
    // Not a chained timer: no clamp to name.
    let fresh = CellKey {
        mechanism: crate::experiments::timed_waits::Mechanism::TimeoutFreshTask,
        ..against
    };
    assert_eq!(clamp_reason(&tw, clock, fresh), None);
}

#[test]
fn a_way_against_no_cell_of_its_run_is_damage() {
    let (mut tw, clock) = shared(Kind::Timed.recipe());
    std::sync::Arc::make_mut(tw.own.as_mut().unwrap())
        .against
        .requested_ms = Some(7);
    let report = with(tw, clock);
    let body = crate::link::encode_body(&report);
    assert!(matches!(
        crate::link::decode_body(&body),
        Err(crate::link::LinkError::Damaged(_))
    ));
}

#[test]
fn a_pair_travels_in_a_link_with_its_verdict_and_old_links_still_read() {
    use crate::experiments::wake_latency::{Strategy, WakeConfig, WakeLatency, WakeResult};
    let times = |m: f64| {
        (0..100)
            .map(|i| m + f64::from(i % 9) * 0.004)
            .collect::<Vec<_>>()
    };
    let way = |strategy, m| WakeResult {
        strategy,
        outcome: Outcome::measured(times(m)).unwrap(),
    };
    let mut wake = WakeLatency {
        config: WakeConfig::default(),
        skew_ms: Some(0.002),
        results: vec![way(Strategy::Event, 0.05), way(Strategy::PostMessage, 0.12)],
        own: None,
    };
    let (_, clock) = shared(Kind::Timed.recipe());
    let mut report = with(shared(Kind::Timed.recipe()).0, clock);
    report.wake_latency = Some(wake.clone());
    let body = crate::link::encode_body(&report);
    let pair = timed(
        Kind::Wake.recipe().to_owned(),
        Strategy::PostMessage,
        (times(0.12), 0.005),
        None,
    );
    wake.own = pair.map(std::sync::Arc::new);
    let told = tell_wake(&wake, clock, wake.own.as_ref().unwrap(), false).unwrap();
    assert_eq!(told.verdict_id, Some("same"));
    report.wake_latency = Some(wake);
    let with_pair = crate::link::encode_body(&report);
    assert!(
        with_pair.starts_with(&body[..body.len() / 2]) && with_pair.len() > body.len(),
        "a run without a pair writes what it wrote before pairs came"
    );
    let back = crate::link::decode_body(&with_pair).unwrap();
    let wake = back.wake_latency.unwrap();
    let pair = wake.own.as_ref().unwrap();
    assert_eq!(pair.code, Kind::Wake.recipe());
    assert_eq!(pair.against, Strategy::PostMessage);
    let read = tell_wake(&wake, clock, pair, true).unwrap();
    assert_eq!(read.verdict_id, Some("same"));
    assert_eq!(
        crate::link::decode_body(&body)
            .unwrap()
            .wake_latency
            .unwrap()
            .own,
        None
    );
}
