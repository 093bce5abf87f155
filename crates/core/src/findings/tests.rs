//! Tests of the findings (`findings.rs`).

use super::*;
use crate::experiments::Findings;
use crate::experiments::main_starvation::MainStarvation;
use crate::experiments::periodic_work::{PeriodicResult, PeriodicWork, Scheduler};
use crate::experiments::timed_waits::Cell;
use crate::experiments::timed_waits::TimedWaitsConfig;
use crate::experiments::timed_waits::{CellKey, Mechanism, NestedChain, TimedWaits};
use crate::experiments::wake_latency::{Strategy, WakeLatency};
use crate::outcome::Outcome;

fn measured(v: &[f64]) -> Outcome {
    Outcome::measured(v.to_vec()).unwrap()
}

/// An isolated Chromium's clock: 5 µs steps.
const FINE_CLOCK: Option<ClockInfo> = Some(ClockInfo {
    min_step_ms: 0.005,
    typical_step_ms: 0.005,
    readings: 100,
});

/// Checks that `finding` holds every one of `parts`.
fn holds(finding: &str, parts: &[&str]) {
    assert!(parts.iter().all(|p| finding.contains(p)), "{finding}");
}

/// `findings` in English.
fn english(findings: Vec<Phrase>) -> Vec<String> {
    let en = crate::text::Catalog::english();
    findings.iter().map(|p| en.render(p)).collect()
}

/// Without shared memory only postMessage runs: its figure is still
/// a finding, though there is no event wait to divide by; on a 1 ms
/// clock that read most hand-offs as none (Firefox in a blog's frame),
/// its median is under one step of that clock, never "0".
#[test]
fn wake_findings_without_the_event_wait_keep_what_ran() {
    use crate::experiments::wake_latency::{WakeConfig, WakeResult};
    let unavailable = Outcome::Unavailable {
        reason: crate::outcome::reason::NOT_ISOLATED.to_owned(),
    };
    let only_post_message = |samples: &[f64]| WakeLatency {
        config: WakeConfig::default(),
        skew_ms: None,
        results: Strategy::BROWSER
            .iter()
            .map(|&strategy| WakeResult {
                strategy,
                outcome: if strategy == Strategy::PostMessage {
                    measured(samples)
                } else {
                    unavailable.clone()
                },
            })
            .collect(),
        own: None,
    };
    let f = english(only_post_message(&[0.3, 0.4, 0.5]).findings(None));
    assert_eq!(f.len(), 2, "{f:?}");
    assert!(
        f[0].starts_with("postMessage from the setter noticed the flag 0.4"),
        "{}",
        f[0]
    );
    let coarse = Some(ClockInfo {
        min_step_ms: 1.0,
        typical_step_ms: 1.0,
        readings: 100,
    });
    let f = english(only_post_message(&[0.0, 0.0, 0.0, 1.0, 4.0]).findings(coarse));
    holds(
        &f[0],
        &[
            "noticed the flag <1.00‡ ms after it was set",
            "p99 3.88‡ ms",
        ],
    );
    assert!(f.iter().all(|f| !f.contains(" 0‡")), "{f:?}");
}

#[test]
fn starvation_findings_name_every_mode() {
    use crate::experiments::JobMode;
    use crate::experiments::main_starvation::{MainConfig, MainRun};
    let run = |mode, batch_ms| MainRun {
        mode,
        batch_ms,
        timer_queue_wait_ms: batch_ms,
        message_queue_wait_ms: 1.0,
        frames_ms: vec![16.0, batch_ms],
    };
    let ms = MainStarvation {
        config: MainConfig {
            jobs: 8,
            wait_ms: 250,
        },
        runs: vec![run(JobMode::Blocking, 2001.0), run(JobMode::Async, 251.0)],
    };
    let f = english(ms.findings(None));
    holds(
        &f[0],
        &["blocking: the batch took 2,001 ms (expected 2,000 ms)"],
    );
    holds(&f[1], &["async", "235 ms without a frame"]);
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
            sampling: crate::sampling::Sampling::Fixed,
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
        own: None,
    };
    let f = english(tw.findings(FINE_CLOCK));
    assert_eq!(f.len(), 6, "{f:#?}");
    assert!(f[0].contains("4.20 ms") && f[0].contains("1.10 ms"));
    assert!(f[1].contains("0.005‡ ms"), "one clock step is marked");
    assert!(f[5].starts_with("‡ below this clock's resolution: a figure under 0.1 ms"));
    assert!(f[2].contains("level 3"));
    assert!(f[3].contains("setTimeout(1) in a worker, back to back returned up to 0.1‡ ms before"));
    assert!(f[4].contains("51.0 ms"));
}

#[test]
fn handoff_says_how_soon_items_arrived_and_how_much_polling_cost() {
    use crate::experiments::producer_consumer::{
        Channel, ChannelRun, ProducerConsumer, ProducerConsumerConfig,
    };
    let run = |channel, samples: &[f64], burst_ms| ChannelRun {
        channel,
        outcome: measured(samples),
        burst_ms,
    };
    let h = ProducerConsumer {
        config: ProducerConsumerConfig::default(),
        skew_ms: Some(0.003),
        runs: vec![
            run(Channel::MessagePort, &[0.1, 0.12, 0.3], Some(40.0)),
            run(Channel::RingWait, &[0.02, 0.03, 0.05], Some(4.0)),
            run(Channel::RingPoll, &[1.5, 3.0, 4.2], None),
        ],
    };
    let f = english(h.findings(FINE_CLOCK));
    assert_eq!(f.len(), 5, "{f:#?}");
    holds(
        &f[0],
        &["postMessage over a MessageChannel 0.12 ms (0.3 ms)"],
    );
    holds(&f[0], &["notify 0.03‡ ms (0.05‡ ms)"]);
    holds(&f[1], &["2,000 items", "50,000 items/s by postMessage"]);
    holds(&f[1], &["500,000 items/s"]);
    holds(&f[2], &["100×‡ as long as the shared ring"]);
    holds(&f[3], &["clocks differ"]);
    assert!(f[4].starts_with("‡"), "{}", f[4]);
}

#[test]
fn cancel_waits_say_how_long_the_blind_sleep_ran_on() {
    use crate::experiments::cancel_waits::{CancelConfig, CancelResult, CancelWaits, Strategy};
    let result = |strategy, outcome| CancelResult { strategy, outcome };
    let c = CancelWaits {
        config: CancelConfig::default(),
        skew_ms: Some(0.002),
        results: vec![
            result(Strategy::BlindSleep, measured(&[4.0, 10.0, 17.5])),
            result(Strategy::CancelEvent, measured(&[0.02, 0.025, 0.03])),
            result(Strategy::AbortTimer, measured(&[0.1, 0.2, 0.4])),
        ],
        own: None,
    };
    let f = english(c.findings(FINE_CLOCK));
    assert_eq!(f.len(), 5, "{f:#?}");
    holds(
        &f[0],
        &["10.0 ms after the cancel", "17.5 ms", "its 20 ms wait"],
    );
    // The event's 25 µs is five clock steps: marked, and so is the
    // ratio that divides by it.
    holds(&f[1], &["0.03‡ ms", "400×‡ sooner"]);
    holds(&f[2], &["0.2 ms", "50× sooner"]);
    holds(&f[3], &["clocks differ"]);
    assert!(f[4].starts_with("‡"), "{}", f[4]);
    // Without the blind sleep there is nothing to compare with.
    let alone = CancelWaits {
        results: c.results[2..].to_vec(),
        ..c.clone()
    };
    let f = english(alone.findings(FINE_CLOCK)).remove(0);
    assert!(!f.contains("sooner"), "{f}");
}

#[test]
fn periodic_work_says_how_far_each_loop_drifted() {
    use crate::experiments::periodic_work::{PeriodicConfig, lateness_ms};
    let config = PeriodicConfig {
        ticks: 4,
        interval_ms: 20,
        work_ms: 10,
        seed: 1,
    };
    let result = |scheduler, began: &[f64]| PeriodicResult {
        scheduler,
        outcome: Outcome::of_samples(lateness_ms(0.0, 20, began)),
    };
    let p = PeriodicWork {
        config: config.clone(),
        results: vec![
            result(Scheduler::MainChained, &[20.1, 48.0, 75.0, 104.0]),
            result(Scheduler::MainInterval, &[20.1, 40.5, 61.0, 80.5]),
            result(Scheduler::MainCorrected, &[20.1, 40.2, 60.3, 80.2]),
            PeriodicResult {
                scheduler: Scheduler::WorkerChained,
                outcome: Outcome::Failed {
                    message: "gone".into(),
                },
            },
            result(Scheduler::WorkerCorrected, &[20.0, 62.0, 60.5, 80.1]),
        ],
    };
    let f = english(p.findings(FINE_CLOCK));
    assert_eq!(f.len(), 5, "{f:#?}");
    holds(&f[0], &["4 ticks", "24.0 ms", "0.5 ms"]);
    // The worker's failed loop is left out of its line.
    assert!(!f[1].contains("24.0"), "{}", f[1]);
    // From 0.1 to 24 ms behind over three ticks: 7.97 ms a tick, beside
    // the mean work of the three ticks before the last.
    let mean = config.work_us()[..3]
        .iter()
        .map(|&w| f64::from(w))
        .sum::<f64>()
        / 3000.0;
    let ms = crate::chart::format_ms;
    assert!(
        f[2].contains(&format!("{} ms", ms(23.9 / 3.0))) && f[2].contains(&ms(mean)),
        "{}",
        f[2]
    );
    holds(&f[3], &["0.2 ms", "0 of 4"]);
    // The worker's corrected loop ended 0.1 ms late: 20 steps of 5 µs.
    assert!(f[1].contains("0.1‡ ms") && f[4].starts_with('‡'), "{f:#?}");
}

#[test]
fn concurrency_limit_says_how_soon_slots_changed_hands() {
    use crate::experiments::concurrency_limit::{
        ConcurrencyLimit, Gate, LimitConfig, LimitRun, Span,
    };
    let config = LimitConfig {
        jobs: 3,
        limit: 1,
        job_ms: 10,
        seed: 1,
    };
    let run = |gate, spans: &[(f64, f64)]| {
        let spans = spans
            .iter()
            .map(|&(start_ms, end_ms)| Span { start_ms, end_ms })
            .collect();
        LimitRun::measured(gate, spans, 1)
    };
    let c = ConcurrencyLimit {
        config,
        runs: vec![
            run(
                Gate::AsyncSemaphore,
                &[(0.0, 10.0), (10.0, 20.0), (20.0, 30.0)],
            ),
            run(
                Gate::PollingGate,
                &[(0.0, 10.0), (14.0, 24.0), (28.0, 38.0)],
            ),
        ],
    };
    let f = english(c.findings(None));
    assert_eq!(f.len(), 3, "{f:#?}");
    holds(&f[1], &["4.00 ms", "38.0 ms"]);
    holds(&f[2], &["8.00 ms"]);
}

/// A run that sampled each cell until its median was known says how many
/// cells got there, after how many samples, and how many took the most.
#[test]
fn adaptive_sampling_says_where_cells_stopped() {
    let cell = |requested_ms, n: usize| Cell {
        key: CellKey {
            mechanism: Mechanism::TimeoutFreshTask,
            requested_ms: Some(requested_ms),
        },
        outcome: measured(&vec![f64::from(requested_ms) + 0.2; n]),
    };
    let mut tw = TimedWaits {
        config: TimedWaitsConfig {
            durations_ms: vec![1, 10, 15],
            mechanisms: vec![Mechanism::TimeoutFreshTask],
            ..TimedWaitsConfig::default()
        },
        cells: vec![cell(1, 200), cell(10, 30), cell(15, 45)],
        chain: NestedChain { levels: Vec::new() },
        own: None,
    };
    let last = |tw: &TimedWaits| english(tw.sampled().into_iter().collect()).join(" | ");
    holds(
        &last(&tw),
        &[
            "2 of 3 cells knew their median to ±2 % after 30 to 45 samples",
            "maximum, 200",
        ],
    );
    tw.cells.remove(0);
    holds(
        &last(&tw),
        &["All 2 cells knew their median to ±2 % after 30 to 45 samples (of at most 200)"],
    );
    tw.cells = vec![cell(10, 30)];
    holds(
        &last(&tw),
        &["All 1 cells knew their median to ±2 % after 30 samples (of at most 200)"],
    );
    tw.cells = vec![cell(1, 200)];
    holds(
        &last(&tw),
        &["No cell knew its median to ±2 % before its maximum of 200 samples"],
    );
    tw.config.sampling = crate::sampling::Sampling::Fixed;
    assert_eq!(tw.sampled(), None);
}
