// Runs in an async task on a tokio runtime.
use tokio::{sync::Semaphore, task::JoinSet};

/// Runs every job, at most `limit` at once; the others wait for a permit, asleep.
pub async fn run_limited<F: Future<Output = ()> + Send + 'static>(jobs: Vec<F>, limit: usize) {
    let gate = std::sync::Arc::new(Semaphore::new(limit));
    let mut running = JoinSet::new();
    for job in jobs {
        let permit = gate.clone().acquire_owned().await.unwrap();
        running.spawn(async move {
            job.await;
            drop(permit); // lets the next job in
        });
    }
    running.join_all().await;
}
