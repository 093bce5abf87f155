// Runs on a thread that may block (std only); async code uses tokio's sleep_until.
use std::time::{Duration, Instant};

/// Sleeps until `deadline` and returns how late it woke: zero or more, never less.
pub fn sleep_until(deadline: Instant) -> Duration {
    loop {
        let now = Instant::now();
        if now >= deadline {
            return now - deadline;
        }
        // A sleep is a minimum, not a promise: check the clock, not the sleep.
        std::thread::sleep(deadline - now);
    }
}
