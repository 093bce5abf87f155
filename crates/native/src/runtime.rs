//! The tokio runtimes the probes run on.

use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use tokio::runtime::{Builder, Runtime};

thread_local! {
    static WORKER: Cell<u32> = const { Cell::new(u32::MAX) };
}

/// A multi-thread runtime with `workers` worker threads, numbered from 0
/// (see [`worker_index`]).
pub fn multi_thread(workers: u32) -> Runtime {
    let next = Arc::new(AtomicU32::new(0));
    Builder::new_multi_thread()
        .worker_threads(workers.max(1) as usize)
        .enable_time()
        .on_thread_start(move || WORKER.set(next.fetch_add(1, Ordering::Relaxed)))
        .build()
        .expect("a tokio runtime starts")
}

/// A runtime on the calling thread alone: the native stand-in for a UI
/// thread's event loop.
pub fn current_thread() -> Runtime {
    Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a tokio runtime starts")
}

/// The number of the runtime thread this code runs on.
pub fn worker_index() -> u32 {
    WORKER.get()
}
