//! Experiment 9's worker jobs: the producer's items and the consumer's.
//! The producer answers with the pair's `SetterDone`, the consumer with
//! its raw times (a `Reply` of [`RawChannelRun`]).

use super::{Channel, ProducerConsumerConfig, RING_CAPACITY, RawChannelRun};
use crate::bytes::{Damaged, Reader};
use crate::protocol::job::{Job, ROUND_MS, message};

/// One side of a producer/consumer pair.
#[derive(Debug, Clone, PartialEq)]
pub enum ChannelJob {
    /// The producer: after the consumer's go, each paced item after its
    /// pause (busy), then `burst` items back to back, by `channel`.
    Produce {
        /// How the items travel.
        channel: Channel,
        /// The pause before each paced item, µs.
        gaps_us: Vec<u32>,
        /// Items sent back to back after them.
        burst: u32,
    },
    /// The consumer: take `items` paced items and then `burst` items by
    /// `channel`.
    Consume {
        /// How the items travel.
        channel: Channel,
        /// Paced items.
        items: u32,
        /// Items of the burst.
        burst: u32,
    },
}

/// The longest pause between paced items the page asks for, µs.
const MAX_GAP_US: u32 = ProducerConsumerConfig::MAX_GAP_MS * 1500;

/// How long a run may keep a side busy, ms: its pauses (`gaps_us` in
/// all), a round's slack for each polled ring full of the burst, and the
/// start.
fn busy_ms(gaps_us: u32, burst: u32) -> u32 {
    (gaps_us / 1000)
        .saturating_add((burst / RING_CAPACITY + 1).saturating_mul(ROUND_MS))
        .saturating_add(1000)
}

/// The burst, within what the page asks for.
fn read_burst(r: &mut Reader) -> Result<u32, Damaged> {
    r.upto(u64::from(ProducerConsumerConfig::MAX_BURST))
}

/// The paced items, within what the page asks for.
fn read_paced(r: &mut Reader) -> Result<u32, Damaged> {
    r.upto(u64::from(ProducerConsumerConfig::MAX_ITEMS))
}

message! {
    enum ChannelJob else "an unknown side" {
        0 => Produce { channel, gaps_us, burst = read_burst },
        1 => Consume { channel, items = read_paced, burst = read_burst },
    }
}

impl Job for ChannelJob {
    const OF: &'static str = "producer_consumer";

    /// Both sides are busy for the whole run: the pauses, then a burst
    /// that a polled ring takes a clamped poll per ring full.
    fn longest_silence_ms(&self) -> u32 {
        match self {
            ChannelJob::Produce { gaps_us, burst, .. } => {
                busy_ms(gaps_us.iter().fold(0, |a, &g| a.saturating_add(g)), *burst)
            }
            ChannelJob::Consume { items, burst, .. } => {
                busy_ms(items.saturating_mul(MAX_GAP_US), *burst)
            }
        }
    }
}

message! {
    struct RawChannelRun { latencies_ms, burst_ms }
}
