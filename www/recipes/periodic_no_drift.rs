// Runs in an async task on a tokio runtime.
use std::time::Duration;
use tokio::time::{MissedTickBehavior, interval};

/// Calls `work` on `ticks` ticks of a fixed schedule: tick k is due at start + k × period,
/// however long `work` takes (a late tick runs at once and the next ones catch up).
pub async fn every(period: Duration, ticks: u32, mut work: impl FnMut(u32)) {
    let mut timer = interval(period);
    timer.set_missed_tick_behavior(MissedTickBehavior::Burst);
    for k in 0..ticks {
        timer.tick().await;
        work(k);
    }
}
