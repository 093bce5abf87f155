//! Experiment 1's section: the configuration, each cell's sketch (keys
//! implied by the configuration when the run measured every mechanism of
//! the page), and the nested chain's levels. A run of the mechanisms a
//! reader picked (or the native probe's) lists its cells' keys, and its
//! reader takes the mechanisms from them.

use crate::experiments::own_way::OwnWay;
use crate::experiments::timed_waits::{Cell, NestedChain, TimedWaits};
use crate::experiments::timed_waits::{CellKey, Mechanism, TimedWaitsConfig};
use crate::link::codec::{LinkError, damaged};
use crate::link::wire::{Reader, Section, Writer};
use crate::sampling::Sampling;
use std::sync::Arc;

/// How a timed-waits section names its cells' keys: each cell lists its
/// own, or they are implied by the configuration: every mechanism the page
/// measures now, or those it measured before the worker's fresh-task timer
/// came (links made then).
const KEYS_LISTED: u8 = 0;
const KEYS_IMPLIED_V1: u8 = 1;
const KEYS_IMPLIED: u8 = 2;
/// Added to the keys' byte when each cell sampled until its median was
/// known ([`Sampling::Adaptive`]); links made before adaptive sampling
/// took a fixed count.
const ADAPTIVE: u8 = 0x80;
/// Added to the keys' byte when the section ends with a reader's own way
/// of waiting ([`OwnWay`]): its code, the cell it was judged against, its
/// clock's step and its times.
const OWN: u8 = 0x40;
/// Added with [`OWN`] when the own way counted the calls in which other
/// tasks ran ([`OtherTasks`](crate::experiments::own_way::OtherTasks));
/// links made before say nothing of it.
const OWN_TASKS: u8 = 0x20;

impl Section for TimedWaits {
    fn write(&self, w: &mut Writer) {
        let c = &self.config;
        w.len(c.durations_ms.len());
        for &d in &c.durations_ms {
            w.uvar(u64::from(d));
        }
        w.uvar(u64::from(c.samples));
        w.uvar(u64::from(c.chain_depth));
        w.uvar(u64::from(c.chain_runs));
        // A run of every mechanism of the page implies its keys (2; links
        // made before the worker's fresh-task timer say 1 and imply the
        // cells of `Mechanism::browser_v1()`), else each cell names its
        // key (0).
        let implied = self
            .cells
            .iter()
            .map(|c| c.key)
            .eq(c.cells_of(&Mechanism::BROWSER));
        let keys = if implied { KEYS_IMPLIED } else { KEYS_LISTED };
        let adaptive = if c.sampling == Sampling::Adaptive {
            ADAPTIVE
        } else {
            0
        };
        let own = match &self.own {
            Some(own) if own.other_tasks.is_some() => OWN | OWN_TASKS,
            Some(_) => OWN,
            None => 0,
        };
        w.byte(keys | adaptive | own);
        w.len(self.cells.len());
        for cell in &self.cells {
            if !implied {
                key(w, cell.key);
            }
            w.outcome(&cell.outcome, c.samples);
        }
        w.len(self.chain.levels.len());
        for level in &self.chain.levels {
            w.summary(level);
        }
        if let Some(own) = &self.own {
            own.write(w, c.samples, key);
        }
    }

    fn read(r: &mut Reader<'_>) -> Result<Self, LinkError> {
        let n = r.upto(TimedWaitsConfig::MAX_DURATIONS as u64)?;
        let durations_ms = (0..n)
            .map(|_| r.upto(u64::from(TimedWaitsConfig::MAX_DURATION_MS)))
            .collect::<Result<Vec<_>, _>>()?;
        let mut config = TimedWaitsConfig {
            durations_ms,
            samples: r.upto(u64::from(TimedWaitsConfig::MAX_SAMPLES))?,
            chain_depth: r.upto(64)?,
            chain_runs: r.upto(1000)?,
            sampling: Sampling::Fixed,
            mechanisms: Vec::new(),
        };
        let invalid = |_| LinkError::Damaged("an invalid configuration");
        // Implied keys: the configuration is whole, and checked before any
        // cell is read. Listed keys name the mechanisms, so it is checked
        // once they are read (the link's cap on reconstructed samples
        // bounds the work before that).
        let keys = r.byte()?;
        let with_own = keys & OWN != 0;
        let counted = keys & OWN_TASKS != 0;
        if counted && !with_own {
            return damaged("tasks counted of no own way");
        }
        if keys & ADAPTIVE != 0 {
            config.sampling = Sampling::Adaptive;
        }
        let implied = match keys & !(ADAPTIVE | OWN | OWN_TASKS) {
            KEYS_LISTED => false,
            KEYS_IMPLIED_V1 => {
                config.mechanisms = Mechanism::browser_v1();
                true
            }
            KEYS_IMPLIED => {
                config.mechanisms = Mechanism::every_browser();
                true
            }
            _ => return damaged("a bad flag"),
        };
        if implied {
            config.validate().map_err(invalid)?;
        }
        let keys = if implied { config.cells() } else { Vec::new() };
        let n = r.upto(if implied { keys.len() as u64 } else { 256 })?;
        let cells = (0..n as usize)
            .map(|i| {
                let key = if implied { keys[i] } else { read_key(r)? };
                Ok(Cell {
                    key,
                    outcome: r.outcome(config.samples)?,
                })
            })
            .collect::<Result<Vec<_>, LinkError>>()?;
        if !implied {
            config.mechanisms = Mechanism::named_by(cells.iter().map(|c| c.key));
            config.validate().map_err(invalid)?;
            // One cell per key of the configuration, as every run has.
            if !cells.iter().map(|c| c.key).eq(config.cells()) {
                return damaged("cells that do not follow the configuration");
            }
        }
        let n = r.upto(u64::from(config.chain_depth))?;
        let levels = (0..n).map(|_| r.summary()).collect::<Result<Vec<_>, _>>()?;
        let own = if with_own {
            let ways = cells.iter().map(|c| c.key);
            Some(Arc::new(OwnWay::read(
                r,
                config.samples,
                read_key,
                ways,
                counted,
            )?))
        } else {
            None
        };
        Ok(TimedWaits {
            config,
            cells,
            chain: NestedChain { levels },
            own,
        })
    }
}

/// A cell's key: its mechanism's code and its wait, ms, plus one (0: a
/// mechanism that takes none).
fn key(w: &mut Writer, key: CellKey) {
    w.byte(key.mechanism.code());
    w.uvar(key.requested_ms.map_or(0, |d| u64::from(d) + 1));
}

/// A key written by [`key`].
fn read_key(r: &mut Reader<'_>) -> Result<CellKey, LinkError> {
    let mechanism =
        Mechanism::from_code(r.byte()?).ok_or(LinkError::Damaged("an unknown mechanism"))?;
    let requested_ms = match r.upto(u64::from(TimedWaitsConfig::MAX_DURATION_MS) + 1)? {
        0 => None,
        d => Some(d - 1),
    };
    Ok(CellKey {
        mechanism,
        requested_ms,
    })
}
