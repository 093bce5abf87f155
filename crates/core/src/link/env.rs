//! The environment section: a short name, cores, isolation, the clock
//! and the day, never the full user agent; a native run's provenance
//! (`waitlab-native --link`), so that the page shows it as native.

use super::wire::{Reader, Writer};
use super::{LinkError, damaged};
use crate::clock::ClockInfo;
use crate::schema::Environment;

impl Writer {
    pub(super) fn env(&mut self, e: &Environment) {
        self.text(&e.link_name());
        self.uvar(u64::from(e.hardware_concurrency));
        self.byte(
            u8::from(e.cross_origin_isolated)
                | u8::from(e.hidden_during_run) << 1
                | u8::from(e.native.is_some()) << 2,
        );
        match &e.clock {
            Some(c) => {
                self.byte(1);
                self.q(c.min_step_ms);
                self.q(c.typical_step_ms);
                self.uvar(u64::from(c.readings));
            }
            None => self.byte(0),
        }
        self.uvar((e.started_at_unix_ms / 1000.0).round().max(0.0) as u64);
        if let Some(native) = &e.native {
            self.native(native);
        }
    }
}

impl Reader<'_> {
    pub(super) fn env(&mut self) -> Result<Environment, LinkError> {
        let name = self.text()?;
        let hardware_concurrency = self.upto(4096)?;
        let flags = self.byte()?;
        if flags >> 3 != 0 {
            return damaged("unknown flags");
        }
        let clock = if self.flag()? {
            Some(ClockInfo {
                min_step_ms: self.q()?,
                typical_step_ms: self.q()?,
                readings: self.upto(u64::from(u32::MAX))?,
            })
        } else {
            None
        };
        let seconds = self.upto(u64::from(u32::MAX))?;
        let native = if flags & 4 != 0 {
            Some(self.native()?)
        } else {
            None
        };
        Ok(Environment {
            user_agent: name,
            hardware_concurrency,
            cross_origin_isolated: flags & 1 != 0,
            clock,
            started_at_unix_ms: f64::from(seconds) * 1000.0,
            hidden_during_run: flags & 2 != 0,
            native,
        })
    }
}
