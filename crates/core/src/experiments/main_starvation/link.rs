//! Experiment 2a's section: each run's times and its frames (to
//! [`TICK_MS`]).

use crate::bytes::Bytes;
use crate::experiments::JobMode;
use crate::experiments::main_starvation::{MainConfig, MainRun, MainStarvation};
use crate::link::codec::LinkError;
use crate::link::wire::{Reader, Section, TICK_MS, Writer, ticks};

impl Section for MainStarvation {
    fn write(&self, w: &mut Writer) {
        self.config.write(w);
        w.len(self.runs.len());
        for run in &self.runs {
            w.flag(run.mode.is_async());
            w.q(run.batch_ms);
            w.q(run.timer_queue_wait_ms);
            w.q(run.message_queue_wait_ms);
            w.len(run.frames_ms.len());
            w.deltas(run.frames_ms.iter().map(|&f| ticks(f, TICK_MS)));
        }
    }

    fn read(r: &mut Reader<'_>) -> Result<Self, LinkError> {
        let config = MainConfig::read(r)?;
        let n = r.upto(2)?;
        let runs = (0..n)
            .map(|_| {
                let mode = JobMode::from_flag(r.flag()?);
                let (batch_ms, timer_queue_wait_ms, message_queue_wait_ms) =
                    (r.q()?, r.q()?, r.q()?);
                let frames = r.upto(20_000)? as usize;
                let frames_ms = r
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
