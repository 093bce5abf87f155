//! No impossible figure on the page: golden runs of the kind that once
//! showed a median of -0.0002 ms (wake latency's spin row) and a handoff
//! of -1.00 ms (producer/consumer), two threads' clocks disagreeing
//! before waitlab floored such times, opened from a link as a colleague
//! would, and every figure the page says of them read in English.

use super::*;
use crate::experiments::{Registered, Visit};
use crate::summary::{self, Lesson, Ran};
use crate::text::Catalog;

/// A Chromium run without isolation (0.1 ms clock steps, no skew
/// measured) whose spin wake-ups and message-port handoffs were stored
/// as their clocks' raw differences, some below zero.
const GOLDEN: &str = include_str!("../../tests/data/impossible_figures.json");

/// An experiment's findings in a report, as its section states them.
struct FindingsOf<'a>(&'a Report);

impl Visit for FindingsOf<'_> {
    type Out = Vec<Phrase>;
    fn visit<E: Registered>(self) -> Vec<Phrase> {
        E::of(self.0).map_or_else(Vec::new, |e| e.findings(self.0.env.clock))
    }
}

/// Whether `text` shows a figure no time or ratio can be: a negative
/// number, an infinity or not a number.
fn impossible(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    let negative = chars
        .windows(2)
        .any(|w| matches!(w[0], '-' | '−') && w[1].is_ascii_digit());
    negative || text.contains('∞') || text.contains("NaN") || text.contains("inf")
}

/// Everything the page says of `experiment` from `report` beside
/// `base`: its findings, its comparison's cells and notes, its verdicts'
/// sentences and the ratio among their figures (Cliff's delta, which
/// runs from -1 to 1, aside), and the summary's lines of its lessons.
fn said(experiment: Experiment, base: &Report, report: &Report, en: &Catalog) -> Vec<String> {
    let mut said: Vec<String> = experiment
        .visit(FindingsOf(report))
        .iter()
        .map(|p| en.render(p))
        .collect();
    let columns = experiment.columns();
    if let (Some(base), Some(group)) = (group(experiment, base), group(experiment, report)) {
        for row in &group.rows {
            said.extend(
                row.values
                    .iter()
                    .zip(&columns)
                    .map(|(v, c)| v.format(c.unit)),
            );
            said.extend(row.notes.iter().map(|n| en.render(n)));
        }
        let against = verdict::against(&base);
        for judged in verdict::judge(&base, &group) {
            let (sentence, figures) = judged.phrases(&against);
            said.push(en.render(&sentence));
            said.extend(figures.first().map(|f| en.render(f)));
        }
    }
    for lesson in Lesson::of(experiment) {
        let line = summary::line(lesson, Ran::Report(report), &[]);
        said.extend(line.run.iter().map(|p| en.render(p)));
    }
    said
}

#[test]
fn no_impossible_figure_after_the_runs_that_once_showed_them() {
    let en = Catalog::english();
    // The run as its sender held it (before waitlab floored such times),
    // opened from a link and from its file.
    let raw: Report = serde_json::from_str(GOLDEN).unwrap();
    let spin = raw.wake_latency.as_ref().unwrap().results[0]
        .outcome
        .summary()
        .unwrap();
    assert!(spin.p50 < 0.0, "the golden run's spin median is below zero");
    let linked = crate::link::decode_body(&crate::link::encode_body(&raw)).unwrap();
    let file = Report::from_json(GOLDEN).unwrap();
    let mut shown = 0;
    for opened in [&linked, &file] {
        for experiment in Experiment::ALL {
            for text in said(experiment, &file, opened, &en) {
                assert!(!impossible(&text), "{experiment:?}: {text}");
                shown += 1;
            }
        }
    }
    assert!(shown > 100, "{shown} texts read");
    // A row counted in a verdict is drawn: the spin row's 0 is a band.
    let group = group(Experiment::WakeLatency, &linked).unwrap();
    let charted = chart_columns(Experiment::WakeLatency, [&group]);
    let drawn = charted.drawn(Experiment::WakeLatency, &group, None);
    assert!(drawn.iter().all(|d| *d), "{drawn:?}");
    assert!(impossible("-0.0002 ms") && impossible("(∞×)") && !impossible("1–2 ms"));
}
