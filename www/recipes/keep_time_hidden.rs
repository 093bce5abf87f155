// Runs anywhere: it ticks on a thread of its own (std only).
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};
/// Ticks on a thread of its own (a program's worker), each aimed at the clock's
/// next due time and sent to whoever waits; it stops once the receiver is gone.
pub fn ticker(period: Duration) -> Receiver<u32> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let start = Instant::now();
        let _ = (1..).try_for_each(|tick| {
            std::thread::sleep((start + period * tick).saturating_duration_since(Instant::now()));
            tx.send(tick)
        });
    });
    rx
}
