// Runs in an async task on a tokio runtime.
use std::time::Duration;
use tokio::sync::Notify;

/// Sleeps until another task calls `signal.notify_one()`, for at most `limit`.
/// True if signalled; a notification sent before the wait is kept, not lost.
pub async fn wait_for_signal(signal: &Notify, limit: Duration) -> bool {
    tokio::time::timeout(limit, signal.notified()).await.is_ok()
}
