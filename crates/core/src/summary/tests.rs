//! The summary's tests: verdicts, figures and the article's and native
//! sets' words.

use super::*;
use crate::clock::ClockInfo;
use crate::experiments::Config;
use crate::experiments::JobMode;
use crate::experiments::pool_starvation::{PoolConfig, PoolRun, PoolStarvation};
use crate::experiments::timed_waits::Mechanism;
use crate::experiments::wake_latency::{Strategy, WakeConfig, WakeLatency, WakeResult};
use crate::outcome::Outcome;
use crate::schema::Environment;

/// The lesson named `id`.
fn lesson(id: &str) -> Lesson {
    Lesson::by_id(id).expect(id)
}

fn env() -> Environment {
    Environment {
        clock: Some(ClockInfo {
            min_step_ms: 0.005,
            typical_step_ms: 0.005,
            readings: 100,
        }),
        ..Environment::test_chrome()
    }
}

/// The article's stated figures, as the page bundles them.
fn article() -> Report {
    let json = include_str!("../../../../www/data/native/dotnet10-article-apple-m4.json");
    Report::from_json(json).unwrap()
}

/// A wake-latency run whose 1 ms sleep poll and event wait took these.
fn wake(poll: &[f64], event: &[f64]) -> Report {
    let result = |strategy, samples: &[f64]| WakeResult {
        strategy,
        outcome: Outcome::measured(samples.to_vec()).unwrap(),
    };
    let mut r = Report::new(env(), None);
    r.wake_latency = Some(WakeLatency {
        config: WakeConfig::default(),
        skew_ms: Some(0.0),
        results: vec![
            result(Strategy::SleepPoll, poll),
            result(Strategy::Event, event),
        ],
        own: None,
    });
    r
}

fn pool(blocking: f64, awaiting: f64) -> Report {
    let run = |mode, batch_ms| PoolRun {
        mode,
        batch_ms,
        extra_job_wait_ms: 0.0,
        spans: Vec::new(),
    };
    let mut r = Report::new(env(), None);
    r.pool_starvation = Some(PoolStarvation {
        config: PoolConfig::for_cores(2),
        runs: vec![
            run(JobMode::Blocking, blocking),
            run(JobMode::Async, awaiting),
        ],
        blocking_sleeps: true,
    });
    r
}

#[test]
fn a_lesson_holds_when_the_right_way_wins_clearly() {
    let en = crate::text::Catalog::english();
    let l = line(
        lesson("sleep_vs_delay"),
        Ran::Report(&pool(3000.0, 520.0)),
        &[],
    );
    assert_eq!(l.verdict, Verdict::Holds);
    let run = en.render(l.run.as_ref().unwrap());
    assert!(
        run.contains("3,000") && run.contains("520") && run.contains("5.8×"),
        "{run}"
    );
    assert_eq!(
        line(
            lesson("sleep_vs_delay"),
            Ran::Report(&pool(600.0, 520.0)),
            &[]
        )
        .verdict,
        Verdict::Barely
    );
    assert_eq!(
        line(
            lesson("sleep_vs_delay"),
            Ran::Report(&pool(500.0, 520.0)),
            &[]
        )
        .verdict,
        Verdict::Opposite
    );
    assert_eq!(
        line(lesson("sleep_vs_delay"), Ran::NotYet, &[]).verdict,
        Verdict::NotMeasured
    );
    // Waits the clock cannot tell apart are no verdict either way.
    let blurred = line(
        lesson("sleep_vs_delay"),
        Ran::Report(&pool(0.05, 0.01)),
        &[],
    );
    assert_eq!(blurred.verdict, Verdict::BelowClock);
    assert!(blurred.marked && !l.marked);
}

#[test]
fn every_lesson_has_its_words_and_an_experiment() {
    let en = crate::text::Catalog::english();
    for lesson in Lesson::all() {
        assert!(!en.render(&lesson.phrase()).contains('⟦'), "{lesson:?}");
        assert!(Lesson::of(lesson.experiment()).any(|l| l == lesson));
    }
    // Every experiment teaches at least one, and no two the same.
    let mut ids: Vec<&str> = Lesson::all().iter().map(|l| l.id()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), Lesson::all().len());
    for e in Experiment::ALL {
        assert!(Lesson::of(e).next().is_some(), "{e:?}");
    }
    for v in Verdict::ALL {
        assert!(!en.render(&v.phrase()).contains('⟦'), "{v:?}");
    }
}

/// The article's figures come from its stated set, never from a
/// browser run; a measured set stands beside the run under its name.
#[test]
fn sets_add_the_article_and_native_figures() {
    let article = article();
    let en = crate::text::Catalog::english();
    let l = line(
        lesson("sleep_vs_delay"),
        Ran::Report(&pool(3000.0, 520.0)),
        &[&article],
    );
    let stated = en.render(l.article.as_ref().unwrap());
    assert!(
        stated.contains("18,000") && stated.contains("18×"),
        "{stated}"
    );
    let unmeasured = line(lesson("signal_dont_poll"), Ran::NotYet, &[&article]);
    assert!(
        en.render(unmeasured.article.as_ref().unwrap())
            .contains("50×")
    );
    assert_eq!(unmeasured.verdict, Verdict::NotMeasured);
    let native_json = include_str!("../../../../www/data/native/rust-linux-x86_64.json");
    let native = Report::from_json(native_json).unwrap();
    let l = line(lesson("sleep_vs_delay"), Ran::NotYet, &[&native, &article]);
    assert_eq!(l.native.len(), 1);
    assert!(
        en.render(&l.native[0]).contains("Rust"),
        "{}",
        en.render(&l.native[0])
    );
    let wake_run = wake(&[1.1, 1.2, 1.3], &[0.05, 0.06, 0.07]);
    let l = line(
        lesson("signal_dont_poll"),
        Ran::Report(&wake_run),
        &[&article],
    );
    assert_eq!(l.verdict, Verdict::Holds);
}

/// A timed-waits run whose cells took these samples: `(mechanism,
/// requested, samples)`.
fn timed(cells: &[(Mechanism, Option<u32>, &[f64])]) -> Report {
    use crate::experiments::timed_waits::{
        Cell, CellKey, NestedChain, TimedWaits, TimedWaitsConfig,
    };
    let mut r = Report::new(env(), None);
    r.timed_waits = Some(TimedWaits {
        config: TimedWaitsConfig {
            durations_ms: vec![0, 1, 10],
            ..TimedWaitsConfig::default()
        },
        cells: cells
            .iter()
            .map(|(mechanism, requested_ms, samples)| Cell {
                key: CellKey {
                    mechanism: *mechanism,
                    requested_ms: *requested_ms,
                },
                outcome: Outcome::measured(samples.to_vec()).unwrap(),
            })
            .collect(),
        chain: NestedChain { levels: Vec::new() },
        own: None,
    });
    r
}

#[test]
fn a_timed_wait_is_a_minimum_where_none_ends_early() {
    let en = crate::text::Catalog::english();
    let on_time = timed(&[
        (Mechanism::TimeoutFreshTask, Some(1), &[1.08, 1.1, 1.2]),
        (Mechanism::WorkerAtomicsWait, Some(1), &[1.05, 1.08, 1.1]),
    ]);
    let l = line(lesson("timed_wait_minimum"), Ran::Report(&on_time), &[]);
    assert_eq!(l.verdict, Verdict::Holds);
    let run = en.render(l.run.as_ref().unwrap());
    assert!(
        run.starts_with("for a wait of 1 ms, await setTimeout(1) from a fresh task took 1.10 ms")
            && run.contains("Atomics.wait(1) in a worker took 1.08 ms"),
        "{run}"
    );
    // One wait of 10 ms that ended at 9 ms: the lesson does not hold.
    let early = timed(&[
        (Mechanism::TimeoutFreshTask, Some(1), &[1.08, 1.1, 1.2]),
        (Mechanism::TimeoutFreshTask, Some(10), &[9.0, 10.1, 10.2]),
    ]);
    let l = line(lesson("timed_wait_minimum"), Ran::Report(&early), &[]);
    assert_eq!(l.verdict, Verdict::Opposite);
    // An overshoot the clock cannot see is no verdict.
    let exact = timed(&[(Mechanism::TimeoutFreshTask, Some(1), &[1.0, 1.0, 1.01])]);
    let l = line(lesson("timed_wait_minimum"), Ran::Report(&exact), &[]);
    assert_eq!(l.verdict, Verdict::BelowClock);
    // The article's range and Windows' tick.
    let article = article();
    let l = line(lesson("timed_wait_minimum"), Ran::NotYet, &[&article]);
    let stated = en.render(l.article.as_ref().unwrap());
    assert!(
        stated.contains("0.3–2.0 ms") && stated.contains("15.6"),
        "{stated}"
    );
}

/// A resolved promise's await takes no time the clock sees: the lesson
/// holds, and no ratio is made of a zero (no "∞×" on the page).
#[test]
fn an_await_of_a_done_promise_does_not_yield() {
    let en = crate::text::Catalog::english();
    let run = timed(&[
        (Mechanism::ResolvedPromise, None, &[0.0, 0.0, 0.0]),
        (Mechanism::MessageChannel, None, &[0.2, 0.25, 0.3]),
        (Mechanism::SchedulerYield, None, &[0.1, 0.2, 0.3]),
    ]);
    let l = line(lesson("await_done_no_yield"), Ran::Report(&run), &[]);
    assert_eq!(l.verdict, Verdict::Holds);
    let text = en.render(l.run.as_ref().unwrap());
    assert!(
        text.contains("a real yield (await scheduler.yield()) 0.2 ms")
            && text.contains("under the clock"),
        "{text}"
    );
    assert!(!text.contains('∞') && !text.contains('-'), "{text}");
}

/// A run that could not measure a lesson says why, never "not run yet";
/// a figure below zero is shown as zero, marked as under the clock.
#[test]
fn an_unmeasured_lesson_says_why() {
    let en = crate::text::Catalog::english();
    let plain = plain_wake(&env().user_agent);
    let l = line(lesson("signal_dont_poll"), Ran::Report(&plain), &[]);
    assert_eq!(l.verdict, Verdict::Unavailable);
    let why = en.render(l.why.as_ref().unwrap());
    assert!(why.contains("cross-origin isolated"), "{why}");
    // A run that had shared memory and still measured one way only (a
    // fault) says its section tells why, not that it lacked any.
    let mut faulty = plain.clone();
    faulty.env.cross_origin_isolated = true;
    faulty.wake_latency.as_mut().unwrap().results.truncate(1);
    let l = line(lesson("signal_dont_poll"), Ran::Report(&faulty), &[]);
    let why = en.render(l.why.as_ref().unwrap());
    assert!(!why.contains("SharedArrayBuffer"), "{why}");
    let refused = Phrase::written("Not available here");
    let l = line(lesson("spin_briefly"), Ran::Refused(&refused), &[]);
    assert_eq!(l.verdict, Verdict::Unavailable);
    assert!(l.run.is_none() && l.why == Some(refused.clone()));
    let negative = line(
        lesson("sleep_vs_delay"),
        Ran::Report(&pool(3.0, -0.002)),
        &[],
    );
    let text = en.render(negative.run.as_ref().unwrap());
    assert!(!text.contains('-') && !text.contains('∞'), "{text}");
}

/// The spin-vs-wake crossover is the signalled wake-up's median.
#[test]
fn the_crossover_is_a_wake_up() {
    let en = crate::text::Catalog::english();
    let report = wake(&[1.1, 1.2, 1.3], &[0.19, 0.2, 0.21]);
    let crossover = report
        .wake_latency
        .as_ref()
        .unwrap()
        .crossover(report.env.clock);
    let text = en.render(&crossover.unwrap());
    assert!(text.contains("took 0.2 ms"), "{text}");
}

/// Percentages beside their ratio multiply out: a spin's busy share of
/// 100 % against 0.0548 % is said as "0.055 %" beside ×1,825, never as
/// "0.1 %" (which reads as ×1,000).
#[test]
fn a_ratio_beside_two_percentages_is_their_ratio() {
    use crate::lesson::{Pair, Reading};
    let en = crate::text::Catalog::english();
    let said = en.render(
        &Reading::Pair(Pair::percent(100.0, 0.0548))
            .phrase(crate::text::Key::of("summary.pair.spin_briefly"), None),
    );
    assert!(said.contains("100 %") && said.contains("0.055 %"), "{said}");
    assert!(said.contains("1,825"), "{said}");
    let said = en.render(
        &Reading::Pair(Pair::percent(100.0, 4.2))
            .phrase(crate::text::Key::of("summary.pair.spin_briefly"), None),
    );
    assert!(said.contains("4.2 %"), "{said}");
}

/// A wake-latency run of `user_agent` on a page without isolation: the
/// message way measured, the polling ways unavailable for it.
fn plain_wake(user_agent: &str) -> Report {
    let mut r = Report::new(
        Environment {
            user_agent: user_agent.into(),
            cross_origin_isolated: false,
            ..env()
        },
        None,
    );
    r.wake_latency = Some(WakeLatency {
        config: WakeConfig::default(),
        skew_ms: None,
        results: vec![
            WakeResult {
                strategy: Strategy::PostMessage,
                outcome: Outcome::measured(vec![0.2, 0.3, 0.25]).unwrap(),
            },
            WakeResult {
                strategy: Strategy::SleepPoll,
                outcome: Outcome::Unavailable {
                    reason: crate::outcome::reason::NOT_ISOLATED.into(),
                },
            },
        ],
        own: None,
    });
    r
}

/// A bundled engine set's wake-latency part, as the page reads it (from
/// its pack, which names the set where the file has its user agent); the
/// set's file as `json`.
fn engine_set(json: &str) -> Report {
    use crate::link::set::{decode_part, encode_part};
    let set = Report::from_json(json).unwrap();
    decode_part(&encode_part(
        &set,
        crate::experiments::Experiment::WakeLatency,
    ))
    .unwrap()
}

/// A lesson an embed could not measure for want of shared memory gets
/// the answer of the bundled set of the reader's own engine, measured
/// isolated, with that set's verdict; no other engine's, none from a set
/// that lacks the rows too, and none where the run measured it.
#[test]
fn an_unmeasured_lesson_gets_its_own_engines_answer() {
    let en = crate::text::Catalog::english();
    let signal = lesson("signal_dont_poll");
    let sets = [
        engine_set(include_str!(
            "../../../../www/data/native/chromium-linux-webdriver.json"
        )),
        engine_set(include_str!(
            "../../../../www/data/native/firefox-linux-webdriver.json"
        )),
        engine_set(include_str!(
            "../../../../www/data/native/webkitgtk-linux-webdriver.json"
        )),
        article(),
    ];
    let sets: Vec<&Report> = sets.iter().collect();
    let plain = plain_wake;
    let firefox = plain("Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0");
    let answer = own_engine_answer(signal, &firefox, &sets).expect("Firefox's set answers");
    assert_eq!(
        answer.verdict,
        line(signal, Ran::Report(sets[1]), &[]).verdict,
        "the set's own verdict"
    );
    let said = en.render(&answer.said);
    assert!(
        said.contains("Firefox 153")
            && said.contains("cross-origin isolated")
            && said.contains("polling noticed a flag after"),
        "{said}"
    );
    // Chrome's run gets Chromium's set; WebKit's none (its set has no
    // shared memory either), nor does one without its engine's set.
    let chrome = plain(
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36",
    );
    let said = en.render(&own_engine_answer(signal, &chrome, &sets).unwrap().said);
    assert!(said.contains("Chromium 156"), "{said}");
    let safari = plain(
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15",
    );
    assert_eq!(own_engine_answer(signal, &safari, &sets), None);
    assert_eq!(
        own_engine_answer(signal, &firefox, &[sets[0], sets[2]]),
        None
    );
    // Shared memory there, one way missing all the same (a hidden-tab
    // run that stayed visible, say): not the engine's to answer.
    let mut had_it = firefox.clone();
    had_it.wake_latency.as_mut().unwrap().results.truncate(1);
    assert_eq!(own_engine_answer(signal, &had_it, &sets), None);
    // Measured here: the run's own answer stands.
    let mut measured = wake(&[1.2, 1.3], &[0.05, 0.06]);
    measured.env.user_agent = firefox.env.user_agent.clone();
    assert_eq!(own_engine_answer(signal, &measured, &sets), None);
}

/// Engines are told by the tokens of their user agents, iOS's browsers
/// being WebKit.
#[test]
fn a_user_agent_names_its_engine() {
    use crate::environment::Engine;
    let engine = |ua: &str| {
        Environment {
            user_agent: ua.into(),
            ..env()
        }
        .engine()
    };
    for (ua, want) in [
        (
            "Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0",
            Some(Engine::Gecko),
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36 Edg/156.0",
            Some(Engine::Blink),
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/156.0 Mobile/15E148 Safari/604.1",
            Some(Engine::WebKit),
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/153.0 Mobile/15E148 Safari/605.1.15",
            Some(Engine::WebKit),
        ),
        ("curl/8.0", None),
    ] {
        assert_eq!(engine(ua), want, "{ua}");
    }
}
