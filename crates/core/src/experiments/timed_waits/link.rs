//! Experiment 1's section: the configuration, each cell's sketch (keys
//! implied by the configuration when the run measured every mechanism of
//! the page), and the nested chain's levels. A run of the mechanisms a
//! reader picked (or the native probe's) lists its cells' keys, and its
//! reader takes the mechanisms from them.

use crate::experiments::timed_waits::{Cell, NestedChain, TimedWaits};
use crate::experiments::timed_waits::{CellKey, Mechanism, TimedWaitsConfig};
use crate::link::wire::{Reader, Writer};
use crate::link::{LinkError, damaged};

/// How a timed-waits section names its cells' keys: each cell lists its
/// own, or they are implied by the configuration: every mechanism the page
/// measures now, or those it measured before the worker's fresh-task timer
/// came (links made then).
const KEYS_LISTED: u8 = 0;
const KEYS_IMPLIED_V1: u8 = 1;
const KEYS_IMPLIED: u8 = 2;

impl Writer {
    pub(crate) fn timed_waits(&mut self, tw: &TimedWaits) {
        let c = &tw.config;
        self.len(c.durations_ms.len());
        for &d in &c.durations_ms {
            self.uvar(u64::from(d));
        }
        self.uvar(u64::from(c.samples));
        self.uvar(u64::from(c.chain_depth));
        self.uvar(u64::from(c.chain_runs));
        // A run of every mechanism of the page implies its keys (2; links
        // made before the worker's fresh-task timer say 1 and imply the
        // cells of `Mechanism::browser_v1()`), else each cell names its
        // key (0).
        let implied = tw
            .cells
            .iter()
            .map(|c| c.key)
            .eq(c.cells_of(&Mechanism::BROWSER));
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
    pub(crate) fn timed_waits(&mut self) -> Result<TimedWaits, LinkError> {
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
        let invalid = |_| LinkError::Damaged("an invalid configuration");
        // Implied keys: the configuration is whole, and checked before any
        // cell is read. Listed keys name the mechanisms, so it is checked
        // once they are read (the link's cap on reconstructed samples
        // bounds the work before that).
        let implied = match self.byte()? {
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
        if !implied {
            config.mechanisms = Mechanism::named_by(cells.iter().map(|c| c.key));
            config.validate().map_err(invalid)?;
            // One cell per key of the configuration, as every run has.
            if !cells.iter().map(|c| c.key).eq(config.cells()) {
                return damaged("cells that do not follow the configuration");
            }
        }
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
