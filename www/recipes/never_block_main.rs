// Runs in an async task on a tokio runtime; the blocking call goes to its pool.
use std::time::Duration;

/// Stands in for a call that blocks its thread: a file, a lock, a C library.
pub fn blocking_call(ms: u64) -> u64 {
    std::thread::sleep(Duration::from_millis(ms));
    ms
}

/// Runs the blocking call on a thread of its own; the runtime's threads stay free.
pub async fn blocking_off_the_runtime(ms: u64) -> u64 {
    tokio::task::spawn_blocking(move || blocking_call(ms))
        .await
        .expect("the blocking call panicked")
}
