//! Experiment 2a's section: each run's times and its frames (to
//! [`TICK_MS`]).

use crate::experiments::main_starvation::{MainConfig, MainRun, MainStarvation};
use crate::link::LinkError;
use crate::link::wire::{Reader, TICK_MS, Writer, ticks};

impl Writer {
    pub(crate) fn main_starvation(&mut self, m: &MainStarvation) {
        m.config.write(self);
        self.len(m.runs.len());
        for run in &m.runs {
            self.flag(run.mode.is_async());
            self.q(run.batch_ms);
            self.q(run.timer_queue_wait_ms);
            self.q(run.message_queue_wait_ms);
            self.len(run.frames_ms.len());
            self.deltas(run.frames_ms.iter().map(|&f| ticks(f, TICK_MS)));
        }
    }
}

impl Reader<'_> {
    pub(crate) fn main_starvation(&mut self) -> Result<MainStarvation, LinkError> {
        let config = MainConfig::read(self)?;
        let n = self.upto(2)?;
        let runs = (0..n)
            .map(|_| {
                let mode = self.mode()?;
                let (batch_ms, timer_queue_wait_ms, message_queue_wait_ms) =
                    (self.q()?, self.q()?, self.q()?);
                let frames = self.upto(20_000)? as usize;
                let frames_ms = self
                    .deltas(frames)?
                    .into_iter()
                    .map(|t| t as f64 * TICK_MS)
                    .collect();
                Ok(MainRun {
                    mode,
                    batch_ms,
                    timer_queue_wait_ms,
                    message_queue_wait_ms,
                    frames_ms,
                })
            })
            .collect::<Result<Vec<_>, LinkError>>()?;
        Ok(MainStarvation { config, runs })
    }
}
