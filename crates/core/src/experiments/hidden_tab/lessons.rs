//! Experiment 10's lesson: periodic work that must keep time while the
//! page is hidden runs in a worker (or schedules from the clock), and the
//! page's own timers must be expected to stop.

use super::HiddenTab;
use crate::clock::ClockInfo;
use crate::lesson::{Article, Pair, Reading, least, lessons};

lessons! {
    HiddenTab {
        /// Keep time in a worker: a hidden page's timers are throttled.
        KEEP_TIME_HIDDEN = "keep_time_hidden", Article::Nothing => keep_time_hidden;
    }
}

/// The least hidden median of the page's own timers against the least of
/// a worker's ways, once the page was hidden long enough to read.
fn keep_time_hidden(hidden: &HiddenTab, _clock: Option<ClockInfo>) -> Option<Reading> {
    if !hidden.hidden_enough() {
        return None;
    }
    let median = |page: bool| {
        least(hidden.results.iter().filter_map(|r| {
            let ours = if page {
                r.way.page_timer()
            } else {
                r.way.in_worker()
            };
            ours.then(|| r.hidden.p50())?
        }))
    };
    Some(Reading::Pair(Pair::ms(median(true)?, median(false)?)))
}
