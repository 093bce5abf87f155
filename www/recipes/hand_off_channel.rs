// Runs in an async task on a tokio runtime.
use tokio::sync::mpsc;

/// A producer task hands `items` to this consumer; a full channel makes the producer wait.
pub async fn hand_off(items: Vec<u64>, mut consume: impl FnMut(u64)) {
    let (tx, mut rx) = mpsc::channel(64);
    tokio::spawn(async move {
        for item in items {
            tx.send(item).await.expect("the consumer is listening");
        }
    });
    // recv() sleeps until an item comes, or returns None once the producer is gone.
    while let Some(item) = rx.recv().await {
        consume(item);
    }
}
