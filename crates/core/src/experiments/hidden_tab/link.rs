//! Experiment 10's section: the configuration, the hidden spans, and each
//! way's visible and hidden intervals (each a sketch, as every cell's),
//! its lost ticks and how far behind it ended.

use crate::bytes::Bytes;
use crate::experiments::hidden_tab::{HiddenConfig, HiddenTab, KeeperResult, Span};
use crate::link::codec::LinkError;
use crate::link::wire::{Reader, Section, Writer};

/// Most hidden spans a link may carry.
const MOST_SPANS: u64 = 64;

impl Section for HiddenTab {
    fn write(&self, w: &mut Writer) {
        self.config.write(w);
        w.len(self.hidden.len());
        // Whole milliseconds: a span's ends need no finer grain.
        for s in &self.hidden {
            w.uvar(s.from_ms.max(0.0).round() as u64);
            w.uvar(s.to_ms.max(0.0).round() as u64);
        }
        w.ways(
            &self.results,
            |r| r.way,
            |w, r| {
                w.outcome(&r.visible, 0);
                w.outcome(&r.hidden, 0);
                w.flag(r.lost.is_some());
                if let Some(lost) = r.lost {
                    w.uvar(u64::from(lost));
                }
                w.maybe_q(r.behind_ms);
            },
        );
    }

    fn read(r: &mut Reader<'_>) -> Result<Self, LinkError> {
        let config = HiddenConfig::read(r)?;
        let spans = r.upto(MOST_SPANS)?;
        let window = config.window_ms();
        let hidden = (0..spans)
            .map(|_| {
                let most = u64::from(HiddenConfig::MAX_SECONDS) * 1000;
                let (from_ms, to_ms) = (f64::from(r.upto(most)?), f64::from(r.upto(most)?));
                let sane = from_ms < to_ms && to_ms <= window;
                sane.then_some(Span { from_ms, to_ms })
                    .ok_or(LinkError::Damaged("an impossible hidden span"))
            })
            .collect::<Result<Vec<Span>, LinkError>>()?;
        let most = u64::from(config.most_ticks());
        let results = r.ways(|r, way| {
            let visible = r.outcome(0)?;
            let hidden = r.outcome(0)?;
            let lost = if r.flag()? { Some(r.upto(most)?) } else { None };
            let behind_ms = r.maybe_q()?;
            Ok(KeeperResult {
                way,
                visible,
                hidden,
                lost,
                behind_ms,
            })
        })?;
        Ok(HiddenTab {
            config,
            hidden,
            results,
        })
    }
}
