//! Experiment 3's findings: what a reader should take away from
//! a run, derived from its numbers.

use crate::clock::ClockInfo;
use crate::experiments::Findings;
use crate::experiments::spin_ladder::{
    NS_PER_SPIN_UNIT, SLEEP1_THRESHOLD, SpinLadder, YIELD_THRESHOLD,
};
use crate::findings::Figures;
use crate::key;
use crate::text::{Arg, Phrase};

impl Findings for SpinLadder {
    /// The headline findings of a spin-ladder run, beside the article's.
    fn findings(&self, clock: Option<ClockInfo>) -> Vec<Phrase> {
        let tolerance_ms = Figures::new(clock).tolerance_ms();
        let us = |ms: f64| Arg::Us(ms * 1000.0);
        let late: Vec<f64> = self
            .steps
            .iter()
            .filter(|s| s.count >= SLEEP1_THRESHOLD)
            .map(|s| s.p50_ms)
            .collect();
        // Data made before blocks timed each call alone, so a step shorter
        // than one tick read as 0.
        let timing = if self.steps.iter().any(|s| s.block > 1) {
            Phrase::new(key!("spin_ladder.finding.timed_in_blocks"))
        } else {
            Phrase::new(key!("spin_ladder.finding.timed_alone"))
        }
        .arg("tick", us(tolerance_ms));
        let units = match self.calibration {
            Some(c) => Phrase::new(key!("spin_ladder.finding.calibrated"))
                .phrase("unit", c.describe())
                .arg("target", Arg::Fixed(NS_PER_SPIN_UNIT, 0)),
            None => Phrase::new(key!("spin_ladder.finding.uncalibrated")),
        };
        let mut out = vec![
            Phrase::new(key!("spin_ladder.finding.spins"))
                .arg("spins", us(self.cumulative_ms(0..YIELD_THRESHOLD)))
                .arg(
                    "yields",
                    us(self.cumulative_ms(YIELD_THRESHOLD..SLEEP1_THRESHOLD)),
                )
                .phrase("timing", timing)
                .phrase("units", units),
        ];
        // Where the spins paused: what one hint took beside an empty turn.
        if let (Some(c), Some(bare)) = (self.calibration, self.bare) {
            out.push(
                Phrase::new(key!("spin_ladder.finding.pause"))
                    .arg("pause", Arg::Fixed(c.turn_ns(), 1))
                    .arg("bare", Arg::Fixed(bare.turn_ns(), 1))
                    .count("count", c.turns_per_unit),
            );
        }
        if !late.is_empty() {
            let mean = late.iter().sum::<f64>() / late.len() as f64;
            out.push(Phrase::new(key!("spin_ladder.finding.sleeps")).arg("each", us(mean)));
        }
        for su in &self.spin_until {
            out.push(
                Phrase::new(if su.sleep_stage {
                    key!("spin_ladder.finding.spin_until_sleeping")
                } else {
                    key!("spin_ladder.finding.spin_until_spinning")
                })
                .ms("wall", su.wall_ms)
                .arg("busy", Arg::Fixed(su.busy_fraction() * 100.0, 0))
                .count("calls", su.calls),
            );
        }
        out
    }
}
