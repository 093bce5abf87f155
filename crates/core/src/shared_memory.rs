//! What an experiment lacks where the page has no shared memory, and why a
//! page can be without it. The embed's first screen (through `cargo xtask
//! post-build`), the embed's note and the full page's banner all say it
//! from here, before anything runs.
//!
//! Only the probes that block in `Atomics.wait`, wait in
//! `Atomics.waitAsync` or share a ring need a `SharedArrayBuffer`; the
//! rest (timers, yields, messages, the main thread's busy-waits) run in
//! any page, so most experiments lose a few rows and one loses all.

pub use crate::experiments::Lacks;
use crate::experiments::{Experiment, Registered, Visit};
use crate::key;
use crate::text::{Key, Phrase};

/// What `experiment` lacks without shared memory.
pub fn lacks(experiment: Experiment) -> Lacks {
    struct LacksOf;
    impl Visit for LacksOf {
        type Out = Lacks;
        fn visit<E: Registered>(self) -> Lacks {
            E::lacks()
        }
    }
    experiment.visit(LacksOf)
}

/// Why a page has no shared memory, as the page detects it (never from
/// the browser's name or version).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Off {
    /// The page is not cross-origin isolated because its host sent no
    /// isolation headers (and the service worker that adds them did not
    /// help): a matter of the host.
    HostNotIsolated,
    /// The page is a frame whose response asked for isolation of its own
    /// (`Document-Isolation-Policy`), and this browser cannot isolate a
    /// frame inside a page that is not isolated: a matter of the browser.
    FrameNotIsolatable,
    /// The page is isolated, but the browser has no `SharedArrayBuffer`.
    NoSharedArrayBuffer,
}

/// The code `head.js` leaves in `window.waitlabCoiProblem` when a frame
/// that asked for its own isolation is not isolated.
pub const FRAME_NOT_ISOLATABLE: &str = "frame_not_isolatable";

impl Off {
    /// Why, from what the page detects: whether it is cross-origin
    /// isolated, whether it has a `SharedArrayBuffer`, and the problem
    /// code `head.js` reported, if any. `None` where shared memory is on.
    pub fn detect(isolated: bool, has_sab: bool, coi_problem: Option<&str>) -> Option<Off> {
        match (isolated, has_sab) {
            (true, true) => None,
            (true, false) => Some(Off::NoSharedArrayBuffer),
            (false, _) if coi_problem == Some(FRAME_NOT_ISOLATABLE) => {
                Some(Off::FrameNotIsolatable)
            }
            (false, _) => Some(Off::HostNotIsolated),
        }
    }

    /// Why, in an embed's words (one sentence).
    pub fn embed_reason(self) -> Key {
        match self {
            Off::HostNotIsolated => key!("embed.off_host"),
            Off::FrameNotIsolatable => key!("embed.off_frame"),
            Off::NoSharedArrayBuffer => key!("embed.off_no_sab"),
        }
    }

    /// Whether the full page would have shared memory where this page
    /// has none: not where the browser has no `SharedArrayBuffer` at all.
    pub fn full_page_helps(self) -> bool {
        self != Off::NoSharedArrayBuffer
    }
}

/// What an embed of `experiment` says of shared memory before it runs:
/// that it is on, or why it is off and what that costs this experiment.
pub fn embed_note(experiment: Experiment, off: Option<Off>) -> Vec<Phrase> {
    let Some(off) = off else {
        return vec![Phrase::new(key!("embed.shared_on"))];
    };
    let cost = match lacks(experiment) {
        Lacks::Nothing => Phrase::new(key!("embed.lacks_nothing")),
        Lacks::Rows(rows) => {
            // Each row named in quotes: the labels have commas of their own.
            let quoted = rows
                .into_iter()
                .map(|row| Phrase::new(key!("embed.row")).phrase("row", row))
                .collect();
            Phrase::new(key!("embed.lacks_rows")).arg("rows", crate::text::Arg::List(quoted))
        }
        Lacks::Everything if off.full_page_helps() => Phrase::new(key!("embed.lacks_all")),
        Lacks::Everything => Phrase::new(key!("embed.lacks_all_here")),
    };
    vec![Phrase::new(off.embed_reason()), cost]
}

/// Whether an embed of `experiment` can run anything where shared memory
/// is `off`.
pub fn runs_in_embed(experiment: Experiment, off: Option<Off>) -> bool {
    off.is_none() || lacks(experiment) != Lacks::Everything
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::wake_latency;

    #[test]
    fn every_experiment_says_what_it_lacks() {
        for e in Experiment::ALL {
            match lacks(e) {
                Lacks::Rows(rows) => assert!(!rows.is_empty(), "{e:?}"),
                Lacks::Nothing | Lacks::Everything => {}
            }
        }
        let Lacks::Rows(timed) = lacks(Experiment::TimedWaits) else {
            panic!("timed waits keep their timers")
        };
        assert_eq!(timed.len(), 2);
        let Lacks::Rows(wake) = lacks(Experiment::WakeLatency) else {
            panic!("postMessage needs no shared memory")
        };
        assert_eq!(wake.len(), wake_latency::Strategy::BROWSER.len() - 1);
        assert_eq!(lacks(Experiment::SpinLadder), Lacks::Everything);
        assert_eq!(lacks(Experiment::MainStarvation), Lacks::Nothing);
    }

    #[test]
    fn the_reason_follows_detection() {
        assert_eq!(Off::detect(true, true, None), None);
        assert_eq!(
            Off::detect(true, false, None),
            Some(Off::NoSharedArrayBuffer)
        );
        assert_eq!(
            Off::detect(false, false, Some(FRAME_NOT_ISOLATABLE)),
            Some(Off::FrameNotIsolatable)
        );
        assert_eq!(
            Off::detect(false, false, Some("register_failed:nope")),
            Some(Off::HostNotIsolated)
        );
        assert_eq!(Off::detect(false, false, None), Some(Off::HostNotIsolated));
    }

    #[test]
    fn an_embed_that_cannot_run_sends_the_reader_on() {
        let ladder = Experiment::SpinLadder;
        assert!(!runs_in_embed(ladder, Some(Off::FrameNotIsolatable)));
        assert!(runs_in_embed(ladder, None));
        assert!(runs_in_embed(
            Experiment::TimedWaits,
            Some(Off::HostNotIsolated)
        ));
        assert_eq!(
            embed_note(ladder, Some(Off::FrameNotIsolatable))[1].key,
            key!("embed.lacks_all")
        );
        assert_eq!(
            embed_note(ladder, Some(Off::NoSharedArrayBuffer))[1].key,
            key!("embed.lacks_all_here")
        );
        assert_eq!(embed_note(ladder, None).len(), 1);
    }
}
