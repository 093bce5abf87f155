//! Experiment 10's findings: whether the page was hidden long enough to
//! read, and from this run which ways kept time while it was and by how
//! much the others did not.

use super::{HiddenTab, KeeperResult, Kept};
use crate::clock::ClockInfo;
use crate::experiments::Findings;
use crate::findings::Figures;
use crate::key;
use crate::text::{Arg, Phrase};

/// A ratio in words: one decimal under ten, whole above.
fn times(r: f64) -> Arg {
    Arg::Fixed(r, if r < 10.0 { 1 } else { 0 })
}

impl Findings for HiddenTab {
    /// Whether the page was hidden, and for how long; which ways kept time
    /// while it was (their hidden and visible medians); which did not (by
    /// how many times, and the ticks they lost).
    fn findings(&self, clock: Option<ClockInfo>) -> Vec<Phrase> {
        let f = Figures::new(clock);
        let seconds = |ms: f64| Arg::Fixed(ms / 1000.0, 1);
        if self.hidden.is_empty() {
            return vec![
                Phrase::new(key!("hidden_tab.finding.not_hidden"))
                    .count("seconds", self.config.seconds),
            ];
        }
        let mut out = Vec::new();
        if !self.hidden_enough() {
            out.push(
                Phrase::new(key!("hidden_tab.finding.short"))
                    .arg("hidden", seconds(self.hidden_ms()))
                    .arg("enough", seconds(super::HiddenConfig::ENOUGH_HIDDEN_MS)),
            );
        }
        let judged: Vec<(&KeeperResult, Kept)> = self
            .results
            .iter()
            .filter_map(|r| Some((r, r.kept()?)))
            .collect();
        let of = |kept: Kept| {
            judged
                .iter()
                .filter(move |(_, k)| *k == kept)
                .map(|(r, _)| *r)
        };
        let kept: Vec<Phrase> = of(Kept::Time)
            .filter_map(|r| {
                Some(
                    Phrase::new(key!("hidden_tab.finding.kept_item"))
                        .phrase("what", r.way.label())
                        .arg("hidden", f.ms(r.hidden.p50()?))
                        .arg("visible", f.ms(r.visible.p50()?)),
                )
            })
            .collect();
        let bursts: Vec<Phrase> = of(Kept::InBursts)
            .filter_map(|r| {
                Some(
                    Phrase::new(key!("hidden_tab.finding.bursts_item"))
                        .phrase("what", r.way.label())
                        .arg("max", f.ms(r.hidden.summary()?.max))
                        .count("lost", r.lost.unwrap_or(0)),
                )
            })
            .collect();
        let slowed: Vec<Phrase> = of(Kept::No)
            .filter_map(|r| {
                Some(
                    Phrase::new(key!("hidden_tab.finding.slowed_item"))
                        .phrase("what", r.way.label())
                        .arg("hidden", f.ms(r.hidden.p50()?))
                        .arg("times", times(r.slowdown()?))
                        .count("lost", r.lost.unwrap_or(0)),
                )
            })
            .collect();
        let hidden = seconds(self.hidden_ms());
        out.push(if kept.is_empty() {
            Phrase::new(key!("hidden_tab.finding.none_kept")).arg("hidden", hidden)
        } else {
            Phrase::new(key!("hidden_tab.finding.kept"))
                .arg("hidden", hidden)
                .arg("items", Arg::List(kept))
        });
        for (items, key) in [
            (bursts, key!("hidden_tab.finding.bursts")),
            (slowed, key!("hidden_tab.finding.slowed")),
        ] {
            if !items.is_empty() {
                out.push(Phrase::new(key).arg("items", Arg::List(items)));
            }
        }
        f.finish(out)
    }
}
