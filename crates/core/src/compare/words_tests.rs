//! What a comparison says in words (`compare.rs`, `compare/verdict.rs`):
//! its sources' names, its verdicts' sentences, a time under the clock.

use super::tests::{around, env, sampled};
use super::*;
use crate::clock::ClockInfo;
use crate::experiments::timed_waits::{Cell, CellKey, Mechanism, NestedChain};
use crate::experiments::timed_waits::{TimedWaits, TimedWaitsConfig};
use crate::outcome::Outcome;
use crate::schema::Environment;

#[test]
fn a_time_read_as_none_is_under_a_step() {
    let clock = ClockInfo {
        min_step_ms: 0.005,
        typical_step_ms: 0.005,
        readings: 100,
    };
    let zero = Value::Unresolved {
        value: 0.0,
        figure_ms: 0.0,
        clock,
    };
    assert_eq!(zero.format(Unit::Ms), "<0.005‡");
    assert_eq!(zero.format(Unit::Us), "<5.00‡");
    let small = Value::Unresolved {
        value: 0.01,
        figure_ms: 0.01,
        clock,
    };
    assert_eq!(small.format(Unit::Ms), "0.01‡");
}

/// Every source is named apart from the others, in words: the reader's
/// own run, a link's, and a set; and every verdict is a sentence whose
/// figures agree with it.
#[test]
fn sources_are_named_apart_and_verdicts_are_sentences() {
    use verdict::{Judged, judge};
    let en = crate::text::Catalog::english();
    let mut mine = one_cell(Environment::test_chrome());
    let own = group(Experiment::TimedWaits, &mine).unwrap();
    mine.from_link = true;
    let a = group(Experiment::TimedWaits, &mine).unwrap();
    let b = a.clone();
    let article = group(Experiment::TimedWaits, &one_cell(env(true))).unwrap();
    let mut groups = [own, a, b, article];
    distinct_names(groups.iter_mut());
    let names: Vec<String> = groups.iter().map(|g| en.render(&g.source)).collect();
    assert!(
        names[0].starts_with("You: Chrome") && names[0].ends_with(", now"),
        "{names:?}"
    );
    assert!(names[1].starts_with("Shared by link: Chrome"), "{names:?}");
    assert_eq!(names[2], format!("{} (2)", names[1]));
    assert_eq!(names[3], ".NET 10 (article) on M4 (the article)");
    assert_eq!((marker(0), marker(3), marker(26)), ('A', 'D', 'A'));

    // Faster by half: "2.0× faster than your run"; two wide spreads
    // apart by a fifth: "perhaps", never "the same".
    let base = sampled(
        Origin::Browser,
        0.005,
        &[("t", "t", around(1.0, 0.01, 200))],
    );
    let fast = sampled(Origin::Linked, 0.005, &[("t", "t", around(0.5, 0.01, 200))]);
    let against = verdict::against(&base);
    let said = |j: &Judged| {
        let (sentence, figures) = j.phrases(&against);
        (
            en.render(&sentence),
            figures.iter().map(|f| en.render(f)).collect::<Vec<_>>(),
        )
    };
    let (sentence, figures) = said(&judge(&base, &fast)[0]);
    assert!(
        sentence.starts_with("2.0× faster than your run"),
        "{sentence}"
    );
    assert!(
        figures[0].starts_with("×0.50") && figures[1].starts_with("p < 0.001"),
        "{figures:?}"
    );
    let wide = |c: f64| sampled(Origin::Browser, 0.005, &[("p", "p", around(c, 1.0, 40))]);
    let (sentence, _) = said(&judge(&wide(1.0), &wide(0.8))[0]);
    assert!(
        sentence.starts_with("perhaps 1.") && sentence.contains("× faster than your run"),
        "{sentence}"
    );
    // A summary counts the rows the chart leaves out.
    let judged = judge(&base, &fast);
    let summary = verdict::summary(&base, &fast, &judged, &[false]).unwrap();
    assert!(
        en.render(&summary)
            .ends_with("1 row faster; the chart leaves out 1 of them, the table has it."),
        "{}",
        en.render(&summary)
    );
}

/// A report of `env` with one timed wait measured.
fn one_cell(env: Environment) -> Report {
    let cell = Cell {
        key: CellKey {
            mechanism: Mechanism::ThreadSleep,
            requested_ms: Some(10),
        },
        outcome: Outcome::measured(vec![10.2, 10.4, 10.3]).unwrap(),
    };
    let chain = NestedChain { levels: Vec::new() };
    let config = TimedWaitsConfig::default();
    Report::new(
        env,
        Some(TimedWaits {
            config,
            cells: vec![cell],
            chain,
            own: None,
        }),
    )
}
