//! Experiment 9: producer/consumer handoff. A producer hands items to a
//! consumer on another thread; how soon after it is sent does an item
//! arrive, and how many go through a second? A channel whose consumer is
//! woken by the send (`Channel<T>`, `BlockingCollection<T>.Take`) against
//! a consumer that polls the queue with a timer
//! (`while (!queue.TryDequeue(out x)) await Task.Delay(1)`).
//!
//! Each run first sends `items` items one by one, a seeded pause apart,
//! so the consumer waits for each (the latency), then `burst` items back
//! to back (the throughput). Every item carries the producer's stamp of
//! `performance.timeOrigin + now()`, and as in experiment 4 the run
//! measures and corrects the skew between the two threads' clocks.

use crate::experiments::Config;
use crate::experiments::config::config;
use crate::field::{self};
use crate::key;
use crate::outcome::Outcome;
use crate::strategies::strategies;
use crate::text::Phrase;
use serde::{Deserialize, Serialize};

mod description;
mod findings;
pub mod job;
pub mod lessons;
mod link;

strategies! {
    /// How the items travel, and how the consumer learns of one.
    pub enum Channel in "producer_consumer.channel." {
        browser {
            /// `postMessage` over a `MessageChannel`: the consumer's event loop
            /// runs its handler when an item arrives.
            MessagePort = "message_port",
            /// A ring buffer in a `SharedArrayBuffer`: the consumer blocks in
            /// `Atomics.wait` on the write index, the producer's `Atomics.notify`
            /// wakes it.
            RingWait = "ring_wait",
            /// The same ring buffer, its write index checked after each
            /// `setTimeout(1)`.
            RingPoll = "ring_poll",
        }
        native {
            /// Native: tokio's bounded `mpsc` channel, received with `.await` on a
            /// current-thread runtime.
            TokioMpsc = "tokio_mpsc",
            /// Native: `std::sync::mpsc::sync_channel`, received with a blocking
            /// `recv`.
            StdMpsc = "std_mpsc",
            /// Native: tokio's channel polled with `try_recv`, a
            /// `tokio::time::sleep(1 ms)` while it is empty.
            TokioPolling = "tokio_polling",
        }
    }
}

/// The article's three ways for a consumer to wait, which the page's and
/// the native probe's channels each stand for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `await reader.ReadAsync()` on a `Channel<T>`.
    Async,
    /// A blocking take (`BlockingCollection<T>.Take()`).
    Blocking,
    /// `TryDequeue`, and `await Task.Delay(1)` while empty.
    Polling,
}

impl Channel {
    /// Whether the consumer's wait for an item holds its thread.
    pub fn holds_thread(self) -> bool {
        matches!(self, Channel::RingWait | Channel::StdMpsc)
    }

    /// The .NET code of the article it stands for.
    pub fn analogue(self) -> Phrase {
        Phrase::new(match self.kind() {
            Kind::Async => key!("producer_consumer.analogue.async"),
            Kind::Blocking => key!("producer_consumer.analogue.blocking"),
            Kind::Polling => key!("producer_consumer.analogue.polling"),
        })
    }

    /// Whether the consumer learns of an item only when it next looks.
    pub fn polls(self) -> bool {
        self.kind() == Kind::Polling
    }

    /// Whether it needs shared memory (in the browser): the ring buffer.
    pub fn needs_shared_memory(self) -> bool {
        matches!(self, Channel::RingWait | Channel::RingPoll)
    }

    fn kind(self) -> Kind {
        match self {
            Channel::MessagePort | Channel::TokioMpsc => Kind::Async,
            Channel::RingWait | Channel::StdMpsc => Kind::Blocking,
            Channel::RingPoll | Channel::TokioPolling => Kind::Polling,
        }
    }
}

config! {
    /// Configuration of experiment 9.
    pub struct ProducerConsumerConfig {
        /// Items sent one by one (their latencies are the samples).
        items: u32 = 100,
            quick(30) form("items", "items", "producer_consumer.items", 1, Self::MAX_ITEMS)
            link(Self::MAX_ITEMS);
        /// The typical pause between two of them, ms: each is a seeded time
        /// between half and one and a half of it.
        gap_ms: u32 = 2,
            form("gap", "gap", "producer_consumer.gap_ms", 1, Self::MAX_GAP_MS)
            link(Self::MAX_GAP_MS);
        /// Items then sent back to back (their rate is the throughput): at
        /// least enough that a rate is more than a latency.
        burst: u32 = 2000,
            quick(500) form("burst", "burst", "producer_consumer.burst", 100, Self::MAX_BURST)
            link(Self::MAX_BURST);
        /// Seed of the pauses (the same for every channel).
        seed: u64 = 0x4A2D_0FF5;
    }
    // The producer spins through every pause, so the pauses of all
    // channels together must stay within the longest blocking batch.
    check: |c| field::check_blocking_ms(c.paced_ms() * 1.5 * Channel::BROWSER.len() as f64),
    // Each channel's paced items, its burst (a polled ring drains
    // `RING_CAPACITY` items a poll of about 4 ms), and the workers' start.
    estimate: |c| {
        let polls = f64::from(c.burst) / f64::from(RING_CAPACITY);
        Channel::BROWSER.len() as f64 * (c.paced_ms() * 1.1 + 10.0) + polls * 4.5 + 300.0
    },
    hint: |c| field::about_seconds(c.estimated_ms()),
}

impl ProducerConsumerConfig {
    /// Most items sent one by one.
    pub const MAX_ITEMS: u32 = 2000;
    /// Longest accepted pause, ms.
    pub const MAX_GAP_MS: u32 = 100;
    /// Most items in a burst.
    pub const MAX_BURST: u32 = 100_000;

    /// The pause before each item sent one by one, µs: the same for every
    /// channel.
    pub fn gaps_us(&self) -> Vec<u32> {
        let gap_us = self.gap_ms.saturating_mul(1000);
        crate::experiments::seeded::sequence(self.seed, self.items, gap_us / 2..=gap_us / 2 * 3)
    }

    /// How long the items sent one by one take about, ms.
    fn paced_ms(&self) -> f64 {
        f64::from(self.items) * f64::from(self.gap_ms)
    }
}

/// Items the ring buffer (and the native channels) hold at most: a
/// producer finding it full waits for the consumer to take one.
pub const RING_CAPACITY: u32 = 64;

/// One channel's run: each paced item's send→receive latency and the
/// burst's time, or why there are none.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChannelRun {
    /// The channel.
    pub channel: Channel,
    /// The paced items' latencies, ms, or why there are none.
    pub outcome: Outcome,
    /// From the burst's first send to its last receive, ms, when measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub burst_ms: Option<f64>,
}

impl ChannelRun {
    /// A run that measured: the consumer's raw times (its clock minus the
    /// producer's), corrected by the clocks' skew (never below zero).
    pub fn measured(channel: Channel, raw: RawChannelRun, skew_ms: f64) -> ChannelRun {
        let latency = |l: &f64| crate::clock::corrected_ms(*l, skew_ms);
        ChannelRun {
            channel,
            outcome: Outcome::of_samples(raw.latencies_ms.iter().map(latency).collect()),
            burst_ms: Some(raw.burst_ms + skew_ms).filter(|b| *b > 0.0),
        }
    }

    /// A run that did not measure.
    pub fn without(channel: Channel, outcome: Outcome) -> ChannelRun {
        ChannelRun {
            channel,
            outcome,
            burst_ms: None,
        }
    }

    /// Items a second through the burst of `burst` items: the burst's
    /// items over its first send to its last receive (none for a burst
    /// that took no time, which only a damaged link could hold).
    pub fn items_per_s(&self, burst: u32) -> Option<f64> {
        self.burst_ms
            .filter(|ms| ms.is_finite() && *ms > 0.0)
            .map(|ms| f64::from(burst) / ms * 1000.0)
    }
}

/// What a consumer measured, on its clock minus the producer's: each paced
/// item's send→receive time, and the burst's first send to its last
/// receive, ms.
#[derive(Debug, Clone, PartialEq)]
pub struct RawChannelRun {
    /// One per paced item.
    pub latencies_ms: Vec<f64>,
    /// The burst.
    pub burst_ms: f64,
}

/// What a consumer keeps of the items as they arrive: the first `items`
/// are the paced ones, whose latencies it files in room made beforehand
/// (nothing is allocated while items arrive); the rest are the burst.
#[derive(Debug)]
pub struct Tally {
    items: usize,
    latencies_ms: Vec<f64>,
    burst_start_ms: Option<f64>,
    last_ms: f64,
}

impl Tally {
    /// Room for `items` paced items.
    pub fn new(items: u32) -> Self {
        Self {
            items: items as usize,
            latencies_ms: Vec::with_capacity(items as usize),
            burst_start_ms: None,
            last_ms: f64::NAN,
        }
    }

    /// One item, stamped `sent_ms` by the producer and seen at
    /// `received_ms` by the consumer (its clock, ms).
    pub fn take(&mut self, sent_ms: f64, received_ms: f64) {
        if self.latencies_ms.len() < self.items {
            self.latencies_ms.push(received_ms - sent_ms);
        } else if self.burst_start_ms.is_none() {
            self.burst_start_ms = Some(sent_ms);
        }
        self.last_ms = received_ms;
    }

    /// The raw times: the paced items' latencies and the burst's first
    /// send to its last receive (NaN without a burst).
    pub fn finish(self) -> RawChannelRun {
        RawChannelRun {
            burst_ms: self.burst_start_ms.map_or(f64::NAN, |s| self.last_ms - s),
            latencies_ms: self.latencies_ms,
        }
    }
}

/// Results of experiment 9.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProducerConsumer {
    /// The configuration that was run.
    pub config: ProducerConsumerConfig,
    /// Measured skew of the producer's clock against the consumer's, ms
    /// (added to every raw time); `None` when it could not be measured
    /// (no shared memory), or natively (one clock).
    pub skew_ms: Option<f64>,
    /// One run per channel.
    pub runs: Vec<ChannelRun>,
}

impl ProducerConsumer {
    /// The polling channel's median latency over the fastest woken
    /// channel's: the polling channel, the woken one and its median (ms),
    /// and the ratio, if both measured.
    pub fn polling_ratio(&self) -> Option<(Channel, Channel, f64, f64)> {
        let p50 = |r: &ChannelRun| r.outcome.summary().map(|s| s.p50);
        let polling = self
            .runs
            .iter()
            .find(|r| r.channel.polls())
            .and_then(|r| Some((r.channel, p50(r)?)))?;
        let woken = self
            .runs
            .iter()
            .filter(|r| !r.channel.polls())
            .filter_map(|r| Some((r.channel, p50(r)?)))
            .filter(|(_, p)| *p > 0.0)
            .min_by(|a, b| a.1.total_cmp(&b.1))?;
        Some((polling.0, woken.0, woken.1, polling.1 / woken.1))
    }
}

#[cfg(test)]
mod tests;
