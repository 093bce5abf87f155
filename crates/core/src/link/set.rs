//! Bundled sets as the page loads them: packs in the link's body format,
//! written by `cargo xtask packs` from the sets' JSON files.
//!
//! The page never parses a set's JSON (a JSON reader of the schema would be
//! the largest part of its wasm). It reads an index pack, which lists the
//! sets with their provenance and which experiments each has, and then one
//! part per set and experiment it shows: an embed loads one experiment's
//! parts, the full page all of them. A part is a link body holding that
//! experiment, followed by the set's provenance and the figures it states
//! for it; stated values are kept exactly, measured ones within the link's
//! relative precision, down to a femtosecond rather than a link's 0.1 µs. Both are untrusted input and read like links: never a panic,
//! every count capped, and the stated figures checked against their
//! experiment's columns.

use super::wire::{Reader, Writer};
use super::{LinkError, MAX_TOTAL_SAMPLES, SET_SCALE, damaged};
use crate::bytes;
use crate::compare::check_stated;
use crate::experiments::{Experiment, StatedFigure, StatedValue};
use crate::schema::{NativeEnv, Report, Source};

/// The first byte of an index pack.
const INDEX_TAG: u8 = b'I';
/// The first byte of a part.
const PART_TAG: u8 = b'P';
/// The format version, after the tag (2: stated figures carry their id;
/// 3: the provenance's source is an article or a command, and an index
/// entry carries its cores).
const VERSION: u8 = 3;
/// Most sets an index lists.
const MAX_SETS: usize = 64;
/// Most figures one part states.
const MAX_STATED: usize = 64;
/// Most cores an index entry may claim.
const MAX_CORES: u64 = 1 << 16;
/// Longest text of a set (a quote, a source), bytes.
const MAX_SET_TEXT: usize = 2000;

/// Where the page finds the index, relative to the page.
pub const INDEX_PATH: &str = "data/native/packs/index.bin";

/// The path of `set`'s part for `experiment`, relative to the page.
pub fn part_path(set: &str, experiment: Experiment) -> String {
    format!("data/native/packs/{set}.{}.bin", experiment.slug())
}

/// One set as the index lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexedSet {
    /// The set's name: its JSON file's stem, such as `rust-linux-x86_64`.
    pub set: String,
    /// Whether the page shows it before the reader chooses.
    pub shown: bool,
    /// Where its numbers come from.
    pub native: NativeEnv,
    /// The cores of the machine it ran on.
    pub cores: u32,
    /// The experiments it has a part for, in page order.
    pub experiments: Vec<Experiment>,
}

impl IndexedSet {
    /// The entry for `report`, a set loaded from `set.json`.
    pub fn of(set: &str, shown: bool, report: &Report) -> Option<IndexedSet> {
        Some(IndexedSet {
            set: set.to_owned(),
            shown,
            native: report.env.native.clone()?,
            cores: report.env.hardware_concurrency,
            experiments: Experiment::ALL
                .into_iter()
                .filter(|&e| report.has(e) || report.stated.iter().any(|f| f.experiment == e))
                .collect(),
        })
    }
}

fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 80
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

fn experiment_code(e: Experiment) -> u8 {
    Experiment::ALL.iter().position(|&x| x == e).unwrap_or(0) as u8
}

fn experiment_of(code: u8) -> Result<Experiment, LinkError> {
    Experiment::ALL
        .get(usize::from(code))
        .copied()
        .ok_or(LinkError::Damaged("an unknown experiment"))
}

impl Writer {
    /// A native run's provenance (a set's, or a native run's link).
    pub(super) fn native(&mut self, n: &NativeEnv) {
        for t in [&n.name, &n.runtime, &n.os, &n.cpu] {
            self.0.text(t);
        }
        let (kind, text) = match &n.source {
            Source::Written(t) => (0, t),
            Source::Article(t) => (1, t),
            Source::Command(t) => (2, t),
            Source::Engine(t) => (3, t),
        };
        self.byte(kind);
        self.0.text(text);
        self.0.uvar(u64::from(n.samples.unwrap_or(0)));
    }

    fn stated(&mut self, f: &StatedFigure) {
        self.0.text(f.id.as_deref().unwrap_or(""));
        self.byte(experiment_code(f.experiment));
        for t in [&f.what, &f.analogue, &f.quote] {
            self.0.text(t);
        }
        match &f.value {
            None => self.byte(0),
            Some(v) => {
                self.byte(1 | u8::from(v.high.is_some()) << 1 | u8::from(v.approximate) << 2);
                self.0.text(&v.column);
                self.0.f64(v.low);
                if let Some(high) = v.high {
                    self.0.f64(high);
                }
            }
        }
    }
}

impl Reader<'_> {
    fn set_text(&mut self) -> Result<String, LinkError> {
        Ok(self.r.text(MAX_SET_TEXT)?)
    }

    pub(super) fn native(&mut self) -> Result<NativeEnv, LinkError> {
        let mut texts = (0..4)
            .map(|_| self.set_text())
            .collect::<Result<Vec<_>, _>>()?
            .into_iter();
        let mut next = || texts.next().unwrap_or_default();
        let (name, runtime, os, cpu) = (next(), next(), next(), next());
        let source = match (self.byte()?, self.set_text()?) {
            (0, t) => Source::Written(t),
            (1, t) => Source::Article(t),
            (2, t) => Source::Command(t),
            (3, t) => Source::Engine(t),
            _ => return damaged("an unknown kind of source"),
        };
        let samples = self.r.upto(u64::from(u32::MAX))?;
        Ok(NativeEnv {
            name,
            runtime,
            os,
            cpu,
            source,
            samples: (samples > 0).then_some(samples),
        })
    }

    fn stated(&mut self) -> Result<StatedFigure, LinkError> {
        let id = Some(self.set_text()?).filter(|id| !id.is_empty());
        let experiment = experiment_of(self.byte()?)?;
        let (what, analogue, quote) = (self.set_text()?, self.set_text()?, self.set_text()?);
        let flags = self.byte()?;
        if flags >> 3 != 0 || (flags & 1 == 0 && flags != 0) {
            return damaged("bad value flags");
        }
        let value = if flags & 1 == 1 {
            let column = self.set_text()?;
            let low = self.r.f64()?;
            let high = if flags & 2 != 0 {
                Some(self.r.f64()?)
            } else {
                None
            };
            if !low.is_finite() || high.is_some_and(|h| !h.is_finite()) {
                return damaged("a stated value that is not a number");
            }
            Some(StatedValue {
                column,
                low,
                high,
                approximate: flags & 4 != 0,
            })
        } else {
            None
        };
        Ok(StatedFigure {
            id,
            experiment,
            what,
            analogue,
            value,
            quote,
        })
    }

    fn tagged(&mut self, tag: u8) -> Result<(), LinkError> {
        if self.byte()? != tag {
            return damaged("not a waitlab set pack");
        }
        match self.byte()? {
            VERSION => Ok(()),
            _ => damaged("a set pack of another version"),
        }
    }
}

/// The index pack listing `sets`.
pub fn encode_index(sets: &[IndexedSet]) -> Vec<u8> {
    let mut w = Writer::default();
    w.byte(INDEX_TAG);
    w.byte(VERSION);
    w.len(sets.len());
    for s in sets {
        w.0.text(&s.set);
        w.0.flag(s.shown);
        w.native(&s.native);
        w.uvar(u64::from(s.cores));
        // A varint: one byte, as the byte it was, while the mask is
        // under 128 (seven experiments).
        w.uvar(
            s.experiments
                .iter()
                .fold(0u64, |m, &e| m | 1 << experiment_code(e)),
        );
    }
    w.0.0
}

/// Reads an index pack (inflated). Never panics.
pub fn decode_index(bytes: &[u8]) -> Result<Vec<IndexedSet>, LinkError> {
    let mut r = reader(bytes);
    r.tagged(INDEX_TAG)?;
    let n = r.r.len(MAX_SETS)?;
    let sets = (0..n)
        .map(|_| {
            let set = r.set_text()?;
            if !plain_name(&set) {
                return damaged("a set name that is not a plain file name");
            }
            let shown = r.r.flag()?;
            let native = r.native()?;
            let cores = r.r.upto(MAX_CORES)?;
            let mask = r.uvar()?;
            if mask >> Experiment::ALL.len() != 0 {
                return damaged("unknown experiments");
            }
            let experiments = Experiment::ALL
                .into_iter()
                .filter(|&e| mask & 1 << experiment_code(e) != 0)
                .collect();
            Ok(IndexedSet {
                set,
                shown,
                native,
                cores,
                experiments,
            })
        })
        .collect::<Result<_, LinkError>>()?;
    r.finish()?;
    Ok(sets)
}

/// `set`'s part for `experiment`: its results and stated figures for it.
pub fn encode_part(set: &Report, experiment: Experiment) -> Vec<u8> {
    // Its provenance follows the body once, not inside it too; the body
    // names the set as a link names a native run.
    let mut part = set.only(experiment);
    if let Some(native) = part.env.native.take() {
        part.env.user_agent = native.name;
    }
    let mut w = Writer(bytes::Writer::default(), SET_SCALE);
    w.byte(PART_TAG);
    w.byte(VERSION);
    w.body(&part);
    w.native(
        set.env
            .native
            .as_ref()
            .expect("a bundled set has provenance"),
    );
    let stated: Vec<_> = set
        .stated
        .iter()
        .filter(|f| f.experiment == experiment)
        .collect();
    w.len(stated.len());
    for f in stated {
        w.stated(f);
    }
    w.0.0
}

/// Reads a part (inflated) of a bundled set. Never panics.
pub fn decode_part(bytes: &[u8]) -> Result<Report, LinkError> {
    let mut r = reader(bytes);
    r.tagged(PART_TAG)?;
    let mut report = r.body()?;
    report.env.native = Some(r.native()?);
    let n = r.r.len(MAX_STATED)?;
    report.stated = (0..n).map(|_| r.stated()).collect::<Result<_, _>>()?;
    r.finish()?;
    check_stated(&report).map_err(|_| LinkError::Damaged("a stated figure names no column"))?;
    Ok(report)
}

fn reader(bytes: &[u8]) -> Reader<'_> {
    Reader {
        r: bytes::Reader::new(bytes),
        samples_left: MAX_TOTAL_SAMPLES,
        scale: SET_SCALE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn article() -> Report {
        let text = include_str!("../../../../www/data/native/dotnet10-article-apple-m4.json");
        Report::from_json(text).unwrap()
    }

    #[test]
    fn stated_figures_come_back_exactly() {
        let set = article();
        let mut all = Vec::new();
        for e in Experiment::ALL {
            let part = decode_part(&encode_part(&set, e)).unwrap();
            assert_eq!(part.env.native, set.env.native);
            assert!(part.stated.iter().all(|f| f.experiment == e));
            all.extend(part.stated);
        }
        assert_eq!(all, set.stated);
    }

    #[test]
    fn the_index_round_trips_and_refuses_strange_names() {
        let set = article();
        let entry = IndexedSet::of("dotnet10-article-apple-m4", true, &set).unwrap();
        let stated: std::collections::BTreeSet<_> = set
            .stated
            .iter()
            .map(|f| experiment_code(f.experiment))
            .collect();
        let listed: std::collections::BTreeSet<_> = entry
            .experiments
            .iter()
            .map(|&e| experiment_code(e))
            .collect();
        assert_eq!(
            listed, stated,
            "a part for each experiment it states figures for"
        );
        assert_eq!(
            decode_index(&encode_index(std::slice::from_ref(&entry))),
            Ok(vec![entry.clone()])
        );
        for bad in ["../x", ".hidden", "a/b", ""] {
            let mut e = entry.clone();
            e.set = bad.to_owned();
            assert!(decode_index(&encode_index(&[e])).is_err(), "{bad}");
        }
    }

    /// Every comparison cell a part gives is the JSON set's within the
    /// link's precision (a ratio of two quantized values within twice it, a
    /// difference within that of its figure), with the same rows, marks
    /// and notes.
    #[test]
    fn parts_compare_like_their_json_sets() {
        use crate::compare::{Value, group};
        let text = include_str!("../../tests/data/native_report.json");
        let sets = [Report::from_json(text).unwrap(), article()];
        for set in &sets {
            for e in Experiment::ALL {
                let part = decode_part(&encode_part(set, e)).unwrap();
                let (Some(want), Some(got)) = (group(e, set), group(e, &part)) else {
                    assert_eq!(group(e, set).is_some(), group(e, &part).is_some(), "{e:?}");
                    continue;
                };
                assert_eq!(want.source, got.source);
                assert_eq!(want.rows.len(), got.rows.len(), "{e:?}");
                for (a, b) in want.rows.iter().zip(&got.rows) {
                    let en = crate::text::Catalog::english();
                    let words = |r: &crate::compare::Row| {
                        let notes: Vec<String> = r.notes.iter().map(|n| en.render(n)).collect();
                        (en.render(&r.what), notes)
                    };
                    assert_eq!(words(a), words(b));
                    // A difference (an overshoot: p50 minus the request)
                    // is within the precision of the figure it comes from.
                    let figure = a.values.iter().find_map(|v| match v {
                        Value::Measured(p) | Value::Unresolved { value: p, .. } => Some(p.abs()),
                        _ => None,
                    });
                    for (x, y) in a.values.iter().zip(&b.values) {
                        let near = |p: f64, q: f64| {
                            (p - q).abs() <= 0.011 * p.abs().max(figure.unwrap_or(0.0)).max(1e-9)
                        };
                        let ok = match (x, y) {
                            (Value::Measured(p), Value::Measured(q)) => near(*p, *q),
                            (
                                Value::Unresolved { value: p, .. },
                                Value::Unresolved { value: q, .. },
                            ) => near(*p, *q),
                            _ => x == y,
                        };
                        assert!(ok, "{e:?} {:?}: {x:?} vs {y:?}", a.what);
                    }
                }
            }
        }
    }

    #[test]
    fn damaged_packs_are_refused() {
        let part = encode_part(&article(), Experiment::TimedWaits);
        for cut in 0..part.len() {
            assert!(decode_part(&part[..cut]).is_err(), "{cut}");
        }
        assert!(
            decode_part(&encode_index(&[])).is_err(),
            "an index is not a part"
        );
        let mut wrong = part.clone();
        wrong[1] = 9;
        assert!(decode_part(&wrong).is_err(), "another version");
    }
}
