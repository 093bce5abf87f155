//! Experiment 4's lesson: signal, don't poll; and the longest wait worth
//! spinning for on this machine, which the spin ladder's lesson quotes.

use super::WakeLatency;
use crate::clock::ClockInfo;
use crate::key;
use crate::lesson::{Article, Pair, Reading, least, lessons};
use crate::text::Phrase;

lessons! {
    WakeLatency {
        /// Signal, don't poll.
        SIGNAL_DONT_POLL = "signal_dont_poll", Article::Ratio("wake_event_ratio") => signal_dont_poll;
    }
}

/// The pair of [`pair`], as the lesson reads it.
fn signal_dont_poll(wake: &WakeLatency, _clock: Option<ClockInfo>) -> Option<Reading> {
    pair(wake).map(Reading::Pair)
}

/// The quickest polling way's median against the quickest signalled
/// one's. Polling here is the article's: a sleep or a timer between
/// checks (a pure spin is the spin ladder's lesson).
fn pair(wake: &WakeLatency) -> Option<Pair> {
    let p50 = |polls: bool| {
        least(wake.results.iter().filter_map(|r| {
            (r.strategy.polls() == polls && !r.strategy.spins()).then(|| r.outcome.p50())?
        }))
    };
    Some(Pair::ms(p50(true)?, p50(false)?))
}

impl WakeLatency {
    /// The spin-vs-wake crossover on this machine, read with `clock`: a
    /// signalled wake-up's median, the longest wait worth spinning for.
    pub fn crossover(&self, clock: Option<ClockInfo>) -> Option<Phrase> {
        let pair = pair(self)?;
        Some(Phrase::new(key!("recipe.crossover")).arg("wake", pair.figure(pair.right, clock)))
    }
}
