//! Experiment 3: .NET's `SpinWait` escalation ladder, step by step.
//!
//! `SpinWait.SpinOnce` spins for the first `YIELD_THRESHOLD` calls (each
//! spin twice as long as the last, capped), then alternates spinning with
//! yielding (every `SLEEP0_EVERY_HOW_MANY_YIELDS`-th yield a `Sleep(0)`),
//! and from `SLEEP1_THRESHOLD` on sleeps 1 ms per call. In the browser a
//! worker has no yield of its own: `Atomics.wait(…, 0)` plays both yield and
//! `Sleep(0)`, and `Atomics.wait(…, 1)` plays `Sleep(1)`.
//!
//! A spin is turns of a loop, calibrated to .NET's 37 ns units. .NET's
//! `Thread.SpinWait(n)` issues the CPU's pause instruction in each turn; so
//! does the native probe (`std::hint::spin_loop()`), and so does the browser
//! where it has `Atomics.pause()`, the web's spin hint ([`Turn::Pause`]),
//! whose empty loop is then calibrated beside it ([`SpinLadder::bare`]).

use crate::experiments::Config;
use crate::experiments::config::config;
use crate::key;
use crate::text::{Arg, Phrase};
use serde::{Deserialize, Serialize};

mod description;
mod findings;
pub mod job;
pub mod lessons;
mod link;

/// .NET `SpinWait.YieldThreshold`.
pub const YIELD_THRESHOLD: u32 = 10;
/// .NET `SpinWait.Sleep0EveryHowManyYields`.
pub const SLEEP0_EVERY_HOW_MANY_YIELDS: u32 = 5;
/// .NET `SpinWait.DefaultSleep1Threshold`.
pub const SLEEP1_THRESHOLD: u32 = 20;
/// How long one spin unit lasts, ns. .NET calibrates `Thread.SpinWait` at
/// start-up so that one of its iterations (a "normalized yield") takes at
/// least this long (coreclr's `MinNsPerNormalizedYield`); the browser and
/// the native probe calibrate their busy loop to the same length, so a
/// spin of n units means the same time in every column.
pub const NS_PER_SPIN_UNIT: f64 = 37.0;
/// The longest spin of one call, ns: .NET caps a spin at the units that
/// last this long (coreclr's `TargetMaxNsPerSpinIteration`, which makes
/// `Thread.OptimalMaxSpinWaitsPerSpinIteration` 7 for a 37 ns unit).
pub const MAX_NS_PER_SPIN: f64 = 272.0;
/// The cap of data made before units were calibrated: units of eight
/// loop turns, up to 512 a call.
pub const UNCALIBRATED_MAX_SPIN_UNITS: u32 = 1 << 9;

/// What one `SpinOnce` call does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Step {
    /// Busy-wait for this many spin units.
    Spin {
        /// Spin units.
        units: u32,
    },
    /// Give up the rest of the time slice (`Thread.Yield`).
    Yield,
    /// `Thread.Sleep(0)`.
    Sleep0,
    /// `Thread.Sleep(1)`.
    Sleep1,
}

impl Step {
    /// The phase the step belongs to, for colouring charts.
    pub fn phase(self) -> &'static str {
        match self {
            Step::Spin { .. } => "spin",
            Step::Yield | Step::Sleep0 => "yield",
            Step::Sleep1 => "sleep",
        }
    }

    /// The page's name for the phase.
    pub fn phase_label(self) -> Phrase {
        Phrase::new(match self {
            Step::Spin { .. } => key!("phase.spin"),
            Step::Yield | Step::Sleep0 => key!("phase.yield"),
            Step::Sleep1 => key!("phase.sleep"),
        })
    }
}

/// The step `SpinOnce` takes on call number `count` (0-based), its spins
/// capped at `max_units` ([`SpinCalibration::max_units`], or
/// [`UNCALIBRATED_MAX_SPIN_UNITS`] for data made before calibration).
/// `sleep1_threshold` of `None` disables the `Sleep(1)` stage, as
/// `SpinOnce(sleep1Threshold: -1)` does.
pub fn step(count: u32, sleep1_threshold: Option<u32>, max_units: u32) -> Step {
    let sleeps = sleep1_threshold.is_some_and(|t| count >= t);
    let yields =
        count >= YIELD_THRESHOLD && (sleeps || (count - YIELD_THRESHOLD).is_multiple_of(2));
    if !yields {
        return Step::Spin {
            units: if count < 31 {
                (1u32 << count).min(max_units)
            } else {
                max_units
            },
        };
    }
    if sleeps {
        return Step::Sleep1;
    }
    let yields_so_far = (count - YIELD_THRESHOLD) / 2;
    if yields_so_far % SLEEP0_EVERY_HOW_MANY_YIELDS == SLEEP0_EVERY_HOW_MANY_YIELDS - 1 {
        Step::Sleep0
    } else {
        Step::Yield
    }
}

config! {
    /// Configuration of experiment 3.
    pub struct LadderConfig {
        /// `SpinOnce` calls per ladder.
        steps: u32 = 30, link(200);
        /// Ladders measured (each step's cost is the median over them).
        repeats: u32 = 20,
            quick(3) form("repeats", "ladders", "spin_ladder.ladders", 1, 200) link(200);
        /// Length of each spin-until run, ms.
        spin_until_ms: u32 = 200,
            quick(50) form("spin-until", "spin_until", "spin_ladder.spin_until", 1, 5000)
            link(5000);
    }
    check: |_| Ok(()),
    // Each ladder sleeps 1 ms per step from step 20 on, then two
    // spin-untils.
    estimate: |c| {
        let sleeps = c.steps.saturating_sub(SLEEP1_THRESHOLD);
        f64::from(c.repeats * sleeps) * 1.1 + 2.0 * f64::from(c.spin_until_ms)
    },
    hint: |c| Phrase::new(key!("spin_ladder.hint")).ms("seconds", c.estimated_ms() / 1000.0),
}

impl LadderConfig {
    /// The longest a healthy run takes, ms: twice the estimate (a busy
    /// machine stretches sleeps) plus half a second for the spins and yields.
    pub fn longest_ms(&self) -> u32 {
        (2.0 * self.estimated_ms()).min(f64::from(u32::MAX / 2)) as u32 + 500
    }
}

/// Measured cost of one step of the ladder.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct StepCost {
    /// The call number.
    pub count: u32,
    /// What it did.
    pub step: Step,
    /// Median cost of one call over the repeats, ms.
    pub p50_ms: f64,
    /// Largest cost of one call, ms.
    pub max_ms: f64,
    /// Calls timed together, back to back, as one block whose time is
    /// divided by them: enough that a block spans 20 clock steps, so a
    /// call far shorter than one step is still measured (1 for data made
    /// before blocks, which timed each call alone).
    #[serde(default = "one_call")]
    pub block: u32,
}

fn one_call() -> u32 {
    1
}

/// A spin-until: `SpinOnce` in a loop until a deadline.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SpinUntil {
    /// Whether the `Sleep(1)` stage was enabled (.NET's default) or
    /// disabled (`sleep1Threshold: -1`, a pure spin).
    pub sleep_stage: bool,
    /// Wall time, ms.
    pub wall_ms: f64,
    /// Time spent busy (everything but `Sleep(1)`), ms.
    pub busy_ms: f64,
    /// `SpinOnce` calls made.
    pub calls: u32,
}

impl SpinUntil {
    /// Fraction of the wall time the worker spent busy.
    pub fn busy_fraction(&self) -> f64 {
        if self.wall_ms > 0.0 {
            (self.busy_ms / self.wall_ms).min(1.0)
        } else {
            0.0
        }
    }
}

/// Results of experiment 3.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpinLadder {
    /// The configuration that was run.
    pub config: LadderConfig,
    /// One entry per step.
    pub steps: Vec<StepCost>,
    /// The spin-until runs: with the sleep stage, then without.
    pub spin_until: Vec<SpinUntil>,
    /// How the spin unit was calibrated (`None` for data made before
    /// calibration, whose units were eight loop turns each).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calibration: Option<SpinCalibration>,
    /// Where the spins paused ([`Turn::Pause`]), the empty loop's
    /// calibration, measured beside it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bare: Option<SpinCalibration>,
}

/// The busy loop's calibration: how many turns make one spin unit of
/// [`NS_PER_SPIN_UNIT`], as measured on the thread that spins.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SpinCalibration {
    /// Loop turns per spin unit.
    pub turns_per_unit: u32,
    /// What one unit of that many turns took when calibrated, ns.
    pub unit_ns: f64,
    /// What one turn does (an empty turn for data made before hints).
    #[serde(default)]
    pub turn: Turn,
}

/// What one turn of the spin loop does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Turn {
    /// `std::hint::spin_loop()`: the CPU's pause instruction natively,
    /// nothing in wasm (an empty turn).
    #[default]
    Loop,
    /// One `Atomics.pause()`, the browser's spin hint.
    Pause,
}

impl SpinCalibration {
    /// The spin cap per call, in units: .NET's
    /// `OptimalMaxSpinWaitsPerSpinIteration`, the units nearest to
    /// [`MAX_NS_PER_SPIN`] (at least one).
    pub fn max_units(&self) -> u32 {
        if self.unit_ns > 0.0 {
            (MAX_NS_PER_SPIN / self.unit_ns).round().max(1.0) as u32
        } else {
            1
        }
    }

    /// "3 loop turns, 37 ns" (or "3 Atomics.pause() calls, 37 ns").
    pub fn describe(&self) -> Phrase {
        Phrase::new(match self.turn {
            Turn::Loop => key!("spin_ladder.unit"),
            Turn::Pause => key!("spin_ladder.unit_paused"),
        })
        .count("count", self.turns_per_unit)
        .arg("ns", Arg::Fixed(self.unit_ns, 0))
    }

    /// What one turn took, ns.
    pub fn turn_ns(&self) -> f64 {
        self.unit_ns / f64::from(self.turns_per_unit.max(1))
    }
}

impl SpinLadder {
    /// Total p50 cost of the steps in `range` of call numbers, ms.
    pub fn cumulative_ms(&self, range: std::ops::Range<u32>) -> f64 {
        self.steps
            .iter()
            .filter(|s| range.contains(&s.count))
            .map(|s| s.p50_ms)
            .sum()
    }
}

impl SpinLadder {
    /// Assembles the result from per-call costs (`costs[c]` over repeats,
    /// each the time of a block of `blocks[c]` calls divided by them).
    pub fn from_costs(
        config: LadderConfig,
        costs: &[Vec<f64>],
        blocks: &[u32],
        spin_until: Vec<SpinUntil>,
        calibration: Option<SpinCalibration>,
        bare: Option<SpinCalibration>,
    ) -> Self {
        let cap = calibration.map_or(UNCALIBRATED_MAX_SPIN_UNITS, |c| c.max_units());
        let steps = costs
            .iter()
            .zip(blocks)
            .enumerate()
            .filter_map(|(c, (v, &block))| {
                let samples = crate::stats::Samples::new(v.clone()).ok()?;
                Some(StepCost {
                    count: c as u32,
                    step: step(c as u32, Some(SLEEP1_THRESHOLD), cap),
                    p50_ms: samples.quantile(0.5),
                    max_ms: samples.max(),
                    block,
                })
            })
            .collect();
        Self {
            config,
            steps,
            spin_until,
            calibration,
            bare,
        }
    }
}

/// The spin hint a turn issues where the thread has one of its own
/// (`Atomics.pause()` in a browser worker); without, each turn is
/// `std::hint::spin_loop()`.
pub type Hint<'a> = Option<&'a dyn Fn()>;

/// Busy-waits `turns` turns of the loop every spin is made of, each
/// issuing `hint`. Never inlined: the calibration and the ladder run this
/// same function, so an engine that compiles it in tiers runs the same
/// code in both once warm.
#[inline(never)]
fn spin_turns(turns: u64, hint: Hint<'_>) {
    match hint {
        Some(pause) => (0..turns).for_each(|_| pause()),
        None => {
            for i in 0..turns {
                std::hint::black_box(i);
                std::hint::spin_loop();
            }
        }
    }
}

/// Busy-waits `units` calibrated spin units, as `Thread.SpinWait(n)` does,
/// each turn issuing `hint` (the one it was calibrated with).
pub fn spin(units: u32, calibration: SpinCalibration, hint: Hint<'_>) {
    spin_turns(
        u64::from(units) * u64::from(calibration.turns_per_unit),
        hint,
    );
}

/// The most loop turns a calibration block may hold.
const MAX_CALIBRATION_TURNS: u64 = 1 << 30;
/// The most turns a unit may take (for a clock that never moved).
const MAX_TURNS_PER_UNIT: u32 = 1 << 16;
/// How long the calibration keeps timing blocks, ms.
const CALIBRATION_MS: f64 = 20.0;

/// Calibrates the spin unit on this thread, as .NET's runtime does for
/// `Thread.SpinWait`: runs the loop for 20 ms to warm it
/// (wasm engines start a function in a baseline compiler and swap in
/// optimised code between calls, several times faster for this loop),
/// then times five blocks of loop turns, each spanning `resolution_ms`
/// (20 clock steps of `now`; a block that comes out shorter is doubled
/// and the five start again), and from the shortest (the least
/// interrupted) sets the turns that make [`NS_PER_SPIN_UNIT`]. Each turn
/// issues `hint`.
pub fn calibrate(now: &dyn Fn() -> f64, resolution_ms: f64, hint: Hint<'_>) -> SpinCalibration {
    let mut turns: u64 = 64;
    let time = |turns| {
        let t = now();
        spin_turns(turns, hint);
        now() - t
    };
    // A block shorter than the resolution is doubled; below the cap on
    // turns, a clock that never moves ends the loops too.
    let too_short = |took: f64, turns: u64| took < resolution_ms && turns < MAX_CALIBRATION_TURNS;
    let start = now();
    for _ in 0..1000 {
        if too_short(time(turns), turns) {
            turns *= 2;
        } else if now() - start >= CALIBRATION_MS {
            break;
        }
    }
    let (mut best, mut blocks) = (f64::INFINITY, 0);
    while blocks < 5 {
        let took = time(turns);
        if too_short(took, turns) {
            (turns, best, blocks) = (turns * 2, f64::INFINITY, 0);
        } else {
            (best, blocks) = (best.min(took), blocks + 1);
        }
    }
    let ns_per_turn = best.max(0.0) * 1e6 / turns as f64;
    let turns_per_unit = if ns_per_turn > 0.0 {
        (NS_PER_SPIN_UNIT / ns_per_turn)
            .round()
            .clamp(1.0, f64::from(MAX_TURNS_PER_UNIT)) as u32
    } else {
        MAX_TURNS_PER_UNIT
    };
    SpinCalibration {
        turns_per_unit,
        unit_ns: ns_per_turn * f64::from(turns_per_unit),
        turn: if hint.is_some() {
            Turn::Pause
        } else {
            Turn::Loop
        },
    }
}

/// The most calls one block may hold.
pub const MAX_BLOCK: u32 = 1 << 20;

/// Times `s` as a block of `*calls` back-to-back calls, doubling `*calls`
/// until a block spans `resolution_ms` (20 clock steps) or holds
/// [`MAX_BLOCK`] calls; returns the time of one call, ms.
fn time_block<E>(
    s: Step,
    calls: &mut u32,
    resolution_ms: f64,
    now: &dyn Fn() -> f64,
    perform: &dyn Fn(Step) -> Result<(), E>,
) -> Result<f64, E> {
    loop {
        let t = now();
        for _ in 0..*calls {
            perform(s)?;
        }
        let took = now() - t;
        if took >= resolution_ms || *calls >= MAX_BLOCK {
            return Ok(took / f64::from(*calls));
        }
        *calls = (*calls * 2).min(MAX_BLOCK);
    }
}

/// Walks the ladder `config.repeats` times and runs the two spin-untils
/// (with the `Sleep(1)` stage, then without), timing with `now` (ms). The
/// spins are this module's busy loop, each turn issuing `hint`,
/// calibrated first ([`calibrate`]; with a hint, the empty loop too);
/// `perform` does the other steps: the browser worker and the native
/// probe bring their own clock, their own yield and sleep, and the
/// browser its spin hint.
///
/// A step far shorter than one clock step cannot be timed alone: each is
/// first given a block size, the calls it takes to span `resolution_ms`
/// (20 steps of `now`), and then timed as a block of that many calls,
/// divided by them; a block that comes out shorter is doubled and timed
/// again, so every recorded block spans the resolution.
pub fn measure<E>(
    config: &LadderConfig,
    now: &dyn Fn() -> f64,
    resolution_ms: f64,
    perform: &dyn Fn(Step) -> Result<(), E>,
    hint: Hint<'_>,
) -> Result<SpinLadder, E> {
    let bare = hint.map(|_| calibrate(now, resolution_ms, None));
    let calibration = calibrate(now, resolution_ms, hint);
    let cap = calibration.max_units();
    let perform = &|s: Step| match s {
        Step::Spin { units } => {
            spin(units, calibration, hint);
            Ok(())
        }
        other => perform(other),
    };
    // Each step's block starts at the calls it takes to span the
    // resolution; code runs faster once the engine has optimised it, so a
    // block that later comes out too short is doubled and timed again.
    let mut blocks = (0..config.steps)
        .map(|count| {
            let mut calls = 1;
            time_block(
                step(count, Some(SLEEP1_THRESHOLD), cap),
                &mut calls,
                resolution_ms,
                now,
                perform,
            )
            .map(|_| calls)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut costs = vec![Vec::with_capacity(config.repeats as usize); config.steps as usize];
    for _ in 0..config.repeats {
        for (count, (cost, calls)) in costs.iter_mut().zip(&mut blocks).enumerate() {
            let s = step(count as u32, Some(SLEEP1_THRESHOLD), cap);
            cost.push(time_block(s, calls, resolution_ms, now, perform)?);
        }
    }
    let spin_until = [true, false]
        .into_iter()
        .map(|sleep_stage| spin_until(config.spin_until_ms, sleep_stage, cap, now, perform))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(SpinLadder::from_costs(
        config.clone(),
        &costs,
        &blocks,
        spin_until,
        Some(calibration),
        bare,
    ))
}

/// `SpinOnce` in a loop until `ms` have passed; time in `Sleep(1)` steps
/// counts as idle, everything else as busy.
fn spin_until<E>(
    ms: u32,
    sleep_stage: bool,
    max_units: u32,
    now: &dyn Fn() -> f64,
    perform: &dyn Fn(Step) -> Result<(), E>,
) -> Result<SpinUntil, E> {
    let threshold = sleep_stage.then_some(SLEEP1_THRESHOLD);
    let (start, mut idle, mut calls) = (now(), 0.0, 0);
    while now() - start < f64::from(ms) {
        let s = step(calls, threshold, max_units);
        let t = now();
        perform(s)?;
        if s == Step::Sleep1 {
            idle += now() - t;
        }
        calls += 1;
    }
    let wall_ms = now() - start;
    Ok(SpinUntil {
        sleep_stage,
        wall_ms,
        busy_ms: wall_ms - idle,
        calls,
    })
}

#[cfg(test)]
mod tests;
