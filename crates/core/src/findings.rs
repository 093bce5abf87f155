//! Findings: the few statements a reader should take away from a run,
//! derived from its numbers (never written in advance). Each is a
//! [`Phrase`]: which finding and its figures; the page words it in the
//! reader's language (`finding.*` in the catalogs).

use crate::clock::{ClockInfo, RESOLVED_STEPS};
use crate::experiments::cancel_waits::CancelWaits;
use crate::experiments::concurrency_limit::ConcurrencyLimit;
use crate::experiments::main_starvation::MainStarvation;
use crate::experiments::periodic_work::{PeriodicResult, PeriodicWork, Scheduler};
use crate::experiments::pool_starvation::PoolStarvation;
use crate::experiments::producer_consumer::Handoff;
use crate::experiments::spin_ladder::{
    NS_PER_SPIN_UNIT, SLEEP1_THRESHOLD, SpinLadder, YIELD_THRESHOLD,
};
use crate::experiments::timed_waits::{CellKey, Mechanism};
use crate::experiments::wake_latency::{Strategy, WakeLatency};
use crate::key;
use crate::outcome::Outcome;
use crate::schema::{NestedChain, TimedWaits};
use crate::stats::Summary;
use crate::text::{Arg, Phrase};

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

    /// Whether the clock does not resolve `figure_ms` (and the note on ‡
    /// is then due).
    fn unresolved(&self, figure_ms: f64) -> bool {
        let marked = self.clock.is_some_and(|c| !c.resolves(figure_ms));
        if marked {
            self.marked.set(true);
        }
        marked
    }

    /// A figure, ms, marked if the clock does not resolve it.
    fn ms(&self, value: f64) -> Arg {
        Arg::Ms {
            value,
            marked: self.unresolved(value),
        }
    }

    /// The findings, with what ‡ means if a figure was marked.
    fn finish(self, mut out: Vec<Phrase>) -> Vec<Phrase> {
        if let (true, Some(c)) = (self.marked.get(), self.clock) {
            out.push(
                Phrase::new(key!("finding.clock_note"))
                    .ms("resolution", c.resolution_ms())
                    .count("steps", RESOLVED_STEPS as u64)
                    .ms("step", c.tolerance_ms()),
            );
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

/// The headline findings of a timed-waits run.
pub fn timed_waits(tw: &TimedWaits, clock: Option<ClockInfo>) -> Vec<Phrase> {
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
            let key = if clamped {
                key!("finding.timed.clamped")
            } else if f64::from(d) < NestedChain::CLAMP_MS {
                key!("finding.timed.not_clamped")
            } else {
                key!("finding.timed.above_clamp")
            };
            out.push(
                Phrase::new(key)
                    .digits("d", d)
                    .arg("loop", f.ms(loop_.p50))
                    .arg("fresh", f.ms(fresh.p50)),
            );
        }
        if let (Some(loop_), Some(fresh)) = (
            summary(tw, Mechanism::WorkerTimeout, Some(d)),
            summary(tw, Mechanism::WorkerTimeoutFreshTask, Some(d)),
        ) && loop_.p50 >= NestedChain::CLAMP_MS - tolerance_ms
            && fresh.p50 < loop_.p50 - 1.0
        {
            out.push(
                Phrase::new(key!("finding.timed.worker_clamped"))
                    .digits("d", d)
                    .arg("loop", f.ms(loop_.p50))
                    .arg("fresh", f.ms(fresh.p50)),
            );
        }
        if let Some(sleep) = summary(tw, Mechanism::WorkerAtomicsWait, Some(d)) {
            out.push(
                Phrase::new(key!("finding.timed.worker_sleep"))
                    .digits("d", d)
                    .arg("p50", f.ms(sleep.overshoot(f64::from(d))))
                    .arg("p99", f.ms(sleep.p99 - f64::from(d))),
            );
        }
    }
    if let Some(p) = summary(tw, Mechanism::ResolvedPromise, None) {
        out.push(Phrase::new(key!("finding.timed.resolved_promise")).arg("p50", f.ms(p.p50)));
    }
    match tw.chain.clamp_onset(tolerance_ms) {
        Some(level) => {
            out.push(Phrase::new(key!("finding.timed.chain_clamped")).count("level", level))
        }
        None if !tw.chain.levels.is_empty() => out.push(
            Phrase::new(key!("finding.timed.chain_unclamped"))
                .count("levels", tw.chain.levels.len() as u64),
        ),
        None => {}
    }
    let earliest = tw
        .cells
        .iter()
        .filter_map(|c| Some((c.key, c.key.requested_ms?, c.outcome.summary()?)))
        .filter(|(_, d, s)| *d > 0 && s.min < f64::from(*d) - tolerance_ms)
        .max_by(|a, b| (f64::from(a.1) - a.2.min).total_cmp(&(f64::from(b.1) - b.2.min)));
    if let Some((key, d, s)) = earliest {
        out.push(
            Phrase::new(key!("finding.timed.early"))
                .phrase("what", key.label())
                .count("d", d)
                .arg("early", f.ms(f64::from(d) - s.min)),
        );
    }
    let never_fired = tw.cells.iter().find_map(|c| match c.outcome {
        Outcome::TimeoutNeverFired { waited_ms } => Some((c.key, waited_ms)),
        _ => None,
    });
    if let Some((key, waited_ms)) = never_fired {
        out.push(
            Phrase::new(key!("finding.timed.never_fired"))
                .phrase("what", key.mechanism.label())
                .arg("waited", f.ms(waited_ms)),
        );
    }
    f.finish(out)
}

/// The headline findings of a main-thread starvation run.
pub fn main_starvation(ms: &MainStarvation, clock: Option<ClockInfo>) -> Vec<Phrase> {
    let f = Figures::new(clock);
    let out = ms
        .runs
        .iter()
        .map(|run| {
            Phrase::new(key!("finding.main.run"))
                .count("jobs", ms.config.jobs)
                .count("wait", ms.config.wait_ms)
                .phrase("mode", run.mode.label())
                .arg("batch", f.ms(run.batch_ms))
                .arg("expected", f.ms(ms.config.expected_batch_ms(run.mode)))
                .arg("timer", f.ms(run.timer_queue_wait_ms))
                .arg("message", f.ms(run.message_queue_wait_ms))
                .arg("gap", f.ms(run.longest_frame_gap()))
        })
        .collect();
    f.finish(out)
}

/// The headline findings of a worker-pool starvation run.
pub fn pool_starvation(ps: &PoolStarvation, clock: Option<ClockInfo>) -> Vec<Phrase> {
    let f = Figures::new(clock);
    let c = &ps.config;
    let out = ps
        .runs
        .iter()
        .map(|run| {
            Phrase::new(key!("finding.pool.run"))
                .count("jobs", c.jobs)
                .count("wait", c.wait_ms)
                .count("workers", c.workers)
                .phrase("mode", run.mode.label())
                .arg("batch", f.ms(run.batch_ms))
                .arg("model", f.ms(c.expected_batch_ms(run.mode)))
                .arg("extra", f.ms(run.extra_job_wait_ms))
        })
        .collect();
    f.finish(out)
}

/// The headline findings of a spin-ladder run, beside the article's.
pub fn spin_ladder(l: &SpinLadder, clock: Option<ClockInfo>) -> Vec<Phrase> {
    let tolerance_ms = Figures::new(clock).tolerance_ms();
    let us = |ms: f64| Arg::Us(ms * 1000.0);
    let late: Vec<f64> = l
        .steps
        .iter()
        .filter(|s| s.count >= SLEEP1_THRESHOLD)
        .map(|s| s.p50_ms)
        .collect();
    // Data made before blocks timed each call alone, so a step shorter
    // than one tick read as 0.
    let timing = if l.steps.iter().any(|s| s.block > 1) {
        Phrase::new(key!("finding.ladder.timed_in_blocks"))
    } else {
        Phrase::new(key!("finding.ladder.timed_alone"))
    }
    .arg("tick", us(tolerance_ms));
    let units = match l.calibration {
        Some(c) => Phrase::new(key!("finding.ladder.calibrated"))
            .phrase("unit", c.describe())
            .arg("target", Arg::Fixed(NS_PER_SPIN_UNIT, 0)),
        None => Phrase::new(key!("finding.ladder.uncalibrated")),
    };
    let mut out = vec![
        Phrase::new(key!("finding.ladder.spins"))
            .arg("spins", us(l.cumulative_ms(0..YIELD_THRESHOLD)))
            .arg(
                "yields",
                us(l.cumulative_ms(YIELD_THRESHOLD..SLEEP1_THRESHOLD)),
            )
            .phrase("timing", timing)
            .phrase("units", units),
    ];
    if !late.is_empty() {
        let mean = late.iter().sum::<f64>() / late.len() as f64;
        out.push(Phrase::new(key!("finding.ladder.sleeps")).arg("each", us(mean)));
    }
    for su in &l.spin_until {
        out.push(
            Phrase::new(if su.sleep_stage {
                key!("finding.ladder.spin_until_sleeping")
            } else {
                key!("finding.ladder.spin_until_spinning")
            })
            .ms("wall", su.wall_ms)
            .arg("busy", Arg::Fixed(su.busy_fraction() * 100.0, 0))
            .count("calls", su.calls),
        );
    }
    out
}

/// The headline findings of a wake-latency run, beside the article's.
pub fn wake_latency(w: &WakeLatency, clock: Option<ClockInfo>) -> Vec<Phrase> {
    let f = Figures::new(clock);
    let mut out = Vec::new();
    let ratios = w.ratios_to_event();
    let event = w
        .results
        .iter()
        .find(|r| r.strategy == Strategy::Event)
        .and_then(|r| r.outcome.summary());
    if let Some(event) = event {
        out.push(Phrase::new(key!("finding.wake.event")).arg("p50", f.ms(event.p50)));
        // A ratio is only as resolved as the event wait it divides by.
        let marked = f.unresolved(event.p50);
        let polls: Vec<Phrase> = ratios
            .iter()
            .filter(|(s, _)| matches!(s, Strategy::SleepPoll | Strategy::TimerPoll))
            .map(|(s, r)| {
                Phrase::new(if marked {
                    key!("finding.wake.ratio_marked")
                } else {
                    key!("finding.wake.ratio")
                })
                .phrase("what", s.label())
                .arg("times", Arg::Fixed(*r, 0))
            })
            .collect();
        if !polls.is_empty() {
            out.push(Phrase::new(key!("finding.wake.polling")).arg("ratios", Arg::List(polls)));
        }
    } else {
        // Without the event wait (no shared memory) there is no ratio,
        // but what did run is this browser's figure all the same.
        for r in &w.results {
            if let Some(s) = r.outcome.summary() {
                out.push(
                    Phrase::new(key!("finding.wake.without_event"))
                        .phrase("what", r.strategy.label())
                        .arg("p50", f.ms(s.p50))
                        .arg("p99", f.ms(s.p99)),
                );
            }
        }
    }
    out.push(skew(w.skew_ms));
    f.finish(out)
}

/// What the two workers' clocks differ by, or that it could not be
/// measured (experiments 4, 6 and 9).
fn skew(skew_ms: Option<f64>) -> Phrase {
    match skew_ms {
        Some(skew) => Phrase::new(key!("finding.wake.skew")).ms("skew", skew),
        None => Phrase::new(key!("finding.wake.no_skew")),
    }
}

/// The headline findings of a cancellable-waits run: how long the blind
/// sleep ran on after its cancel, and how soon each cancellable wait was
/// free, as a multiple of that.
pub fn cancel_waits(c: &CancelWaits, clock: Option<ClockInfo>) -> Vec<Phrase> {
    let f = Figures::new(clock);
    let mut out = Vec::new();
    let blind = c.blind_p50();
    for r in &c.results {
        let Some(s) = r.outcome.summary() else {
            continue;
        };
        if !r.strategy.wakes_on_cancel() {
            out.push(
                Phrase::new(key!("finding.cancel.blind"))
                    .phrase("what", r.strategy.label())
                    .arg("p50", f.ms(s.p50))
                    .arg("max", f.ms(s.max))
                    .count("wait", c.config.wait_ms),
            );
            continue;
        }
        let sooner = blind.filter(|_| s.p50 > 0.0).map(|b| b / s.p50);
        let phrase = match sooner {
            // A ratio is only as resolved as the time it divides by.
            Some(times) => Phrase::new(if f.unresolved(s.p50) {
                key!("finding.cancel.woken_sooner_marked")
            } else {
                key!("finding.cancel.woken_sooner")
            })
            .arg("times", Arg::Fixed(times, 0)),
            None => Phrase::new(key!("finding.cancel.woken")),
        };
        out.push(
            phrase
                .phrase("what", r.strategy.label())
                .arg("p50", f.ms(s.p50))
                .arg("p99", f.ms(s.p99)),
        );
    }
    out.push(skew(c.skew_ms));
    f.finish(out)
}

/// The headline findings of a concurrency-limit run: for each gate how
/// soon a freed slot went to the next job, the batch's time beside the
/// time with instant handoffs, and the most jobs that ran at once; then
/// how much longer the polling gate's batch took.
pub fn concurrency_limit(c: &ConcurrencyLimit, clock: Option<ClockInfo>) -> Vec<Phrase> {
    let f = Figures::new(clock);
    let mut out = Vec::new();
    let ideal = c.config.ideal_batch_ms();
    for r in &c.runs {
        let Some(s) = r.outcome.summary() else {
            continue;
        };
        out.push(
            Phrase::new(key!("finding.limit.gate"))
                .phrase("what", r.gate.label())
                .arg("p50", f.ms(s.p50))
                .arg("max", f.ms(s.max))
                .count("jobs", c.config.jobs)
                .arg("batch", f.ms(r.batch_ms()))
                .arg("ideal", f.ms(ideal))
                .count("peak", r.peak())
                .count("limit", c.config.limit),
        );
    }
    let batch = |polls: bool| {
        c.runs
            .iter()
            .find(|r| r.gate.polls() == polls && !r.spans.is_empty())
            .map(|r| (r.gate, r.batch_ms()))
    };
    if let (Some((semaphore, quick)), Some((polling, slow))) = (batch(false), batch(true)) {
        out.push(
            Phrase::new(key!("finding.limit.longer"))
                .phrase("polling", polling.label())
                .phrase("semaphore", semaphore.label())
                .arg("extra", f.ms(slow - quick)),
        );
    }
    f.finish(out)
}

/// The headline findings of a handoff run: how soon each channel's
/// consumer had an item sent one by one, how many a second went through
/// in a burst, and how much longer a polling consumer left items waiting
/// than the fastest woken one.
pub fn handoff(h: &Handoff, clock: Option<ClockInfo>) -> Vec<Phrase> {
    let f = Figures::new(clock);
    let mut out = Vec::new();
    let (mut latencies, mut rates) = (Vec::new(), Vec::new());
    for r in &h.runs {
        let Some(s) = r.outcome.summary() else {
            continue;
        };
        latencies.push(
            Phrase::new(key!("finding.handoff.latency_item"))
                .phrase("what", r.channel.label())
                .arg("p50", f.ms(s.p50))
                .arg("p99", f.ms(s.p99)),
        );
        if let Some((rate, burst_ms)) = r.items_per_s(h.config.burst).zip(r.burst_ms) {
            // A rate is only as resolved as the burst's time.
            let key = if f.unresolved(burst_ms) {
                key!("finding.handoff.rate_item_marked")
            } else {
                key!("finding.handoff.rate_item")
            };
            rates.push(
                Phrase::new(key)
                    .phrase("what", r.channel.label())
                    .count("rate", rate.round() as u64),
            );
        }
    }
    if !latencies.is_empty() {
        out.push(Phrase::new(key!("finding.handoff.latencies")).arg("items", Arg::List(latencies)));
    }
    if !rates.is_empty() {
        out.push(
            Phrase::new(key!("finding.handoff.rates"))
                .count("burst", h.config.burst)
                .arg("rates", Arg::List(rates)),
        );
    }
    if let Some((polling, woken, woken_p50, times)) = h.polling_ratio() {
        // A ratio is only as resolved as the time it divides by.
        let key = if f.unresolved(woken_p50) {
            key!("finding.handoff.polling_marked")
        } else {
            key!("finding.handoff.polling")
        };
        out.push(
            Phrase::new(key)
                .phrase("polling", polling.label())
                .phrase("woken", woken.label())
                .arg("times", Arg::Fixed(times, 0)),
        );
    }
    out.push(skew(h.skew_ms));
    f.finish(out)
}

/// The headline findings of a periodic-work run: how far behind its
/// schedule each loop ended, on the main thread and in a worker; how much
/// a loop that waits after its work slipped a tick, beside the work's
/// mean; and how close the corrected schedule kept.
pub fn periodic_work(p: &PeriodicWork, clock: Option<ClockInfo>) -> Vec<Phrase> {
    let f = Figures::new(clock);
    let mut out = Vec::new();
    let measured = |schedulers: [Scheduler; 3]| -> Vec<&PeriodicResult> {
        schedulers
            .iter()
            .filter_map(|s| p.results.iter().find(|r| r.scheduler == *s))
            .filter(|r| r.drift_ms().is_some())
            .collect()
    };
    let places = [
        (Scheduler::MAIN, key!("periodic.place.main")),
        (Scheduler::WORKER, key!("periodic.place.worker")),
    ];
    for (schedulers, place) in places {
        let results = measured(schedulers);
        let items: Vec<Phrase> = results
            .iter()
            .filter_map(|r| {
                let (drift, schedule) = (r.drift_ms()?, r.scheduler.schedule()?);
                Some(
                    Phrase::new(key!("finding.periodic.item"))
                        .phrase("what", schedule.label())
                        .arg("drift", f.ms(drift)),
                )
            })
            .collect();
        if items.is_empty() {
            continue;
        }
        out.push(
            Phrase::new(key!("finding.periodic.drift"))
                .phrase("where", Phrase::new(place))
                .count("ticks", p.config.ticks)
                .arg("items", Arg::List(items)),
        );
    }
    let all: Vec<&PeriodicResult> = measured(Scheduler::MAIN)
        .into_iter()
        .chain(measured(Scheduler::WORKER))
        .collect();
    // Each tick but the last delays the next by its work.
    let work = p.config.work_us();
    let delaying = &work[..work.len().saturating_sub(1)];
    let mean_work_ms =
        delaying.iter().map(|&w| f64::from(w)).sum::<f64>() / 1000.0 / delaying.len().max(1) as f64;
    let chained = all.iter().find_map(|r| {
        let lateness = r.outcome.samples()?;
        (r.scheduler.waits_after_work() && lateness.len() > 1).then_some((r, lateness))
    });
    if let Some((r, lateness)) = chained {
        let (first, last) = (lateness[0], lateness[lateness.len() - 1]);
        out.push(
            Phrase::new(key!("finding.periodic.chained"))
                .phrase("what", r.scheduler.label())
                .arg("slip", f.ms((last - first) / (lateness.len() - 1) as f64))
                .arg("work", f.ms(mean_work_ms)),
        );
    }
    let corrected = all.iter().find_map(|r| {
        let corrected =
            r.scheduler.schedule() == Some(crate::experiments::periodic_work::Schedule::Corrected);
        corrected.then_some((r, r.outcome.summary()?))
    });
    if let Some((r, s)) = corrected {
        out.push(
            Phrase::new(key!("finding.periodic.corrected"))
                .phrase("what", r.scheduler.label())
                .arg("p50", f.ms(s.p50))
                .count(
                    "late",
                    r.late_ticks(p.config.interval_ms).unwrap_or(0) as u64,
                )
                .count("ticks", s.n),
        );
    }
    f.finish(out)
}

#[cfg(test)]
mod tests;
