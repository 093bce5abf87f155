// Runs in an async task on a tokio runtime (tokio-util for the token).
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// Waits `interval` unless `token` is cancelled first, which ends the wait at once.
/// True if cancelled.
pub async fn wait_or_cancel(interval: Duration, token: &CancellationToken) -> bool {
    tokio::select! {
        () = token.cancelled() => true,
        () = tokio::time::sleep(interval) => false,
    }
}
