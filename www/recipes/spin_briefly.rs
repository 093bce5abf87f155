// Runs on a thread that may block (std only), never in an async task.
use std::sync::atomic::{AtomicBool, Ordering::Acquire};

/// Spins up to `spins` times, then parks; true if `flag` was set before the spins ran out.
/// The setter stores `true` with `Release`, then calls `unpark()` on the waiting thread.
pub fn wait_for(flag: &AtomicBool, mut spins: u32) -> bool {
    while !flag.load(Acquire) {
        if spins > 0 {
            spins -= 1;
            std::hint::spin_loop();
        } else {
            std::thread::park();
        }
    }
    spins > 0
}
