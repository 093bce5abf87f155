//! How the jobs of a batch wait, blocking or awaiting: the one thing the
//! two starvation experiments (2a on the main thread, 2b in a pool of
//! workers) share, so that neither names the other.

use crate::key;
use crate::text::{Key, Phrase};
use serde::{Deserialize, Serialize};

/// How the jobs of a batch wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JobMode {
    /// The job holds its thread for the whole wait.
    Blocking,
    /// The job awaits a timer and holds no thread meanwhile.
    Async,
}

impl JobMode {
    /// Both modes, blocking first.
    pub const ALL: [JobMode; 2] = [JobMode::Blocking, JobMode::Async];

    /// Whether jobs await a timer (the wire's flag: 1 async, 0 blocking).
    pub fn is_async(self) -> bool {
        self == JobMode::Async
    }

    /// The mode of a wire flag.
    pub fn from_flag(is_async: bool) -> JobMode {
        if is_async {
            JobMode::Async
        } else {
            JobMode::Blocking
        }
    }

    /// Display name.
    pub fn name(self) -> &'static str {
        match self {
            JobMode::Blocking => "blocking",
            JobMode::Async => "async",
        }
    }

    /// How the page names the mode.
    pub fn label(self) -> Phrase {
        Phrase::new(Key::of(&format!("mode.{}", self.name())))
    }

    /// What jobs of this mode on the UI thread are in the article's terms.
    pub fn main_analogue(self) -> Phrase {
        Phrase::new(Key::of(&format!(
            "main_starvation.analogue.{}",
            self.name()
        )))
    }

    /// What jobs of this mode in a pool are in the article's terms.
    pub fn pool_analogue(self) -> Phrase {
        Phrase::new(Key::of(&format!(
            "pool_starvation.analogue.{}",
            self.name()
        )))
    }

    /// How a job of this mode waits: natively, or in the browser where
    /// `browser_blocking` is the blocking wait.
    pub fn call(self, native: bool, browser_blocking: Phrase) -> Phrase {
        let code = |c| Phrase::new(key!("code")).code("code", c);
        match (self, native) {
            (JobMode::Blocking, true) => code("std::thread::sleep"),
            (JobMode::Blocking, false) => browser_blocking,
            (JobMode::Async, true) => code("tokio sleep"),
            (JobMode::Async, false) => code("await setTimeout"),
        }
    }
}

/// On the wire, its flag.
impl crate::bytes::Bytes for JobMode {
    fn write(&self, w: &mut crate::bytes::Writer) {
        w.flag(self.is_async());
    }

    fn read(r: &mut crate::bytes::Reader) -> Result<Self, crate::bytes::Damaged> {
        Ok(JobMode::from_flag(r.flag()?))
    }
}
