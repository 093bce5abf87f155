//! Producer/consumer handoff inside the workers (experiment 9): the
//! producer's and the consumer's side of each channel.
//!
//! The producer stamps `timeOrigin + now()` into each item as it sends it:
//! into the ring's slot before it publishes the item with an atomic store
//! and `Atomics.notify`, or as the posted message itself. The consumer
//! reads its own clock first when it sees an item, then files it in a
//! [`Tally`] made with room for every paced item, so nothing is allocated
//! or parsed between an item's send and its receive stamp.

use super::sample::{NO_PORT, spin_us};
use crate::clock::epoch_now;
use crate::memory::{self, Slots};
use crate::wait::{self, park, wake};
use crate::{trace, worker_scope};
use std::cell::RefCell;
use std::rc::Rc;
use std::task::{Poll, Waker};
use waitlab_core::experiments::producer_consumer::job::ChannelJob;
use waitlab_core::experiments::producer_consumer::{Channel, RING_CAPACITY, RawChannelRun, Tally};
use waitlab_core::key;
use waitlab_core::protocol::FromWorker;
use waitlab_core::protocol::shared_slots::{GO, RING, TAKEN, WRITTEN};
use waitlab_core::trace::{Kind, Name};
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{MessageEvent, MessagePort};

/// The slot of item `i` in the ring.
fn slot(i: i32) -> u32 {
    RING + i.rem_euclid(RING_CAPACITY as i32) as u32
}

/// Every item of a run: the pause before it, µs (the paced ones' own,
/// then none for the burst's).
fn pauses(gaps_us: &[u32], burst: u32) -> impl Iterator<Item = u32> + '_ {
    gaps_us
        .iter()
        .copied()
        .chain(std::iter::repeat_n(0, burst as usize))
}

/// Busy-waits a pause, if there is one.
fn pause(us: u32) {
    if us > 0 {
        let began = epoch_now();
        spin_us(us);
        trace::span_epoch(
            Kind::Busy,
            Name::of(key!("timeline.name.delay")),
            began,
            epoch_now(),
        );
    }
}

/// The producer's side of the ring: once the consumer's go is up, each
/// item in turn, waiting in `Atomics.wait` while the ring is full. Blocks
/// its worker for the whole run.
fn produce_ring(slots: &Slots, gaps_us: &[u32], burst: u32) -> Result<(), String> {
    slots.wait_while(GO, 0)?;
    for (i, gap) in pauses(gaps_us, burst).enumerate() {
        let i = i as i32;
        pause(gap);
        loop {
            let taken = slots.load(TAKEN);
            if i - taken < RING_CAPACITY as i32 {
                break;
            }
            memory::wait(slots.ints(), TAKEN, taken, f64::INFINITY)?;
        }
        slots.set_f64(slot(i), epoch_now());
        slots.store_and_notify(WRITTEN, i + 1);
    }
    Ok(())
}

/// The producer's side of the message channel: after the consumer's go
/// on `port`, each item posted as its stamp.
async fn produce_by_message(port: &MessagePort, gaps_us: &[u32], burst: u32) -> Result<(), String> {
    wait::next_message(port).await;
    for gap in pauses(gaps_us, burst) {
        pause(gap);
        port.post_message(&JsValue::from_f64(epoch_now()))
            .map_err(|e| crate::js_error_message(&e))?;
    }
    Ok(())
}

/// The consumer's side of the ring: `items` paced items then `burst`,
/// each taken as soon as the consumer sees the write index pass it; it
/// waits for the index in `Atomics.wait` or, if `channel` polls, by checking it after
/// each `setTimeout(1)` (one timer and its callback made for the run, so
/// a poll allocates nothing).
async fn consume_ring(
    channel: Channel,
    slots: &Slots,
    items: u32,
    burst: u32,
) -> Result<RawChannelRun, String> {
    slots.store_and_notify(WRITTEN, 0);
    slots.store_and_notify(TAKEN, 0);
    let mut tally = Tally::new(items);
    let timer = channel.polls().then(wait::Timer::new);
    let total = items.saturating_add(burst) as i32;
    let (kind, name) = channel.timeline();
    slots.store_and_notify(GO, 1);
    let mut next = 0;
    let mut idle_from = epoch_now();
    while next < total {
        let written = slots.load(WRITTEN);
        if written <= next {
            match &timer {
                Some(timer) => drop(timer.time(1).await),
                None => drop(memory::wait(slots.ints(), WRITTEN, written, f64::INFINITY)?),
            }
            continue;
        }
        let seen = epoch_now();
        trace::span_epoch(kind, name, idle_from, seen);
        while next < written {
            let sent = slots.get_f64(slot(next));
            tally.take(sent, seen);
            trace::flow(name, sent, seen);
            next += 1;
            slots.store_and_notify(TAKEN, next);
        }
        idle_from = epoch_now();
    }
    Ok(tally.finish())
}

/// What the message consumer's handler shares with the run.
struct Inbox {
    tally: RefCell<Tally>,
    left: std::cell::Cell<u32>,
    waker: RefCell<Option<Waker>>,
}

/// The consumer's side of the message channel: a handler made once files
/// each item as it arrives (its stamp read first); the run ends with the
/// last item.
async fn consume_by_message(
    port: &MessagePort,
    items: u32,
    burst: u32,
) -> Result<RawChannelRun, String> {
    let inbox = Rc::new(Inbox {
        tally: RefCell::new(Tally::new(items)),
        left: std::cell::Cell::new(items.saturating_add(burst)),
        waker: RefCell::new(None),
    });
    let (_, name) = Channel::MessagePort.timeline();
    let on_message = {
        let inbox = inbox.clone();
        Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            let seen = epoch_now();
            let sent = e.data().as_f64().unwrap_or(f64::NAN);
            inbox.tally.borrow_mut().take(sent, seen);
            trace::flow(name, sent, seen);
            let left = inbox.left.get().saturating_sub(1);
            inbox.left.set(left);
            if left == 0 {
                wake(&inbox.waker);
            }
        })
    };
    port.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    port.post_message(&JsValue::TRUE)
        .map_err(|e| crate::js_error_message(&e))?;
    std::future::poll_fn(|cx| {
        if inbox.left.get() == 0 {
            Poll::Ready(())
        } else {
            park(&inbox.waker, cx)
        }
    })
    .await;
    port.set_onmessage(None);
    drop(on_message);
    let tally = inbox.tally.replace(Tally::new(0));
    Ok(tally.finish())
}

/// The producer's side of `channel` (a page's), on the shared memory or
/// the port the page passed: the ring's blocks its worker for the whole
/// run.
pub async fn produce(
    channel: Channel,
    gaps_us: &[u32],
    burst: u32,
    slots: Option<&Slots>,
    port: Option<&MessagePort>,
) -> Result<(), String> {
    match channel {
        Channel::MessagePort => produce_by_message(port.ok_or(NO_PORT)?, gaps_us, burst).await,
        Channel::RingWait | Channel::RingPoll => {
            produce_ring(slots.ok_or(memory::NOT_SHARED)?, gaps_us, burst)
        }
        other => Err(not_the_pages(other)),
    }
}

/// What a worker asked for a native channel says.
fn not_the_pages(channel: Channel) -> String {
    format!("{} is not a channel of the page", channel.id())
}

/// The consumer's side of `channel` (a page's), on the shared memory or
/// the port the page passed.
pub async fn consume(
    channel: Channel,
    items: u32,
    burst: u32,
    slots: Option<&Slots>,
    port: Option<&MessagePort>,
) -> Result<RawChannelRun, String> {
    match channel {
        Channel::MessagePort => consume_by_message(port.ok_or(NO_PORT)?, items, burst).await,
        Channel::RingWait | Channel::RingPoll => {
            let slots = slots.ok_or(memory::NOT_SHARED)?;
            consume_ring(channel, slots, items, burst).await
        }
        other => Err(not_the_pages(other)),
    }
}

/// Serves experiment 9's worker jobs: the producer's items (answered with
/// `SetterDone`) or the consumer's (a reply of its raw times).
pub(crate) fn serve(job: ChannelJob) {
    trace::ready();
    wasm_bindgen_futures::spawn_local(async move {
        let (slots, port) = (worker_scope::slots(), worker_scope::port());
        match job {
            ChannelJob::Produce {
                channel,
                gaps_us,
                burst,
            } => {
                let result = produce(channel, &gaps_us, burst, slots.as_ref(), port.as_ref()).await;
                worker_scope::post(&FromWorker::SetterDone { result });
            }
            ChannelJob::Consume {
                channel,
                items,
                burst,
            } => {
                let result = consume(channel, items, burst, slots.as_ref(), port.as_ref()).await;
                worker_scope::post(&FromWorker::reply(&result));
            }
        }
    });
}
