// Runs in an async task on a tokio runtime.
use std::time::Duration;
use tokio::task::JoinSet;

/// `n` tasks that each await a timer: no thread sleeps, so the batch takes about `each`.
pub async fn batch(n: usize, each: Duration) {
    let mut tasks = JoinSet::new();
    for _ in 0..n {
        tasks.spawn(tokio::time::sleep(each));
    }
    tasks.join_all().await;
}
