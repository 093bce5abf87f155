//! What differs between browser engines in one experiment, in kind: the
//! bundled engine sets (`cargo xtask gallery`) set side by side, each
//! difference said from their rows, never from hand-written numbers. A
//! way of waiting that one engine measured and another could not (no
//! shared memory, no `scheduler.yield`, no `Atomics.waitAsync`: the row's
//! own note says why), and, in experiment 1, the nesting level at which
//! the 4 ms clamp on nested timers starts; and an engine whose set has
//! no run of the experiment at all.

use super::{Group, Row, Value};
use crate::experiments::Experiment;
use crate::key;
use crate::schema::Report;
use crate::text::{Arg, Phrase};

/// The engines' sentences for `experiment`: each difference in kind
/// between `engines` (at least two, each a bundled engine set), or one
/// sentence that there is none. Empty with fewer than two engines.
pub fn differences(experiment: Experiment, engines: &[&Report]) -> Vec<Phrase> {
    if engines.len() < 2 {
        return Vec::new();
    }
    let (groups, absent): (Vec<_>, Vec<_>) = engines
        .iter()
        .map(|r| (super::group(experiment, r), r.env.short_name()))
        .partition(|(g, _)| g.is_some());
    let groups: Vec<Group> = groups.into_iter().filter_map(|(g, _)| g).collect();
    let mut said = missing(&groups);
    if !absent.is_empty() && !groups.is_empty() {
        said.push(Phrase::new(key!("compare.engines.absent")).arg(
            "engines",
            Arg::List(absent.into_iter().map(|(_, name)| name).collect()),
        ));
    }
    if experiment == Experiment::TimedWaits {
        said.extend(clamp_onsets(engines));
    }
    if said.is_empty() {
        said.push(Phrase::new(key!("compare.engines.none")).arg(
            "engines",
            Arg::List(groups.iter().map(|g| g.source.clone()).collect()),
        ));
    }
    said
}

/// A row that ran but has no figure: its notes say why.
fn unmeasured(row: &Row) -> bool {
    !row.notes.is_empty() && row.values.iter().all(|v| *v == Value::Absent)
}

/// Whether two rows are the same way of waiting (with the same wait).
fn same_way(a: &Row, b: &Row) -> bool {
    match (a.id, b.id) {
        (Some(x), Some(y)) => x == y && a.requested_ms == b.requested_ms,
        _ => a.what == b.what && a.requested_ms == b.requested_ms,
    }
}

/// The ways of waiting that some engines measured and others could not,
/// with those engines and their reason (the row's own note), one sentence
/// per reason and engines: "Atomics.wait(1) and Atomics.wait(10) in a
/// worker: not measured in WebKitGTK 2.50 (…) (needs SharedArrayBuffer …)".
fn missing(groups: &[Group]) -> Vec<Phrase> {
    // Each such way (what, why) and the engines that could not.
    let mut ways = Vec::new();
    for (i, group) in groups.iter().enumerate() {
        for row in group.rows.iter().filter(|r| unmeasured(r)) {
            let measured_elsewhere = groups.iter().enumerate().any(|(j, other)| {
                j != i
                    && other
                        .rows
                        .iter()
                        .any(|o| same_way(o, row) && !unmeasured(o))
            });
            if !measured_elsewhere {
                continue;
            }
            let way = (row.what.clone(), row.notes[0].clone());
            gather(&mut ways, way, group.source.clone());
        }
    }
    // The ways with the same reason in the same engines, said once.
    let mut said = Vec::new();
    for ((what, why), engines) in ways {
        gather(&mut said, (why, engines), what);
    }
    said.into_iter()
        .map(|((why, engines), whats)| {
            Phrase::new(key!("compare.engines.missing"))
                .arg("what", Arg::List(whats))
                .arg("engines", Arg::List(engines))
                .phrase("why", why)
        })
        .collect()
}

/// Where the engines' nested-timer chains settle on the 4 ms clamp, if
/// they settle at different levels: "level 5 in Chrome 148 on Linux and
/// Firefox 140 on Linux, level 6 in …".
fn clamp_onsets(engines: &[&Report]) -> Option<Phrase> {
    let mut levels = Vec::new();
    for report in engines {
        let (Some(tw), Some(clock)) = (&report.timed_waits, report.env.clock) else {
            continue;
        };
        let Some(level) = tw.chain.clamp_onset(clock.tolerance_ms()) else {
            continue;
        };
        gather(&mut levels, level, report.env.short_name());
    }
    if levels.len() < 2 {
        return None;
    }
    levels.sort_by_key(|(level, _)| *level);
    let at = levels
        .into_iter()
        .map(|(level, names)| {
            Phrase::new(key!("compare.engines.clamp_at"))
                .digits("level", level)
                .arg("engines", Arg::List(names))
        })
        .collect();
    Some(Phrase::new(key!("compare.engines.clamp")).arg("levels", Arg::List(at)))
}

/// Adds `value` to the values gathered under `key`, in first-seen order.
fn gather<K: PartialEq, V>(groups: &mut Vec<(K, Vec<V>)>, key: K, value: V) {
    match groups.iter_mut().find(|(k, _)| *k == key) {
        Some((_, values)) => values.push(value),
        None => groups.push((key, vec![value])),
    }
}

#[cfg(test)]
mod tests {
    use super::differences;
    use crate::experiments::Experiment;
    use crate::outcome::Outcome;
    use crate::schema::{NativeEnv, Report, Source};
    use crate::text::{Arg, Phrase};

    /// A real browser run of experiment 1 as a bundled engine named `name`.
    fn engine(name: &str) -> Report {
        let mut report =
            Report::from_json(include_str!("../../tests/data/report_v1.json")).unwrap();
        report.env.native = Some(NativeEnv {
            name: name.into(),
            runtime: String::new(),
            os: String::new(),
            cpu: String::new(),
            source: Source::Engine("cargo xtask gallery".into()),
            samples: None,
        });
        report
    }

    /// The names a sentence lists under `arg`.
    fn listed(p: &Phrase, arg: &str) -> Vec<Phrase> {
        p.args
            .iter()
            .find(|(name, _)| name == arg)
            .and_then(|(_, a)| match a {
                Arg::List(list) => Some(list.clone()),
                _ => None,
            })
            .unwrap_or_default()
    }

    #[test]
    fn engines_that_measured_the_same_ways_differ_in_no_kind() {
        let (a, b) = (engine("A"), engine("B"));
        assert!(differences(Experiment::TimedWaits, &[&a]).is_empty());
        let said = differences(Experiment::TimedWaits, &[&a, &b]);
        assert_eq!(said.len(), 1);
        assert_eq!(said[0].key, crate::key!("compare.engines.none"));
        assert_eq!(listed(&said[0], "engines").len(), 2);
    }

    #[test]
    fn a_way_one_engine_could_not_measure_is_said_with_its_reason_once() {
        let a = engine("A");
        let mut b = engine("B");
        let tw = b.timed_waits.as_mut().unwrap();
        // Two cells of one mechanism, unavailable for one reason.
        let mechanism = tw.cells[0].key.mechanism;
        for cell in tw.cells.iter_mut().filter(|c| c.key.mechanism == mechanism) {
            cell.outcome = Outcome::Unavailable {
                reason: "no such thing here".into(),
            };
        }
        let said = differences(Experiment::TimedWaits, &[&a, &b]);
        let missing: Vec<_> = said
            .iter()
            .filter(|p| p.key == crate::key!("compare.engines.missing"))
            .collect();
        assert_eq!(missing.len(), 1, "{said:?}");
        assert_eq!(listed(missing[0], "engines"), [b.env.short_name()]);
        assert!(!listed(missing[0], "what").is_empty());
        // An engine whose set has no run of the experiment is named apart.
        let mut c = engine("C");
        c.timed_waits = None;
        let said = differences(Experiment::TimedWaits, &[&a, &c]);
        assert!(
            said.iter()
                .any(|p| p.key == crate::key!("compare.engines.absent")),
            "{said:?}"
        );
    }

    #[test]
    fn nested_timer_clamps_that_start_apart_are_said_by_level() {
        let a = engine("A");
        let mut b = engine("B");
        let levels = &mut b.timed_waits.as_mut().unwrap().chain.levels;
        for level in levels.iter_mut() {
            level.p50 = 5.0;
        }
        let said = differences(Experiment::TimedWaits, &[&a, &b]);
        assert!(
            said.iter()
                .any(|p| p.key == crate::key!("compare.engines.clamp")),
            "{said:?}"
        );
    }
}
