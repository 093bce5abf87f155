// Runs in an async task on a tokio runtime.
/// Sums `items` a chunk at a time, letting other tasks run between chunks.
pub async fn process_in_chunks(items: &[u64], chunk: usize) -> u64 {
    let mut total = 0;
    for part in items.chunks(chunk) {
        total += part.iter().sum::<u64>();
        // Awaiting a future that is already ready goes straight on; this yields.
        tokio::task::yield_now().await;
    }
    total
}
