//! Experiment 6 natively: for each strategy, two long-lived threads, a
//! canceller and a waiter, meet at a barrier before every round. The
//! waiter then says it starts and waits the configured time by the
//! strategy; the canceller, from the moment it sees that (as the page's
//! canceller counts from the waiter's go), busy-waits the round's cancel
//! point, stamps the time and cancels. The
//! waiter stamps the time it is free. Both read one monotonic clock, so
//! there is no skew to correct; a wait that ran out before its cancel
//! counts as free at the cancel (0 ms), as in the browser.
//!
//! The cancel flag holds the number of the round last cancelled (rounds
//! count from 1), so a late notification from an earlier round never ends
//! a later wait. A `CancellationToken` cancels once: the waiter makes the
//! round's token before the barrier, and the canceller takes it after.

use crate::{Native, Progress, runtime, trace};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Barrier, Condvar, Mutex};
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;
use waitlab_core::experiments::cancel_waits::{CancelConfig, CancelResult, CancelWaits, Strategy};
use waitlab_core::outcome::Outcome;

/// What the canceller and the waiter share over one strategy's rounds.
struct Meeting {
    /// The round last cancelled, 0 before the first.
    cancelled: Mutex<u32>,
    condvar: Condvar,
    /// The round's token.
    token: Mutex<CancellationToken>,
    /// The round the waiter last started to wait in.
    started: AtomicU32,
    /// Where the two threads meet before each round.
    barrier: Barrier,
}

impl Meeting {
    /// The canceller's side: cancel `round` by `strategy`.
    fn cancel(&self, strategy: Strategy, round: u32, token: &CancellationToken) {
        *self.cancelled.lock().expect("meeting lock") = round;
        match strategy {
            Strategy::CondvarTimeout => self.condvar.notify_all(),
            Strategy::TokioCancel => token.cancel(),
            _ => {}
        }
    }

    /// The waiter's side: waits `wait` by `strategy` (cut short by the
    /// cancel of `round` where the strategy can be) and returns when it
    /// was free.
    fn wait(
        &self,
        strategy: Strategy,
        round: u32,
        wait: Duration,
        token: &CancellationToken,
        rt: &tokio::runtime::Runtime,
    ) -> Instant {
        match strategy {
            Strategy::NativeSleep => std::thread::sleep(wait),
            Strategy::CondvarTimeout => {
                let guard = self.cancelled.lock().expect("meeting lock");
                drop(
                    self.condvar
                        .wait_timeout_while(guard, wait, |c| *c != round)
                        .expect("meeting lock"),
                );
            }
            Strategy::TokioCancel => rt.block_on(async {
                tokio::select! {
                    () = tokio::time::sleep(wait) => {}
                    () = token.cancelled() => {}
                }
            }),
            other => unreachable!("{} is not a native strategy", other.id()),
        }
        Instant::now()
    }
}

/// The cancel→free times of `strategy`, ms: one round per cancel point of
/// `points_us`, between a waiter thread and a canceller thread that live
/// for all the rounds.
fn measure(strategy: Strategy, wait: Duration, points_us: &[u32]) -> Vec<f64> {
    let meeting = Meeting {
        cancelled: Mutex::new(0),
        condvar: Condvar::new(),
        token: Mutex::new(CancellationToken::new()),
        started: AtomicU32::new(0),
        barrier: Barrier::new(2),
    };
    let meeting = &meeting;
    let lanes = ("cancellable waits: canceller", "cancellable waits: waiter");
    trace::pair_rounds(
        lanes,
        strategy.timeline(),
        points_us,
        move || {
            let rt = runtime::current_thread();
            let mut free = Vec::with_capacity(points_us.len());
            for round in (1..).take(points_us.len()) {
                let token = CancellationToken::new();
                *meeting.token.lock().expect("meeting lock") = token.clone();
                meeting.barrier.wait();
                meeting.started.store(round, Ordering::Release);
                free.push(meeting.wait(strategy, round, wait, &token, &rt));
                // The next round begins once this one's cancel is in.
                meeting.barrier.wait();
            }
            free
        },
        move |_| {
            let mut cancelled = Vec::with_capacity(points_us.len());
            for (round, &us) in (1..).zip(points_us) {
                let point = Duration::from_micros(u64::from(us));
                meeting.barrier.wait();
                let token = meeting.token.lock().expect("meeting lock").clone();
                while meeting.started.load(Ordering::Acquire) != round {
                    std::hint::spin_loop();
                }
                crate::busy_for(point);
                let cancel_at = Instant::now();
                meeting.cancel(strategy, round, &token);
                cancelled.push(cancel_at);
                meeting.barrier.wait();
            }
            cancelled
        },
    )
}

impl Native for CancelWaits {
    /// Runs experiment 6 with `config`.
    fn run(config: &CancelConfig, tick: &Progress) -> CancelWaits {
        let points = config.cancel_points_us();
        let wait = Duration::from_millis(u64::from(config.wait_ms));
        let results = crate::each_way(&Strategy::NATIVE, tick, config.rounds, |strategy| {
            let outcome = Outcome::of_samples(measure(strategy, wait, &points));
            CancelResult { strategy, outcome }
        });
        CancelWaits {
            config: config.clone(),
            skew_ms: Some(0.0),
            results,
            own: None,
        }
    }

    /// Units of progress of a run.
    fn units(config: &CancelConfig) -> u64 {
        u64::from(config.rounds) * Strategy::NATIVE.len() as u64
    }
}
