//! Experiment 9's lesson: hand work off through a channel, not a polled
//! queue.

use super::ProducerConsumer;
use crate::clock::ClockInfo;
use crate::lesson::{Article, Pair, Reading, lessons};

lessons! {
    ProducerConsumer {
        /// Hand work off through a channel, not a polled queue.
        HAND_OFF_CHANNEL = "hand_off_channel", Article::Nothing => hand_off_channel;
    }
}

/// The polled ring's latency against the woken one's.
fn hand_off_channel(handoff: &ProducerConsumer, _clock: Option<ClockInfo>) -> Option<Reading> {
    let (_, _, woken, times) = handoff.polling_ratio()?;
    Some(Reading::Pair(Pair::ms(woken * times, woken)))
}
