//! The clock experiment (E5): how fine is the timer every other number
//! depends on?
//!
//! The page (or the native probe) reads its clock many times in a tight
//! loop; this module turns those readings into the smallest and the typical
//! non-zero step. Browsers coarsen `performance.now()` on purpose (5 µs when
//! cross-origin isolated, 100 µs or 1 ms otherwise), so a delay below one
//! step cannot be told from zero.

use crate::stats::Samples;
use serde::{Deserialize, Serialize};

/// How many clock steps a figure must span to count as measured: below
/// that, one step of rounding is more than 5 % of it.
pub const RESOLVED_STEPS: f64 = 20.0;

/// Measured granularity of a clock, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ClockInfo {
    /// Smallest non-zero difference between consecutive readings.
    pub min_step_ms: f64,
    /// Median non-zero difference between consecutive readings.
    pub typical_step_ms: f64,
    /// Number of readings taken.
    pub readings: u32,
}

impl ClockInfo {
    /// Derives the granularity from consecutive clock readings (ms).
    /// Returns `None` when the clock never moved.
    pub fn from_readings(readings: &[f64]) -> Option<ClockInfo> {
        let steps: Vec<f64> = readings
            .windows(2)
            .map(|w| w[1] - w[0])
            .filter(|d| d.is_finite() && *d > 0.0)
            .collect();
        // Sorted as samples are (one sort in the wasm, not two).
        let steps = Samples::new(steps).ok()?;
        let steps = steps.sorted();
        Some(ClockInfo {
            min_step_ms: steps[0],
            typical_step_ms: steps[steps.len() / 2],
            readings: readings.len() as u32,
        })
    }

    /// The tolerance every timing invariant allows: one clock step, and at
    /// least a microsecond for float noise.
    pub fn tolerance_ms(&self) -> f64 {
        self.typical_step_ms.max(self.min_step_ms).max(0.001)
    }

    /// The smallest figure this clock measures: [`RESOLVED_STEPS`] steps.
    pub fn resolution_ms(&self) -> f64 {
        RESOLVED_STEPS * self.tolerance_ms()
    }

    /// Whether `value_ms` spans enough steps to count as measured.
    pub fn resolves(&self, value_ms: f64) -> bool {
        value_ms.abs() >= self.resolution_ms()
    }
}

/// A time between two threads' stamps, ms: the raw difference of their
/// clocks corrected by the `skew` between them ([`skew_ms`]), never below
/// zero, since what is measured (a wake-up, a handoff, the time a wait
/// ran on after its cancel) cannot end before it began; two clocks' steps,
/// or a skew not measured, can put a difference below it.
pub fn corrected_ms(raw_ms: f64, skew_ms: f64) -> f64 {
    (raw_ms + skew_ms).max(0.0)
}

/// Clock skew between two threads from ping-pong exchanges, NTP style: for
/// each exchange `(a_send, b_recv, b_send, a_recv)`, stamped on A's and B's
/// clocks, B's clock is ahead of A's by
/// `((b_recv - a_send) + (b_send - a_recv)) / 2`. As NTP's clock filter
/// does, only the quarter of exchanges with the shortest round trip count
/// (queueing delays make the others asymmetric), and their offsets are
/// averaged, which resolves skews finer than one clock step. Returns 0
/// without exchanges.
pub fn skew_ms(exchanges: &[[f64; 4]]) -> f64 {
    let mut by_round_trip: Vec<(f64, f64)> = exchanges
        .iter()
        .map(|[a_send, b_recv, b_send, a_recv]| {
            (
                (a_recv - a_send) - (b_send - b_recv),
                ((b_recv - a_send) + (b_send - a_recv)) / 2.0,
            )
        })
        .filter(|(rtt, offset)| rtt.is_finite() && offset.is_finite())
        .collect();
    if by_round_trip.is_empty() {
        return 0.0;
    }
    by_round_trip.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    let best = &by_round_trip[..by_round_trip.len().div_ceil(4)];
    best.iter().map(|(_, offset)| offset).sum::<f64>() / best.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_ignore_repeats() {
        let r = [0.0, 0.0, 0.1, 0.1, 0.2, 0.2, 0.2, 0.4, 0.5];
        let c = ClockInfo::from_readings(&r).unwrap();
        assert!((c.min_step_ms - 0.1).abs() < 1e-9);
        assert!((c.typical_step_ms - 0.1).abs() < 1e-9);
        assert_eq!(c.readings, 9);
        assert_eq!(ClockInfo::from_readings(&[1.0, 1.0]), None);
        assert_eq!(ClockInfo::from_readings(&[]), None);
    }

    #[test]
    fn twenty_steps_resolve_a_figure() {
        let c = ClockInfo {
            min_step_ms: 0.005,
            typical_step_ms: 0.005,
            readings: 100,
        };
        assert!((c.resolution_ms() - 0.1).abs() < 1e-12);
        assert!(c.resolves(0.1) && c.resolves(-0.2));
        assert!(!c.resolves(0.025), "five steps is not a measurement");
    }

    #[test]
    fn skew_from_symmetric_exchanges() {
        // B is 5 ms ahead; one-way latency 0.1 ms each direction.
        let ex = [
            [0.0, 5.1, 5.2, 0.3],
            [10.0, 15.1, 15.1, 10.2],
            [20.0, 25.3, 25.4, 20.7],
        ];
        assert!((skew_ms(&ex) - 5.0).abs() < 1e-9);
        assert_eq!(skew_ms(&[]), 0.0);
    }
}
