//! The codec's tests: round trips within the stated precision, old links,
//! and hostile input.

use super::wire::{MEDIAN, reconstruct};
use super::wire::{SPAN_TICK_MS, TICK_MS};
use super::*;
use crate::experiments::spin_ladder::SpinLadder;
use crate::experiments::timed_waits::{Mechanism, TimedWaitsConfig};
use crate::key;
use crate::outcome::Outcome;
use crate::stats::Samples;
use crate::text::Phrase;

/// A link as the page makes it: the body, deflated, wrapped.
fn encode(report: &Report) -> String {
    wrap(&miniz_oxide::deflate::compress_to_vec(
        &encode_body(report),
        10,
    ))
}

/// A link as the page reads it: unwrapped, inflated to at most
/// `MAX_BODY_BYTES` (the page's inflater keeps the same cap), decoded.
fn decode(payload: &str) -> Result<Report, LinkError> {
    let packed = unwrap(payload)?;
    let body = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_BODY_BYTES)
        .map_err(|_| NOT_INFLATABLE)?;
    decode_body(&body)
}

#[test]
fn quantization_keeps_half_a_step() {
    for v in [1e-4, 0.00123, 0.5, 1.0, 4.2, 15.6, 1000.0, 18_000.0, -0.02] {
        let back = dequantize(quantize(v));
        assert!(
            ((back - v) / v).abs() <= RELATIVE_PRECISION / 2.0 + 1e-12,
            "{v} -> {back}"
        );
    }
    assert_eq!(quantize(0.0), 0);
    assert_eq!(quantize(5e-5), 0);
    assert_eq!(quantize(f64::NAN), 0);
    assert!(dequantize(i64::MIN).is_finite() && dequantize(i64::MAX).is_finite());
}

#[test]
fn payloads_come_from_the_fragment() {
    assert_eq!(payloads("https://x/y?embed=a#v1:A;v1:B"), ["v1:A", "v1:B"]);
    assert_eq!(payloads(" v1:A "), ["v1:A"]);
    assert!(payloads("https://x/y#").is_empty());
}

#[test]
fn base64url_round_trips() {
    for len in 0..40 {
        let bytes: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
        let text = base64url::encode(&bytes);
        assert!(
            text.bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
        );
        assert_eq!(base64url::decode(&text).unwrap(), bytes);
    }
    assert!(base64url::decode("A").is_none());
    assert!(base64url::decode("AB=C").is_none());
}

#[test]
fn versions_and_garbage_are_refused() {
    assert_eq!(
        decode("v2:AAAA"),
        Err(LinkError::UnknownVersion("v2".into()))
    );
    assert_eq!(decode("hello"), Err(LinkError::NotALink));
    assert_eq!(
        decode("<script>alert(1)</script>"),
        Err(LinkError::NotALink)
    );
    assert!(matches!(decode("v1:%%%"), Err(LinkError::Damaged(_))));
    assert!(matches!(decode("v1:AAAA"), Err(LinkError::Damaged(_))));
    let long = format!("v1:{}", "A".repeat(MAX_LINK_CHARS));
    assert!(matches!(decode(&long), Err(LinkError::TooLong(_))));
}

#[test]
fn a_sketch_reproduces_its_quantiles() {
    assert_eq!(SKETCH_QUANTILES[MEDIAN], 0.5);
    let q = [1.0, 1.2, 1.3, 1.5, 2.0, 2.5, 5.0, 9.0];
    let samples = reconstruct(&q, 201);
    let s = Samples::new(samples).unwrap();
    for (p, v) in SKETCH_QUANTILES.iter().zip(q) {
        assert!((s.quantile(*p) - v).abs() < 1e-9, "p={p}");
    }
}

/// A real run of every experiment: a frozen copy of a native set (the
/// bundled one is rewritten per machine by `cargo xtask native`).
fn native_suite() -> Report {
    Report::from_json(include_str!("../../tests/data/native_report.json")).unwrap()
}

/// A real browser run of experiment 1 (the golden file).
fn browser_timed_waits() -> Report {
    Report::from_json(include_str!("../../tests/data/report_v1.json")).unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a.abs() < FLOOR_MS && b.abs() < FLOOR_MS)
        || ((a - b) / a).abs() <= RELATIVE_PRECISION / 2.0 + 1e-9
}

fn assert_summaries_close(a: &Outcome, b: &Outcome, what: &str) {
    match (a.summary(), b.summary()) {
        (Some(x), Some(y)) => {
            if let Some((u, v)) = not_kept(x, y) {
                panic!("{what}: {u} vs {v}");
            }
        }
        (None, None) => match (a, b) {
            (
                Outcome::TimeoutNeverFired { waited_ms: x },
                Outcome::TimeoutNeverFired { waited_ms: y },
            ) => assert!(close(*x, *y), "{what}"),
            _ => assert_eq!(a, b, "{what}"),
        },
        _ => panic!("{what}: outcome kind changed"),
    }
}

#[test]
fn round_trips_within_the_stated_precision() {
    for original in [native_suite(), browser_timed_waits()] {
        let link = encode(&original);
        let back = decode(&link).unwrap();
        assert!(back.from_link);
        assert_eq!(back.env.short_name(), original.env.short_name());
        let relinked = decode(&encode(&back)).unwrap();
        let (a, b) = (original.timed_waits.unwrap(), back.timed_waits.unwrap());
        assert_eq!(a.config, b.config);
        assert_eq!(a.cells.len(), b.cells.len());
        for (x, y) in a.cells.iter().zip(&b.cells) {
            assert_eq!(x.key, y.key);
            assert_summaries_close(&x.outcome, &y.outcome, &x.key.id());
        }
        assert_eq!(a.chain.levels.len(), b.chain.levels.len());
        // Re-sharing a decoded link gives the same numbers again.
        assert_eq!(relinked.timed_waits.unwrap().config, b.config);
    }
    let original = native_suite();
    let back = decode(&encode(&original)).unwrap();
    let (m, mb) = (
        original.main_starvation.unwrap(),
        back.main_starvation.unwrap(),
    );
    for (x, y) in m.runs.iter().zip(&mb.runs) {
        assert!(close(x.batch_ms, y.batch_ms));
        assert_eq!(x.frames_ms.len(), y.frames_ms.len());
        for (f, g) in x.frames_ms.iter().zip(&y.frames_ms) {
            assert!((f - g).abs() <= TICK_MS / 2.0 + 1e-9);
        }
    }
    let (p, pb) = (
        original.pool_starvation.unwrap(),
        back.pool_starvation.unwrap(),
    );
    assert_eq!(p.config, pb.config);
    for (x, y) in p.runs.iter().zip(&pb.runs) {
        assert!(close(x.extra_job_wait_ms, y.extra_job_wait_ms));
        for (s, t) in x.spans.iter().zip(&y.spans) {
            assert_eq!((s.worker, s.job), (t.worker, t.job));
            assert!((s.end_ms - t.end_ms).abs() <= SPAN_TICK_MS + 1e-9);
        }
    }
    let (l, lb) = (original.spin_ladder.unwrap(), back.spin_ladder.unwrap());
    assert_eq!(l.steps.len(), lb.steps.len());
    for (x, y) in l.steps.iter().zip(&lb.steps) {
        assert_eq!((x.count, x.step), (y.count, y.step));
        assert!(close(x.p50_ms, y.p50_ms));
    }
    let (c, cb) = (l.calibration.unwrap(), lb.calibration.unwrap());
    assert_eq!(c.turns_per_unit, cb.turns_per_unit);
    assert!(close(c.unit_ns, cb.unit_ns));
    // A ladder made before calibration travels without one and keeps
    // its old units (512 at most a call).
    let mut old = Report {
        spin_ladder: Some(SpinLadder {
            calibration: None,
            ..l.clone()
        }),
        ..Report::new(original.env.clone(), None)
    };
    old.env.native = None;
    let old_back = decode(&encode(&old)).unwrap().spin_ladder.unwrap();
    assert_eq!(old_back.calibration, None);
    assert_eq!(
        old_back.steps[9].step,
        crate::experiments::spin_ladder::Step::Spin { units: 512 }
    );
    let (w, wb) = (original.wake_latency.unwrap(), back.wake_latency.unwrap());
    assert_eq!(w.config, wb.config);
    for (x, y) in w.results.iter().zip(&wb.results) {
        assert_eq!(x.strategy, y.strategy);
        assert_summaries_close(&x.outcome, &y.outcome, x.strategy.id());
    }
    // Periodic work keeps each tick's lateness in order (the drift is the
    // order), each within the link's precision.
    let (p, pb) = (original.periodic_work.unwrap(), back.periodic_work.unwrap());
    assert_eq!(p.config, pb.config);
    assert_eq!(p.results.len(), pb.results.len());
    for (x, y) in p.results.iter().zip(&pb.results) {
        assert_eq!(x.scheduler, y.scheduler);
        let (a, b) = (x.outcome.samples().unwrap(), y.outcome.samples().unwrap());
        assert_eq!(a.len(), b.len());
        for (u, v) in a.iter().zip(b) {
            assert!(close(*u, *v), "{u} vs {v}");
        }
    }
    // At most N at once: the spans to a tenth of a millisecond, the
    // handoffs within the link's precision.
    let (l, lb) = (
        original.concurrency_limit.unwrap(),
        back.concurrency_limit.unwrap(),
    );
    assert_eq!(l.config, lb.config);
    for (x, y) in l.runs.iter().zip(&lb.runs) {
        assert_eq!((x.gate, x.spans.len()), (y.gate, y.spans.len()));
        for (s, t) in x.spans.iter().zip(&y.spans) {
            assert!((s.start_ms - t.start_ms).abs() <= SPAN_TICK_MS / 2.0 + 1e-9);
            assert!((s.end_ms - t.end_ms).abs() <= SPAN_TICK_MS + 1e-9);
        }
        assert_summaries_close(&x.outcome, &y.outcome, x.gate.id());
    }
    // Handoff: each channel's sketch and its burst's time within the
    // link's precision.
    let (h, hb) = (
        original.producer_consumer.unwrap(),
        back.producer_consumer.unwrap(),
    );
    assert_eq!((&h.config, h.skew_ms), (&hb.config, hb.skew_ms));
    assert_eq!(h.runs.len(), hb.runs.len());
    for (x, y) in h.runs.iter().zip(&hb.runs) {
        assert_eq!(x.channel, y.channel);
        assert_summaries_close(&x.outcome, &y.outcome, x.channel.id());
        assert!(close(x.burst_ms.unwrap(), y.burst_ms.unwrap()));
    }
    let (c, cb) = (original.cancel_waits.unwrap(), back.cancel_waits.unwrap());
    assert_eq!((c.config, c.skew_ms), (cb.config, cb.skew_ms));
    assert_eq!(c.results.len(), cb.results.len());
    for (x, y) in c.results.iter().zip(&cb.results) {
        assert_eq!(x.strategy, y.strategy);
        assert_summaries_close(&x.outcome, &y.outcome, x.strategy.id());
    }
}

/// A link made before the worker's fresh-task timer came (by the code
/// of that day, from a report whose cells followed the configuration,
/// so its keys were implied) opens with the cells it had.
/// How far each row's median wandered within its run
/// (`stats::rerun_spread`) travels in its link, to the codec's precision,
/// and again when a link's run is shared on; a series that kept no order
/// (ascending, as a link rebuilds it) travels without one, as every link
/// made before links carried it.
#[test]
fn how_far_a_runs_medians_wander_travels_in_its_link() {
    use crate::compare::group;
    use crate::experiments::Experiment;
    let spreads = |r: &Report| -> Vec<Option<f64>> {
        Experiment::ALL
            .into_iter()
            .filter_map(|e| group(e, r))
            .flat_map(|g| g.rows.into_iter().map(|row| row.spread_ms))
            .collect()
    };
    let suite = native_suite();
    let back = decode(&encode(&suite)).unwrap();
    let again = decode(&encode(&back)).unwrap();
    let (sent, got, resent) = (spreads(&suite), spreads(&back), spreads(&again));
    assert!(
        sent.iter().filter(|s| s.is_some()).count() >= 20,
        "{sent:?}"
    );
    assert_eq!(sent.len(), got.len());
    for (a, b) in sent.iter().zip(&got) {
        match (a, b) {
            (Some(a), Some(b)) => assert!(close(*a, *b), "{a} vs {b}"),
            (None, None) => {}
            _ => panic!("{a:?} vs {b:?}"),
        }
    }
    assert_eq!(got, resent);
    // In ascending order: no spread to send.
    let mut sorted = suite.clone();
    for r in &mut sorted.wake_latency.as_mut().unwrap().results {
        if let Outcome::Measured { samples_ms, .. } = &mut r.outcome {
            samples_ms.sort_by(f64::total_cmp);
        }
    }
    let back = decode(&encode(&sorted.only(Experiment::WakeLatency))).unwrap();
    assert!(!spreads(&back).is_empty());
    assert!(spreads(&back).iter().all(Option::is_none));
}

#[test]
fn links_made_before_the_worker_fresh_task_timer_still_open() {
    const OLD: &str = "v1:Jc0xCgIxEAXQndnZIQxhTSJYWKXwAhZ6AVuvIWjhLgiCpQew3EosrDyAYGsl4gEsLMUDWFqbZKeZx-fD707mq3o588PR2NeVny6q9QYBGm74eIDz_fJiAMAQSZFfS9cfeCNZVuSPjpQ9pzl6b1iMVslPQ0oLU_TWEotqfbLIShFG3ywRMyEGvy0GY8p_lpCp7ewcEiUjfMNiOPiY9P8";
    let report = decode(OLD).expect("an old link opens");
    let tw = report.timed_waits.unwrap();
    let keys: Vec<_> = tw.cells.iter().map(|c| c.key).collect();
    assert_eq!(keys, tw.config.cells_of(&Mechanism::browser_v1()));
    assert!(
        !keys
            .iter()
            .any(|k| k.mechanism == Mechanism::WorkerTimeoutFreshTask)
    );
    for (i, cell) in tw.cells.iter().enumerate() {
        let p50 = cell.outcome.summary().unwrap().p50;
        assert!(close(p50, 1.5 + i as f64), "{}: {p50}", cell.key.id());
    }
}

/// A run of the mechanisms a reader picked lists its keys, and its
/// reader takes the mechanisms (and so the configuration's limits) from
/// them: a single cell of 100,000 samples opens, with every sample.
#[test]
fn a_run_of_picked_mechanisms_opens_with_its_cells() {
    let mut report = browser_timed_waits();
    let tw = report.timed_waits.as_mut().unwrap();
    let config = TimedWaitsConfig::parse(
        "0",
        ("100000", crate::sampling::Sampling::Fixed),
        &[Mechanism::TimeoutFreshTask],
    )
    .unwrap();
    let samples: Vec<f64> = (0..100_000)
        .map(|i| 0.1 + f64::from(i % 97) * 0.01)
        .collect();
    let outcome = Outcome::measured(samples).unwrap();
    tw.cells = config
        .cells()
        .into_iter()
        .map(|key| crate::experiments::timed_waits::Cell {
            key,
            outcome: outcome.clone(),
        })
        .collect();
    tw.config = config.clone();
    let link = encode(&report);
    assert!(link.len() < 600, "{} characters", link.len());
    let back = decode(&link).unwrap().timed_waits.unwrap();
    assert_eq!(back.config, config);
    assert_eq!(back.cells.len(), 1);
    assert_eq!(back.cells[0].key, config.cells()[0]);
    assert_summaries_close(&back.cells[0].outcome, &outcome, "100k");
    assert_eq!(
        back.cells[0].outcome.samples().map(<[f64]>::len),
        Some(100_000)
    );
}

/// Listed cells must be the configuration's: a link whose cells leave one
/// of its durations out (or repeat a cell) is refused.
#[test]
fn listed_cells_must_follow_the_configuration() {
    let mut report = browser_timed_waits();
    let tw = report.timed_waits.as_mut().unwrap();
    tw.config = TimedWaitsConfig::parse(
        "0, 1",
        ("5", crate::sampling::Sampling::Fixed),
        &[Mechanism::TimeoutFreshTask],
    )
    .unwrap();
    let outcome = Outcome::measured(vec![0.5; 5]).unwrap();
    let first = crate::experiments::timed_waits::Cell {
        key: tw.config.cells()[0],
        outcome,
    };
    for cells in [vec![first.clone()], vec![first.clone(), first]] {
        report.timed_waits.as_mut().unwrap().cells = cells;
        assert_eq!(
            decode(&encode(&report)).map(|_| ()),
            Err(LinkError::Damaged(
                "cells that do not follow the configuration"
            ))
        );
    }
}

/// A tiny deterministic generator for the fuzz inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Decoding never panics and stays bounded on 120,000 hostile inputs.
#[test]
fn hostile_payloads_never_panic() {
    fuzz(120_000);
}

/// The same over 1,000,000 inputs, with the count and the largest
/// decoded report printed (`cargo xtask bench`). Memory stays bounded
/// by the decoder's caps, which `fuzz` asserts on every decoded report.
#[test]
#[ignore = "benchmark: run by cargo xtask bench"]
fn bench_hostile_payloads_million() {
    let started = std::time::Instant::now();
    let (decoded, largest) = fuzz(1_000_000);
    println!(
        "  1000000 hostile links in {:.1} s: 0 panics, {decoded} decoded (mutations of real \
         links), largest {largest} samples (cap {MAX_TOTAL_SAMPLES}), inflated bodies capped \
         at {MAX_BODY_BYTES} bytes",
        started.elapsed().as_secs_f64()
    );
}

/// Feeds `count` hostile inputs to the decoder: random text, mutated
/// real links, and valid compression around random or mutated bodies
/// (which reaches every field reader), split over up to four threads
/// (each its own seed). Returns how many decoded and the most samples one
/// decoded report held.
fn fuzz(count: usize) -> (usize, usize) {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    let (decoded_ok, largest) = std::thread::scope(|scope| {
        let parts: Vec<_> = (0..threads)
            .map(|t| {
                let share = count / threads + usize::from(t < count % threads);
                scope.spawn(move || fuzz_part(share, 0x9E37_79B9_7F4A_7C15 ^ t as u64))
            })
            .collect();
        parts.into_iter().fold((0, 0), |(ok, most), part| {
            let (part_ok, part_most) = part.join().expect("a fuzz thread panicked");
            (ok + part_ok, most.max(part_most))
        })
    });
    assert!(decoded_ok > 0, "some mutations of real bodies still decode");
    assert!(decoded_ok < count);
    (decoded_ok, largest)
}

/// One thread's share of [`fuzz`]: `count` inputs from `seed`.
fn fuzz_part(count: usize, seed: u64) -> (usize, usize) {
    let mut rng = Rng(seed);
    let links = [encode(&native_suite()), encode(&browser_timed_waits())];
    let mut bodies = Vec::new();
    for r in [native_suite(), browser_timed_waits()] {
        bodies.push(encode_body(&r));
    }
    let alphabet: Vec<char> = "ABCxyz019-_v1:<>&\"'%#/= é\u{0}".chars().collect();
    let (mut decoded_ok, mut largest) = (0, 0);
    let mut check = |input: &str| {
        if let Ok(report) = decode(input) {
            decoded_ok += 1;
            let samples: usize = report
                .timed_waits
                .iter()
                .flat_map(|t| &t.cells)
                .map(|c| match &c.outcome {
                    Outcome::Measured { samples_ms, .. } => samples_ms.len(),
                    _ => 0,
                })
                .sum();
            assert!(samples <= MAX_TOTAL_SAMPLES);
            largest = largest.max(samples);
            let _ = encode(&report);
        }
    };
    for i in 0..count {
        let input = match i % 4 {
            0 => {
                let n = rng.below(120);
                let mut s = if rng.below(2) == 0 {
                    PREFIX.to_owned()
                } else {
                    String::new()
                };
                s.extend((0..n).map(|_| alphabet[rng.below(alphabet.len())]));
                s
            }
            1 => {
                let link = &links[rng.below(links.len())];
                let mut chars: Vec<char> = link.chars().collect();
                match rng.below(3) {
                    0 => chars.truncate(rng.below(chars.len())),
                    1 => {
                        let at = rng.below(chars.len());
                        chars[at] = alphabet[rng.below(alphabet.len())];
                    }
                    _ => {
                        let at = rng.below(chars.len());
                        chars.insert(at, alphabet[rng.below(alphabet.len())]);
                    }
                }
                chars.into_iter().collect()
            }
            2 => {
                let n = rng.below(300);
                let body: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                format!(
                    "{PREFIX}{}",
                    base64url::encode(&miniz_oxide::deflate::compress_to_vec(&body, 1))
                )
            }
            _ => {
                let mut body = bodies[rng.below(bodies.len())].clone();
                for _ in 0..=rng.below(4) {
                    if body.is_empty() {
                        break;
                    }
                    let at = rng.below(body.len());
                    match rng.below(3) {
                        0 => body[at] = rng.next() as u8,
                        1 => body.truncate(at),
                        _ => body.insert(at, rng.next() as u8),
                    }
                }
                format!(
                    "{PREFIX}{}",
                    base64url::encode(&miniz_oxide::deflate::compress_to_vec(&body, 1))
                )
            }
        };
        check(&input);
    }
    (decoded_ok, largest)
}

#[test]
fn a_body_past_the_inflation_cap_is_refused() {
    let zeros = vec![0u8; MAX_BODY_BYTES + 1];
    assert_eq!(
        decode_body(&zeros),
        Err(LinkError::Damaged("inflates to more than 64 KiB"))
    );
    // Real bodies are far below it: the whole native suite.
    assert!(encode_body(&native_suite()).len() < MAX_BODY_BYTES / 8);
}

/// The length budgets (one experiment ≤ 600 characters, all nine ≤
/// 2,000) hold for a real run of every experiment with default settings.
/// A run of periodic work as the page makes it: six loops of the default
/// 25 ticks, two of them drifting by the work, one link under 600
/// characters, and a link without the new section reads as before.
#[test]
fn a_periodic_run_fits_one_link() {
    use crate::experiments::periodic_work::{
        PeriodicConfig, PeriodicResult, PeriodicWork, Scheduler,
    };
    let config = PeriodicConfig::default();
    let work = config.work_us();
    let results = Scheduler::MAIN
        .into_iter()
        .chain(Scheduler::WORKER)
        .map(|scheduler| {
            let mut behind = 0.0;
            let lateness = work
                .iter()
                .enumerate()
                .map(|(i, &w)| {
                    let jitter = 0.05 + (i % 7) as f64 * 0.173;
                    if scheduler.waits_after_work() {
                        behind += f64::from(w) / 1000.0 + 0.31;
                    }
                    behind + jitter
                })
                .collect();
            PeriodicResult {
                scheduler,
                outcome: Outcome::of_samples(lateness),
            }
        })
        .collect();
    let mut report = Report::new(native_suite().env, None);
    report.env.native = None;
    report.periodic_work = Some(PeriodicWork { config, results });
    let link = encode(&report);
    assert!(link.len() <= 600, "{} characters", link.len());
    let back = decode(&link).unwrap();
    assert_eq!(back.periodic_work.unwrap().results.len(), 6);
    // Without experiment 7 the sections byte has no bit 7 and no second
    // byte follows: links made before it decode as they did.
    let before = encode_body(&native_suite().only(crate::experiments::Experiment::CancelWaits));
    assert!(!encode_body(&report).is_empty());
    assert!(decode_body(&before).is_ok());
}

/// A handoff's burst that took no time would make an endless rate: a link
/// that says so is damaged.
#[test]
fn a_burst_of_no_time_is_damage() {
    let mut report = native_suite().only(crate::experiments::Experiment::ProducerConsumer);
    report.env.native = None;
    assert!(decode_body(&encode_body(&report)).is_ok());
    report.producer_consumer.as_mut().unwrap().runs[0].burst_ms = Some(0.0);
    assert_eq!(
        decode_body(&encode_body(&report)).err(),
        Some(LinkError::Damaged("a burst that took no time"))
    );
}

#[test]
fn links_fit_the_length_budgets() {
    // As a browser's run: no native provenance.
    let mut suite = native_suite();
    let provenance = suite.env.native.take();
    assert!(encode(&suite).len() <= 2000, "{}", encode(&suite).len());
    let native = crate::experiments::Experiment::ALL
        .into_iter()
        .filter(|e| e.meta().runs_natively());
    for experiment in native.clone() {
        let one = suite.only(experiment);
        let n = encode(&one).len();
        assert!(n <= 600, "{}: {n} characters", experiment.id());
        assert!(one.has(experiment), "the suite has {}", experiment.id());
    }
    // A native run's (`waitlab-native --link`) carries its provenance,
    // and still fits: one experiment in 1,000 characters, the whole suite
    // in 2,000 (1,606 here).
    suite.env.native = provenance;
    for experiment in native {
        let n = encode(&suite.only(experiment)).len();
        assert!(n <= 1000, "native {}: {n} characters", experiment.id());
    }
    assert!(encode(&suite).len() <= 2000, "{}", encode(&suite).len());
}

/// A run's failure travels as a phrase and is said in the reader's
/// language; a link made when it was a sentence still opens with it as
/// written; a phrase nested past the cap is damage.
#[test]
fn failures_travel_as_phrases() {
    use crate::schema::Failure;
    use crate::text::Arg;
    let mut report = browser_timed_waits();
    report.timed_waits = None;
    let said = Phrase::new(key!("run.failed")).phrase(
        "why",
        Phrase::written("the worker stopped")
            .arg("n", Arg::Count(3))
            .arg(
                "t",
                Arg::Ms {
                    value: 1.5,
                    marked: true,
                },
            )
            .code("api", "Atomics.wait")
            .arg("d", Arg::Date(2026, 12, 4))
            .arg("l", Arg::List(vec![Phrase::new(key!("data"))])),
    );
    report.failure = Some(Failure::Said(said.clone()));
    assert_eq!(
        decode(&encode(&report)).unwrap().failure,
        Some(Failure::Said(said))
    );
    // Before phrases: the same link with the failure a sentence.
    report.failure = Some(Failure::Written("Der Lauf schlug fehl".into()));
    let written = decode(&encode(&report)).unwrap().failure.unwrap();
    assert_eq!(written, Failure::Written("Der Lauf schlug fehl".into()));
    assert_eq!(written.phrase().key, key!("data"));
    // Nested past the cap.
    let mut deep = Phrase::new(key!("data"));
    for _ in 0..6 {
        deep = Phrase::new(key!("data")).phrase("x", deep);
    }
    report.failure = Some(Failure::Said(deep));
    assert!(decode(&encode(&report)).is_err());
}

/// A link holds as many samples of one outcome as any experiment takes.
#[test]
fn an_outcome_holds_every_experiments_samples() {
    use crate::experiments::timed_waits::TimedWaitsConfig;
    use crate::experiments::wake_latency::WakeConfig;
    let most = TimedWaitsConfig::MAX_SAMPLES.max(WakeConfig::MAX_ROUNDS);
    assert_eq!(super::wire::MOST_SAMPLES, u64::from(most));
}

/// A native run's link (`waitlab-native --link`) keeps its provenance, so
/// the page shows it as native; a browser run's carries none, and a link
/// made before provenance travelled reads as it did.
#[test]
fn a_native_runs_link_keeps_its_provenance() {
    let suite = native_suite().only(crate::experiments::Experiment::SpinLadder);
    let back = decode(&encode(&suite)).unwrap();
    assert!(suite.env.native.is_some());
    assert_eq!(back.env.native, suite.env.native);
    let browser = browser_timed_waits();
    assert_eq!(decode(&encode(&browser)).unwrap().env.native, None);
    let mut without = suite.clone();
    without.env.native = None;
    let body = encode_body(&without);
    assert_eq!(decode_body(&body).unwrap().env.native, None);
}

/// A browser's pool run keeps a span for the extra job queued behind the
/// batch as well as one per job: its link reads (it once read as damaged,
/// found when the engines' runs were first bundled).
#[test]
fn a_pool_run_with_its_extra_jobs_span_reads() {
    let mut report = native_suite().only(crate::experiments::Experiment::PoolStarvation);
    report.env.native = None;
    let pool = report.pool_starvation.as_mut().unwrap();
    let jobs = pool.config.jobs as usize;
    let run = &mut pool.runs[0];
    run.spans.truncate(jobs);
    while run.spans.len() < jobs + 1 {
        let mut extra = run.spans[0];
        extra.job = run.spans.len() as u32;
        run.spans.push(extra);
    }
    let back = decode(&encode(&report)).unwrap();
    assert_eq!(back.pool_starvation.unwrap().runs[0].spans.len(), jobs + 1);
}

#[test]
fn a_hosts_secret_is_no_run() {
    assert_eq!(host_secret("?secret=abc123XYZ0"), ("", Some("abc123XYZ0")));
    assert_eq!(host_secret("v1:AbC-_#?secret=k9"), ("v1:AbC-_", Some("k9")));
    assert_eq!(host_secret("v1:AbC-_"), ("v1:AbC-_", None));
    assert_eq!(host_secret(""), ("", None));
    // Not a secret as WordPress makes one: all runs (and then refused as
    // a damaged link, as any other fragment).
    assert_eq!(host_secret("?secret="), ("?secret=", None));
    assert_eq!(host_secret("?secret=a<b"), ("?secret=a<b", None));
}
