//! Experiment 9 natively: a producer thread hands `Instant` stamps to a
//! consumer over a bounded channel of [`RING_CAPACITY`] items: tokio's
//! `mpsc` received with `.await` on a current-thread runtime, std's
//! `sync_channel` received with a blocking `recv`, or tokio's channel
//! polled with `try_recv` and a `tokio::time::sleep(1 ms)` while empty.
//! The producer busy-waits each paced item's pause (as the page's does),
//! then sends the burst back to back; both sides read one monotonic
//! clock, so there is no skew.

use crate::{Native, Progress, trace};
use std::sync::mpsc::{Receiver as StdReceiver, sync_channel};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};
use tokio::sync::mpsc::error::TryRecvError;
use tokio::sync::mpsc::{self, Receiver as TokioReceiver};
use waitlab_core::experiments::producer_consumer::{
    Channel, ChannelRun, ProducerConsumer, ProducerConsumerConfig, RING_CAPACITY, RawChannelRun,
    Tally,
};

/// One clock for both sides: ms since the run began.
#[derive(Clone, Copy)]
struct Clock(Instant);

impl Clock {
    fn ms(self, t: Instant) -> f64 {
        (t - self.0).as_secs_f64() * 1000.0
    }

    /// Files one item, stamped `sent`: reads the clock first.
    /// Files an item sent at `sent`, seen now; keeps both in `flows` if
    /// it has room (made before the run when a timeline is recorded).
    fn take(self, tally: &mut Tally, flows: &mut Vec<(Instant, Instant)>, sent: Instant) {
        let now = Instant::now();
        tally.take(self.ms(sent), self.ms(now));
        if flows.len() < flows.capacity() {
            flows.push((sent, now));
        }
    }
}

/// The producer's side: once the consumer is ready, each paced item
/// after its pause, then the burst; `send` stamps and sends one item.
fn produce(ready: &Barrier, gaps_us: &[u32], burst: u32, mut send: impl FnMut(Instant)) {
    ready.wait();
    for &gap in gaps_us {
        crate::busy_for(Duration::from_micros(u64::from(gap)));
        send(Instant::now());
    }
    for _ in 0..burst {
        send(Instant::now());
    }
}

/// The consumer of a tokio channel, by `.await` or by polling.
fn consume_tokio(
    polls: bool,
    mut rx: TokioReceiver<Instant>,
    ready: &Barrier,
    clock: Clock,
    (tally, flows): (&mut Tally, &mut Vec<(Instant, Instant)>),
) {
    crate::runtime::current_thread().block_on(async {
        ready.wait();
        loop {
            let sent = if polls {
                match rx.try_recv() {
                    Ok(sent) => sent,
                    Err(TryRecvError::Empty) => {
                        tokio::time::sleep(Duration::from_millis(1)).await;
                        continue;
                    }
                    Err(TryRecvError::Disconnected) => break,
                }
            } else {
                match rx.recv().await {
                    Some(sent) => sent,
                    None => break,
                }
            };
            clock.take(tally, flows, sent);
        }
    });
}

/// The consumer of std's channel: a blocking `recv` until it closes.
fn consume_std(
    rx: StdReceiver<Instant>,
    ready: &Barrier,
    clock: Clock,
    (tally, flows): (&mut Tally, &mut Vec<(Instant, Instant)>),
) {
    ready.wait();
    while let Ok(sent) = rx.recv() {
        clock.take(tally, flows, sent);
    }
}

/// One channel's run: the consumer on this thread, the producer on its
/// own.
fn run_channel(
    channel: Channel,
    config: &ProducerConsumerConfig,
    gaps_us: &[u32],
) -> RawChannelRun {
    let ready = Arc::new(Barrier::new(2));
    let mut tally = Tally::new(config.items);
    // Each item's send and receipt, for the timeline (only when one is
    // recorded), with room for all of them before the first.
    let items = (config.items + config.burst) as usize;
    let mut flows = Vec::with_capacity(if trace::on() { items } else { 0 });
    let clock = Clock(Instant::now());
    let capacity = RING_CAPACITY as usize;
    let burst = config.burst;
    std::thread::scope(|scope| match channel {
        Channel::StdMpsc => {
            let (tx, rx) = sync_channel(capacity);
            let ready2 = ready.clone();
            scope.spawn(move || {
                produce(&ready2, gaps_us, burst, |t| {
                    tx.send(t).expect("the consumer stays");
                });
            });
            consume_std(rx, &ready, clock, (&mut tally, &mut flows));
        }
        _ => {
            let (tx, rx) = mpsc::channel(capacity);
            let ready2 = ready.clone();
            scope.spawn(move || {
                produce(&ready2, gaps_us, burst, |t| {
                    tx.blocking_send(t).expect("the consumer stays");
                });
            });
            consume_tokio(channel.polls(), rx, &ready, clock, (&mut tally, &mut flows));
        }
    });
    let (_, name) = channel.timeline();
    trace::flows(
        "producer-consumer: producer",
        "producer-consumer: consumer",
        name,
        flows,
    );
    tally.finish()
}

impl Native for ProducerConsumer {
    /// Runs experiment 9 with `config`.
    fn run(config: &ProducerConsumerConfig, tick: &Progress) -> ProducerConsumer {
        let gaps_us = config.gaps_us();
        let runs = crate::each_way(&Channel::NATIVE, tick, config.items, |channel| {
            let raw = run_channel(channel, config, &gaps_us);
            ChannelRun::measured(channel, raw, 0.0)
        });
        ProducerConsumer {
            config: config.clone(),
            skew_ms: None,
            runs,
        }
    }

    /// Units of progress of a run.
    fn units(config: &ProducerConsumerConfig) -> u64 {
        u64::from(config.items) * Channel::NATIVE.len() as u64
    }
}
