//! Experiment 9's lesson: hand work off through a channel, not a polled
//! queue.

use super::ProducerConsumer;
use crate::lesson::{Article, Pair, Reading, Taught};

/// Hand work off through a channel, not a polled queue.
pub const HAND_OFF_CHANNEL: &str = "hand_off_channel";

pub(super) const LESSONS: &[Taught] = &[Taught {
    id: HAND_OFF_CHANNEL,
    article: Article::Nothing,
}];

/// The polled ring's latency against the woken one's.
pub(super) fn reading(handoff: &ProducerConsumer, lesson: &str) -> Option<Reading> {
    if lesson != HAND_OFF_CHANNEL {
        return None;
    }
    let (_, _, woken, times) = handoff.polling_ratio()?;
    Some(Reading::Pair(Pair::ms(woken * times, woken)))
}
