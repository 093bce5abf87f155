//! Experiment 4 natively: a setter thread busy-waits a random 0–3 ms,
//! stamps the time and raises a flag; the waiter notices it by polling or
//! by being woken. Both read one monotonic clock, so there is no skew to
//! correct.

use crate::{Progress, runtime};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};
use waitlab_core::schema::Outcome;
use waitlab_core::wake::{Strategy, WakeConfig, WakeLatency, WakeResult};

/// What one round shares between the setter and the waiter.
#[derive(Default)]
struct Round {
    flag: AtomicU32,
    raised: Mutex<bool>,
    condvar: Condvar,
    notify: tokio::sync::Notify,
}

impl Round {
    /// The setter's side: raise the flag and wake the waiter by `strategy`.
    fn raise(&self, strategy: Strategy, waiter: &std::thread::Thread) {
        self.flag.store(1, Ordering::Release);
        match strategy {
            Strategy::Condvar => {
                *self.raised.lock().expect("round lock") = true;
                self.condvar.notify_one();
            }
            Strategy::Park => waiter.unpark(),
            Strategy::Futex => atomic_wait::wake_one(&self.flag),
            Strategy::TokioNotify => self.notify.notify_one(),
            _ => {}
        }
    }

    fn up(&self) -> bool {
        self.flag.load(Ordering::Acquire) != 0
    }

    /// The waiter's side: return once the flag is up, noticed by `strategy`.
    fn notice(&self, strategy: Strategy, rt: &tokio::runtime::Runtime) {
        match strategy {
            Strategy::NativeSpinUntil => {
                while !self.up() {
                    std::hint::spin_loop();
                }
            }
            Strategy::NativeSleepPoll => {
                while !self.up() {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            Strategy::NativeTimerPoll => rt.block_on(async {
                while !self.up() {
                    tokio::time::sleep(Duration::from_millis(1)).await;
                }
            }),
            Strategy::Condvar => {
                let mut raised = self.raised.lock().expect("round lock");
                while !*raised {
                    raised = self.condvar.wait(raised).expect("round lock");
                }
            }
            Strategy::Park => {
                while !self.up() {
                    std::thread::park();
                }
            }
            Strategy::Futex => {
                while !self.up() {
                    atomic_wait::wait(&self.flag, 0);
                }
            }
            Strategy::TokioNotify => rt.block_on(self.notify.notified()),
            other => unreachable!("{} is not a native strategy", other.id()),
        }
    }
}

/// One round: set→noticed, ms.
fn round(strategy: Strategy, delay: Duration, rt: &tokio::runtime::Runtime) -> f64 {
    let shared = Round::default();
    let waiter = std::thread::current();
    std::thread::scope(|s| {
        let setter = s.spawn(|| {
            let t = Instant::now();
            while t.elapsed() < delay {
                std::hint::spin_loop();
            }
            let set_at = Instant::now();
            shared.raise(strategy, &waiter);
            set_at
        });
        shared.notice(strategy, rt);
        let noticed = Instant::now();
        let set_at = setter.join().expect("the setter does not panic");
        noticed.saturating_duration_since(set_at).as_secs_f64() * 1000.0
    })
}

/// Units of progress of a run.
pub fn units(config: &WakeConfig) -> u64 {
    u64::from(config.rounds) * Strategy::NATIVE.len() as u64
}

/// Runs experiment 4 with `config`.
pub fn run(config: &WakeConfig, tick: &Progress) -> WakeLatency {
    let rt = runtime::current_thread();
    let delays = config.delays_us();
    let results = Strategy::NATIVE
        .into_iter()
        .map(|strategy| {
            tick.set_message(strategy.label());
            let samples = delays
                .iter()
                .map(|&us| {
                    let ms = round(strategy, Duration::from_micros(u64::from(us)), &rt);
                    tick.inc(1);
                    ms
                })
                .collect();
            let outcome = Outcome::measured(samples).unwrap_or_else(|e| Outcome::Failed {
                message: e.to_string(),
            });
            WakeResult { strategy, outcome }
        })
        .collect();
    WakeLatency {
        config: config.clone(),
        skew_ms: Some(0.0),
        results,
    }
}
