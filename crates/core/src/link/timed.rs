//! Experiment 1's section: the configuration, each cell's sketch (keys
//! implied by the configuration where the page measured every mechanism),
//! and the nested chain's levels. A run of the mechanisms a reader picked
//! lists its cells' keys, and its reader takes the mechanisms from them.

use super::wire::{Reader, Writer};
use super::{LinkError, damaged};
use crate::schema::{Cell, NestedChain, TimedWaits};
use crate::timed::{CellKey, Mechanism, TimedWaitsConfig};

/// How a timed-waits section names its cells' keys: each cell lists its
/// own, or they are implied by the configuration: as the page measures now,
/// or as it did before the worker's fresh-task timer came (links made then).
const KEYS_LISTED: u8 = 0;
const KEYS_IMPLIED_V1: u8 = 1;
const KEYS_IMPLIED: u8 = 2;

impl Writer {
    pub(super) fn timed_waits(&mut self, tw: &TimedWaits) {
        let c = &tw.config;
        self.len(c.durations_ms.len());
        for &d in &c.durations_ms {
            self.uvar(u64::from(d));
        }
        self.uvar(u64::from(c.samples));
        self.uvar(u64::from(c.chain_depth));
        self.uvar(u64::from(c.chain_runs));
        // A run of every mechanism of the page implies its keys (2; links
        // made before the worker's fresh-task timer say 1 and imply
        // `config.cells_v1()`), else each cell names its key (0).
        let implied = tw
            .cells
            .iter()
            .map(|c| c.key)
            .eq(c.cells_of_every_browser());
        self.byte(if implied { KEYS_IMPLIED } else { KEYS_LISTED });
        self.len(tw.cells.len());
        for cell in &tw.cells {
            if !implied {
                self.byte(cell.key.mechanism.code());
                self.uvar(cell.key.requested_ms.map_or(0, |d| u64::from(d) + 1));
            }
            self.outcome(&cell.outcome, c.samples);
        }
        self.len(tw.chain.levels.len());
        for level in &tw.chain.levels {
            self.summary(level);
        }
    }
}

impl Reader<'_> {
    pub(super) fn timed_waits(&mut self) -> Result<TimedWaits, LinkError> {
        let n = self.upto(TimedWaitsConfig::MAX_DURATIONS as u64)?;
        let durations_ms = (0..n)
            .map(|_| self.upto(u64::from(TimedWaitsConfig::MAX_DURATION_MS)))
            .collect::<Result<Vec<_>, _>>()?;
        let mut config = TimedWaitsConfig {
            durations_ms,
            samples: self.upto(u64::from(TimedWaitsConfig::MAX_SAMPLES))?,
            chain_depth: self.upto(64)?,
            chain_runs: self.upto(1000)?,
            mechanisms: Vec::new(),
        };
        let keys = match self.byte()? {
            KEYS_LISTED => None,
            KEYS_IMPLIED_V1 => Some(Mechanism::browser_v1()),
            KEYS_IMPLIED => Some(Mechanism::every_browser()),
            _ => return damaged("a bad flag"),
        }
        .map(|mechanisms| config.cells_of(&mechanisms));
        let implied = keys.is_some();
        let keys = keys.unwrap_or_default();
        let n = self.upto(if implied { keys.len() as u64 } else { 256 })?;
        let cells = (0..n as usize)
            .map(|i| {
                let key = if implied {
                    keys[i]
                } else {
                    let mechanism = self.mechanism()?;
                    let requested_ms =
                        match self.upto(u64::from(TimedWaitsConfig::MAX_DURATION_MS) + 1)? {
                            0 => None,
                            d => Some(d - 1),
                        };
                    CellKey {
                        mechanism,
                        requested_ms,
                    }
                };
                Ok(Cell {
                    key,
                    outcome: self.outcome(config.samples)?,
                })
            })
            .collect::<Result<Vec<_>, LinkError>>()?;
        config.mechanisms = Mechanism::named_by(cells.iter().map(|c| c.key));
        config
            .validate()
            .map_err(|_| LinkError::Damaged("an invalid configuration"))?;
        let n = self.upto(u64::from(config.chain_depth))?;
        let levels = (0..n)
            .map(|_| self.summary())
            .collect::<Result<Vec<_>, _>>()?;
        Ok(TimedWaits {
            config,
            cells,
            chain: NestedChain { levels },
        })
    }
}
