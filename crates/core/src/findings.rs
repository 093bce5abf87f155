//! Findings: the few sentences a reader should take away from a run,
//! derived from its numbers (never written in advance).

use crate::chart::format_ms;
use crate::clock::{ClockInfo, RESOLVED_STEPS};
use crate::ladder::{NS_PER_SPIN_UNIT, SLEEP1_THRESHOLD, SpinLadder, YIELD_THRESHOLD};
use crate::number::fixed;
use crate::outcome::Outcome;
use crate::schema::{NestedChain, TimedWaits};
use crate::starvation::{MainStarvation, PoolStarvation};
use crate::stats::Summary;
use crate::timed::{CellKey, Mechanism};
use crate::wake::{Strategy, WakeLatency};

/// The figures of one experiment's findings: each marked ‡ when its
/// clock does not resolve it, and what the mark means said once at the
/// end.
struct Figures {
    clock: Option<ClockInfo>,
    marked: std::cell::Cell<bool>,
}

impl Figures {
    fn new(clock: Option<ClockInfo>) -> Self {
        Self {
            clock,
            marked: std::cell::Cell::new(false),
        }
    }

    /// One step of the clock (a microsecond without one).
    fn tolerance_ms(&self) -> f64 {
        self.clock.map_or(0.001, |c| c.tolerance_ms())
    }

    /// "‡" if the clock does not resolve `figure_ms`, else nothing.
    fn mark(&self, figure_ms: f64) -> &'static str {
        if self.clock.is_some_and(|c| !c.resolves(figure_ms)) {
            self.marked.set(true);
            "‡"
        } else {
            ""
        }
    }

    /// A figure, ms, with its mark.
    fn ms(&self, v: f64) -> String {
        format!("{}{}", format_ms(v), self.mark(v))
    }

    /// The findings, with what ‡ means if a figure was marked.
    fn finish(self, mut out: Vec<String>) -> Vec<String> {
        if let (true, Some(c)) = (self.marked.get(), self.clock) {
            out.push(format!(
                "‡ below this clock's resolution: a figure under {} ms spans fewer than \
                 {RESOLVED_STEPS} steps of {} ms, so it is rounding, not a measurement",
                format_ms(c.resolution_ms()),
                format_ms(c.tolerance_ms())
            ));
        }
        out
    }
}

fn summary(tw: &TimedWaits, mechanism: Mechanism, requested_ms: Option<u32>) -> Option<&Summary> {
    let key = CellKey {
        mechanism,
        requested_ms,
    };
    tw.cells
        .iter()
        .find(|c| c.key == key)
        .and_then(|c| c.outcome.summary())
}

/// The headline findings of a timed-waits run. `tolerance_ms` is one clock
/// step of the run's clock.
pub fn timed_waits(tw: &TimedWaits, clock: Option<ClockInfo>) -> Vec<String> {
    let f = Figures::new(clock);
    let tolerance_ms = f.tolerance_ms();
    let mut out = Vec::new();
    let smallest_timed = tw.config.durations_ms.iter().copied().find(|&d| d > 0);
    if let Some(d) = smallest_timed {
        if let (Some(loop_), Some(fresh)) = (
            summary(tw, Mechanism::TimeoutAwaited, Some(d)),
            summary(tw, Mechanism::TimeoutFreshTask, Some(d)),
        ) {
            let clamped =
                loop_.p50 >= NestedChain::CLAMP_MS - tolerance_ms && fresh.p50 < loop_.p50 - 1.0;
            out.push(if clamped {
                format!(
                    "setTimeout({d}) awaited back to back takes {} ms at the median, {} ms when \
                     started from a fresh task: the 4 ms clamp on nested timers is the web's \
                     counterpart of Task.Delay(1) taking 15.6 ms on Windows",
                    f.ms(loop_.p50),
                    f.ms(fresh.p50)
                )
            } else if f64::from(d) < NestedChain::CLAMP_MS {
                format!(
                    "setTimeout({d}) takes {} ms at the median awaited back to back and {} ms from \
                     a fresh task: this browser does not clamp timers awaited back to back",
                    f.ms(loop_.p50),
                    f.ms(fresh.p50)
                )
            } else {
                format!(
                    "setTimeout({d}) takes {} ms at the median awaited back to back and {} ms from \
                     a fresh task: above 4 ms the nesting clamp makes no difference",
                    f.ms(loop_.p50),
                    f.ms(fresh.p50)
                )
            });
        }
        if let (Some(loop_), Some(fresh)) = (
            summary(tw, Mechanism::WorkerTimeout, Some(d)),
            summary(tw, Mechanism::WorkerTimeoutFreshTask, Some(d)),
        ) && loop_.p50 >= NestedChain::CLAMP_MS - tolerance_ms
            && fresh.p50 < loop_.p50 - 1.0
        {
            out.push(format!(
                "A worker clamps nested timers too: setTimeout({d}) awaited back to back takes \
                 {} ms at the median there, {} ms from a fresh task",
                f.ms(loop_.p50),
                f.ms(fresh.p50)
            ));
        }
        if let Some(sleep) = summary(tw, Mechanism::WorkerAtomicsWait, Some(d)) {
            out.push(format!(
                "Atomics.wait({d}) in a worker, the Thread.Sleep analogue, overshoots by {} ms at \
                 the median and {} ms at p99, but holds its thread for the whole wait",
                f.ms(sleep.overshoot(f64::from(d))),
                f.ms(sleep.p99 - f64::from(d))
            ));
        }
    }
    if let Some(p) = summary(tw, Mechanism::ResolvedPromise, None) {
        out.push(format!(
            "await Promise.resolve() takes {} ms at the median: like Task.Delay(0) it completes \
             at once and never yields to rendering or input",
            f.ms(p.p50)
        ));
    }
    match tw.chain.clamp_onset(tolerance_ms) {
        Some(level) => out.push(format!(
            "A nested setTimeout(0) chain runs at ≥ 4 ms per level from nesting level {level} on"
        )),
        None if !tw.chain.levels.is_empty() => out.push(format!(
            "A nested setTimeout(0) chain stays under 4 ms per level down to level {}: this \
             browser does not clamp nested timers",
            tw.chain.levels.len()
        )),
        None => {}
    }
    let earliest = tw
        .cells
        .iter()
        .filter_map(|c| Some((c.key, c.key.requested_ms?, c.outcome.summary()?)))
        .filter(|(_, d, s)| *d > 0 && s.min < f64::from(*d) - tolerance_ms)
        .max_by(|a, b| (f64::from(a.1) - a.2.min).total_cmp(&(f64::from(b.1) - b.2.min)));
    if let Some((key, d, s)) = earliest {
        out.push(format!(
            "{} returned up to {} ms before the requested {d} ms: this browser fires some timers \
             slightly early",
            key.label(),
            f.ms(f64::from(d) - s.min)
        ));
    }
    let never_fired = tw.cells.iter().find_map(|c| match c.outcome {
        Outcome::TimeoutNeverFired { waited_ms } => Some((c.key, waited_ms)),
        _ => None,
    });
    if let Some((key, waited_ms)) = never_fired {
        out.push(format!(
            "{}: its own timeout never fired in this browser; a fallback timer ended the wait \
             after {} ms",
            key.mechanism.label(),
            f.ms(waited_ms)
        ));
    }
    f.finish(out)
}

/// The headline findings of a main-thread starvation run.
pub fn main_starvation(ms: &MainStarvation, clock: Option<ClockInfo>) -> Vec<String> {
    let f = Figures::new(clock);
    let out = ms
        .runs
        .iter()
        .map(|run| {
            let expected = ms.config.expected_batch_ms(run.mode);
            format!(
                "{} jobs of {} ms, {}: the batch took {} ms (expected {} ms); a setTimeout(0) queued \
                 right after it waited {} ms and a message {} ms; the page went {} ms without a frame",
                ms.config.jobs,
                ms.config.wait_ms,
                run.mode.name(),
                f.ms(run.batch_ms),
                f.ms(expected),
                f.ms(run.timer_queue_wait_ms),
                f.ms(run.message_queue_wait_ms),
                f.ms(run.longest_frame_gap())
            )
        })
        .collect();
    f.finish(out)
}

/// The headline findings of a worker-pool starvation run.
pub fn pool_starvation(ps: &PoolStarvation, clock: Option<ClockInfo>) -> Vec<String> {
    let f = Figures::new(clock);
    let c = &ps.config;
    let out = ps
        .runs
        .iter()
        .map(|run| {
            format!(
                "{} jobs of {} ms on {} workers, {}: the batch took {} ms (the article's model \
                 predicts {} ms); one more job queued behind them waited {} ms to start",
                c.jobs,
                c.wait_ms,
                c.workers,
                run.mode.name(),
                f.ms(run.batch_ms),
                f.ms(c.expected_batch_ms(run.mode)),
                f.ms(run.extra_job_wait_ms)
            )
        })
        .collect();
    f.finish(out)
}

/// The headline findings of a spin-ladder run, beside the article's.
pub fn spin_ladder(l: &SpinLadder, clock: Option<ClockInfo>) -> Vec<String> {
    let tolerance_ms = Figures::new(clock).tolerance_ms();
    let us = |ms: f64| {
        let us = ms * 1000.0;
        if us >= 100.0 {
            format!("{} µs", fixed(us, 0))
        } else {
            format!("{} µs", fixed(us, 1))
        }
    };
    let late: Vec<f64> = l
        .steps
        .iter()
        .filter(|s| s.count >= SLEEP1_THRESHOLD)
        .map(|s| s.p50_ms)
        .collect();
    // Data made before blocks timed each call alone, so a step shorter
    // than one tick read as 0.
    let timing = if l.steps.iter().any(|s| s.block > 1) {
        format!(
            "each step timed in blocks of back-to-back calls, as this clock ticks every {}",
            us(tolerance_ms)
        )
    } else {
        format!(
            "this clock ticks every {}, so a shorter step reads as 0",
            us(tolerance_ms)
        )
    };
    let units = match l.calibration {
        Some(c) => format!(
            "a spin unit calibrated to {} of the busy loop, as .NET calibrates Thread.SpinWait \
             to about {} ns",
            c.describe(),
            fixed(NS_PER_SPIN_UNIT, 0)
        ),
        None => "spin units of eight loop turns, made before units were calibrated, so the \
                 spins do not compare with .NET's"
            .to_owned(),
    };
    let mut out = vec![format!(
        "Steps 0–9 (pure spins) took {} together and steps 10–19 (spins and yields) another {} \
         (the article on .NET: 9.8 µs and 10 µs); {timing}; {units}",
        us(l.cumulative_ms(0..YIELD_THRESHOLD)),
        us(l.cumulative_ms(YIELD_THRESHOLD..SLEEP1_THRESHOLD)),
    )];
    if !late.is_empty() {
        let mean = late.iter().sum::<f64>() / late.len() as f64;
        out.push(format!(
            "From step 20 on every SpinOnce is a 1 ms sleep costing {} on average (the article: \
             about 1,265 µs): past that point a spin-wait is a 1 ms polling loop",
            us(mean)
        ));
    }
    for su in &l.spin_until {
        out.push(format!(
            "A {} ms spin-until {} kept its worker busy {} % of the time over {} SpinOnce calls",
            format_ms(su.wall_ms),
            if su.sleep_stage {
                "with the sleep stage"
            } else {
                "without the sleep stage (pure spin)"
            },
            fixed(su.busy_fraction() * 100.0, 0),
            su.calls
        ));
    }
    out
}

/// The headline findings of a wake-latency run, beside the article's.
pub fn wake_latency(w: &WakeLatency, clock: Option<ClockInfo>) -> Vec<String> {
    let f = Figures::new(clock);
    let mut out = Vec::new();
    let ratios = w.ratios_to_event();
    let event = w
        .results
        .iter()
        .find(|r| r.strategy == Strategy::Event)
        .and_then(|r| r.outcome.summary());
    if let Some(event) = event {
        out.push(format!(
            "Atomics.wait + notify, the event wait, noticed the flag {} ms after it was set (median)",
            f.ms(event.p50)
        ));
        // A ratio is only as resolved as the event wait it divides by.
        let mark = f.mark(event.p50);
        let polls: Vec<String> = ratios
            .iter()
            .filter(|(s, _)| matches!(s, Strategy::SleepPoll | Strategy::TimerPoll))
            .map(|(s, r)| format!("{} {}×{mark}", s.label(), fixed(*r, 0)))
            .collect();
        if !polls.is_empty() {
            out.push(format!(
                "Polling was slower at the median: {} the event wait (the article found event waits \
                 about 50× faster than polling)",
                polls.join(", ")
            ));
        }
    }
    out.push(match w.skew_ms {
        Some(skew) => format!(
            "The two workers' clocks differ by {} ms (averaged over ping-pong exchanges, finer \
             than one clock step, and corrected for)",
            format_ms(skew)
        ),
        None => "The skew between the two workers' clocks could not be measured without shared \
                 memory; times are uncorrected"
            .to_owned(),
    });
    f.finish(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::Cell;
    use crate::timed::TimedWaitsConfig;

    fn measured(v: &[f64]) -> Outcome {
        Outcome::measured(v.to_vec()).unwrap()
    }

    #[test]
    fn starvation_findings_name_every_mode() {
        use crate::starvation::{JobMode, MainConfig, MainRun};
        let run = |mode, batch_ms| MainRun {
            mode,
            batch_ms,
            timer_queue_wait_ms: batch_ms,
            message_queue_wait_ms: 1.0,
            frames_ms: vec![16.0, batch_ms],
        };
        let ms = MainStarvation {
            config: MainConfig::default(),
            runs: vec![run(JobMode::Blocking, 2001.0), run(JobMode::Async, 251.0)],
        };
        let f = main_starvation(&ms, None);
        assert!(
            f[0].contains("blocking: the batch took 2001 ms (expected 2000 ms)"),
            "{}",
            f[0]
        );
        assert!(
            f[1].contains("async") && f[1].contains("235 ms without a frame"),
            "{}",
            f[1]
        );
    }

    #[test]
    fn findings_follow_the_numbers() {
        let cell = |mechanism, requested_ms, outcome| Cell {
            key: CellKey {
                mechanism,
                requested_ms,
            },
            outcome,
        };
        let tw = TimedWaits {
            config: TimedWaitsConfig {
                durations_ms: vec![0, 1],
                ..TimedWaitsConfig::default()
            },
            cells: vec![
                cell(Mechanism::TimeoutAwaited, Some(1), measured(&[4.2])),
                cell(Mechanism::TimeoutFreshTask, Some(1), measured(&[1.1])),
                cell(Mechanism::ResolvedPromise, None, measured(&[0.005])),
                cell(Mechanism::WorkerTimeout, Some(1), measured(&[0.9, 1.1])),
                cell(
                    Mechanism::WorkerWaitAsync,
                    Some(1),
                    Outcome::TimeoutNeverFired { waited_ms: 51.0 },
                ),
            ],
            chain: NestedChain {
                levels: [0.1, 0.1, 4.2, 4.3]
                    .iter()
                    .map(|&v| crate::stats::Samples::new(vec![v]).unwrap().summary())
                    .collect(),
            },
        };
        let clock = ClockInfo {
            min_step_ms: 0.005,
            typical_step_ms: 0.005,
            readings: 100,
        };
        let f = timed_waits(&tw, Some(clock));
        assert_eq!(f.len(), 6, "{f:#?}");
        assert!(f[0].contains("4.20 ms") && f[0].contains("1.10 ms"));
        assert!(f[1].contains("0.005‡ ms"), "one clock step is marked");
        assert!(f[5].starts_with("‡ below this clock's resolution: a figure under 0.1 ms"));
        assert!(f[2].contains("level 3"));
        assert!(
            f[3].contains("setTimeout(1) in a worker, back to back returned up to 0.1‡ ms before")
        );
        assert!(f[4].contains("51.0 ms"));
    }
}
