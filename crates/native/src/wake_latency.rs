//! Experiment 4 natively: for each strategy, two long-lived threads, a
//! setter and a waiter, meet at a barrier before every round. The setter
//! then busy-waits the round's random 0–3 ms, stamps the time, raises the
//! flag and wakes the waiter by the strategy; the waiter notices the flag
//! by polling or by being woken, and stamps the time. So every wake goes
//! from one running thread to another, as in the article, rather than
//! from a thread spawned for the round. Both read one monotonic clock, so
//! there is no skew to correct.
//!
//! The flag holds the number of the round last raised (rounds count from
//! 1), and the waiter of round k waits for the value k: a late wake, a
//! leftover park token or a stored `Notify` permit from an earlier round
//! only makes it check again. The waiter builds its tokio runtime (current
//! thread) once, for the tokio strategies.

use crate::{Native, Progress, runtime, trace};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Barrier, Condvar, Mutex};
use std::thread::Thread;
use std::time::{Duration, Instant};
use waitlab_core::experiments::wake_latency::{Strategy, WakeConfig, WakeLatency, WakeResult};
use waitlab_core::outcome::Outcome;

/// What the setter and the waiter share over one strategy's rounds.
struct Meeting {
    /// The round last raised, 0 before the first.
    flag: AtomicU32,
    /// The round last raised, as the condition variable's state.
    raised: Mutex<u32>,
    condvar: Condvar,
    notify: tokio::sync::Notify,
    /// Where the two threads meet before each round.
    barrier: Barrier,
}

impl Meeting {
    fn new() -> Meeting {
        Meeting {
            flag: AtomicU32::new(0),
            raised: Mutex::new(0),
            condvar: Condvar::new(),
            notify: tokio::sync::Notify::new(),
            barrier: Barrier::new(2),
        }
    }

    /// Whether `round` has been raised.
    fn up(&self, round: u32) -> bool {
        self.flag.load(Ordering::Acquire) == round
    }

    /// The setter's side: raise the flag for `round` and wake the waiter
    /// by `strategy`.
    fn raise(&self, strategy: Strategy, round: u32, waiter: &Thread) {
        self.flag.store(round, Ordering::Release);
        match strategy {
            Strategy::Condvar => {
                *self.raised.lock().expect("meeting lock") = round;
                self.condvar.notify_one();
            }
            Strategy::Park => waiter.unpark(),
            Strategy::Futex => atomic_wait::wake_one(&self.flag),
            Strategy::TokioNotify => self.notify.notify_one(),
            _ => {}
        }
    }

    /// The waiter's side: the time it noticed `round` raised, by
    /// `strategy`.
    fn notice(&self, strategy: Strategy, round: u32, rt: &tokio::runtime::Runtime) -> Instant {
        match strategy {
            Strategy::NativeSpinUntil => {
                while !self.up(round) {
                    std::hint::spin_loop();
                }
            }
            Strategy::NativeSleepPoll => {
                while !self.up(round) {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            Strategy::NativeTimerPoll => {
                return rt.block_on(async {
                    while !self.up(round) {
                        tokio::time::sleep(Duration::from_millis(1)).await;
                    }
                    Instant::now()
                });
            }
            Strategy::Condvar => {
                let mut raised = self.raised.lock().expect("meeting lock");
                while *raised != round {
                    raised = self.condvar.wait(raised).expect("meeting lock");
                }
            }
            Strategy::Park => {
                while !self.up(round) {
                    std::thread::park();
                }
            }
            Strategy::Futex => {
                while !self.up(round) {
                    atomic_wait::wait(&self.flag, round - 1);
                }
            }
            Strategy::TokioNotify => {
                return rt.block_on(async {
                    while !self.up(round) {
                        self.notify.notified().await;
                    }
                    Instant::now()
                });
            }
            other => unreachable!("{} is not a native strategy", other.id()),
        }
        Instant::now()
    }
}

/// The set→noticed times of `strategy`, ms: one round per delay of
/// `delays_us`, between a waiter thread and a setter thread that live for
/// all the rounds.
fn measure(strategy: Strategy, delays_us: &[u32]) -> Vec<f64> {
    let meeting = Meeting::new();
    let meeting = &meeting;
    let lanes = ("wake latency: setter", "wake latency: waiter");
    trace::pair_rounds(
        lanes,
        strategy.timeline(),
        delays_us,
        move || {
            let rt = runtime::current_thread();
            let mut noticed = Vec::with_capacity(delays_us.len());
            for round in (1..).take(delays_us.len()) {
                meeting.barrier.wait();
                noticed.push(meeting.notice(strategy, round, &rt));
            }
            noticed
        },
        move |waiter_thread| {
            let mut set = Vec::with_capacity(delays_us.len());
            for (round, &us) in (1..).zip(delays_us) {
                let delay = Duration::from_micros(u64::from(us));
                meeting.barrier.wait();
                crate::busy_for(delay);
                let set_at = Instant::now();
                meeting.raise(strategy, round, &waiter_thread);
                set.push(set_at);
            }
            set
        },
    )
}

impl Native for WakeLatency {
    /// Runs experiment 4 with `config`.
    fn run(config: &WakeConfig, tick: &Progress) -> WakeLatency {
        let delays = config.delays_us();
        let results = crate::each_way(&Strategy::NATIVE, tick, config.rounds, |strategy| {
            let outcome = Outcome::of_samples(measure(strategy, &delays));
            WakeResult { strategy, outcome }
        });
        WakeLatency {
            config: config.clone(),
            skew_ms: Some(0.0),
            results,
            own: None,
        }
    }

    /// Units of progress of a run.
    fn units(config: &WakeConfig) -> u64 {
        u64::from(config.rounds) * Strategy::NATIVE.len() as u64
    }
}
