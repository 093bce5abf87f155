//! The native probe as a user runs it: its help, its refusals, a
//! `--quick` run whose JSON the page's schema reads and whose numbers keep
//! the invariants every machine must show, and its result link.

use std::process::{Command, Output};
use waitlab_core::experiments::cancel_waits::Strategy as CancelStrategy;
use waitlab_core::experiments::periodic_work::Scheduler;
use waitlab_core::experiments::timed_waits::Mechanism;
use waitlab_core::experiments::wake_latency::Strategy;
use waitlab_core::schema::Report;

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_waitlab-native"))
        .args(args)
        .output()
        .expect("waitlab-native runs")
}

#[test]
fn help_and_bad_arguments() {
    let help = cli(&["--help"]);
    assert!(help.status.success());
    let text = String::from_utf8_lossy(&help.stdout);
    for flag in [
        "--quick",
        "--only",
        "--out",
        "--full-pool",
        "--link",
        "--trace",
    ] {
        assert!(text.contains(flag), "--help lacks {flag}:\n{text}");
    }
    let bad = cli(&["--only", "nonsense"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("nonsense"));
    let unwritable = cli(&[
        "--quick",
        "--only",
        "spin-ladder",
        "--out",
        "/nonexistent/dir/x.json",
    ]);
    assert!(!unwritable.status.success());
    assert!(String::from_utf8_lossy(&unwritable.stderr).contains("could not write"));
}

#[test]
fn quick_run_parses_and_keeps_the_invariants() {
    let out = cli(&["--quick", "--no-progress"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = Report::from_json(&String::from_utf8_lossy(&out.stdout)).unwrap();
    assert!(report.env.native.is_some());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("wake latency"),
        "summary table"
    );

    let tw = report.timed_waits.as_ref().unwrap();
    let sleep10 = tw
        .cells
        .iter()
        .find(|c| c.key.mechanism == Mechanism::ThreadSleep && c.key.requested_ms == Some(10))
        .and_then(|c| c.outcome.summary())
        .unwrap();
    assert!(
        sleep10.min >= 10.0,
        "std::thread::sleep(10 ms) returned after {} ms",
        sleep10.min
    );

    let wake = report.wake_latency.as_ref().unwrap();
    let p50 = |s: Strategy| wake.p50_of(|x| x == s).unwrap();
    assert!(
        p50(Strategy::Condvar) < p50(Strategy::NativeSleepPoll),
        "event wake {} ms is not faster than sleep polling {} ms",
        p50(Strategy::Condvar),
        p50(Strategy::NativeSleepPoll)
    );

    // A blind sleep runs on after its cancel (the cancel falls in its
    // first nine tenths, so at least a tenth of the wait is left, and half
    // of it on average); a wait on the cancel is free sooner at the median.
    // The canceller measures its point from when it saw the round start,
    // which a loaded machine delays (a fresh clone's run, beside the
    // release build: 1.9993 ms left of a 2 ms tenth), so half a tenth is
    // what the median must keep.
    let cancel = report.cancel_waits.as_ref().unwrap();
    let p50 = |s: CancelStrategy| cancel.p50_of(|x| x == s).unwrap();
    let blind = p50(CancelStrategy::NativeSleep);
    let tenth_ms = f64::from(cancel.config.wait_ms) / 10.0;
    assert!(
        blind >= tenth_ms / 2.0,
        "a blind sleep was free {blind} ms after its cancel at the median"
    );
    for woken in [CancelStrategy::CondvarTimeout, CancelStrategy::TokioCancel] {
        assert!(
            p50(woken) < blind,
            "{} took {} ms after the cancel, the blind sleep {blind} ms",
            woken.id(),
            p50(woken),
        );
    }

    // A loop that sleeps the interval after its work is behind its
    // schedule by at least the work of every tick before (a sleep never
    // ends early); tokio's interval never starts a tick early.
    let periodic = report.periodic_work.as_ref().unwrap();
    let lateness = |s: Scheduler| {
        periodic
            .results
            .iter()
            .find(|r| r.scheduler == s)
            .and_then(|r| r.outcome.samples())
            .unwrap()
            .to_vec()
    };
    let work = periodic.config.work_us();
    let slept = lateness(Scheduler::SleepLoop);
    for (i, late) in slept.iter().enumerate() {
        let before: u32 = work[..i].iter().sum();
        assert!(
            *late >= f64::from(before) / 1000.0 - 0.01,
            "tick {} of the sleep loop began {late} ms late, after {before} µs of work",
            i + 1
        );
    }
    for s in [
        Scheduler::TokioBurst,
        Scheduler::TokioDelay,
        Scheduler::TokioSkip,
    ] {
        let l = lateness(s);
        assert_eq!(l.len(), periodic.config.ticks as usize);
        assert!(l.iter().all(|&x| x >= -0.01), "{}: {l:?}", s.id());
    }

    // Neither gate lets more than the limit run at once, every job past
    // the limit waited for a slot, and the semaphore handed slots over no
    // later than a poll of 1 ms at the median.
    let limit = report.concurrency_limit.as_ref().unwrap();
    for run in &limit.runs {
        assert!(
            run.peak() <= limit.config.limit,
            "{}: {}",
            run.gate.id(),
            run.peak()
        );
        assert_eq!(run.spans.len(), limit.config.jobs as usize);
        let handoffs = run.outcome.samples().unwrap();
        assert_eq!(
            handoffs.len(),
            (limit.config.jobs - limit.config.limit) as usize
        );
    }
    let semaphore = limit.runs.iter().find(|r| !r.gate.polls()).unwrap();
    let median = semaphore.outcome.summary().unwrap().p50;
    assert!(
        median < 1.0,
        "the semaphore's handoff took {median} ms at the median"
    );

    // Every item sent one by one arrived, never before it was sent, every
    // burst took time, and a channel that wakes its consumer handed at
    // least one item over sooner than the queue polled beside it did at
    // its median (or than 1 ms). Its median is no invariant on a shared
    // machine: a release build beside the tests once held std's blocking
    // recv to 1.32 ms at the median against the poll's 0.89 ms.
    let pc = report.producer_consumer.as_ref().unwrap();
    assert_eq!(pc.runs.len(), 3);
    let polled = pc.runs.iter().find(|r| r.channel.polls()).unwrap();
    let poll_median = polled.outcome.summary().unwrap().p50;
    for run in &pc.runs {
        let latencies = run.outcome.samples().unwrap();
        assert_eq!(latencies.len(), pc.config.items as usize);
        // One clock, so no skew: a time reads 0 (floored) only where its
        // stamps were taken in the wrong order, or under the clock's
        // grain; a handoff between threads takes microseconds, so a
        // quarter of zeros is a fault.
        let zeros = latencies.iter().filter(|&&l| l <= 0.0).count();
        assert!(
            zeros * 4 <= latencies.len(),
            "{}: {zeros} of {} handoffs took no time: {latencies:?}",
            run.channel.id(),
            latencies.len()
        );
        assert!(
            run.burst_ms.is_some_and(|b| b > 0.0),
            "{}",
            run.channel.id()
        );
        if !run.channel.polls() {
            let fastest = latencies.iter().copied().fold(f64::INFINITY, f64::min);
            assert!(
                fastest < poll_median.max(1.0),
                "{}: fastest {fastest} ms, the poll's median {poll_median} ms",
                run.channel.id()
            );
        }
    }

    let pool = report.pool_starvation.as_ref().unwrap();
    let blocking = &pool.runs[0];
    assert!(blocking.batch_ms >= pool.config.expected_batch_ms(blocking.mode) - 1.0);
    assert_eq!(report.spin_ladder.as_ref().unwrap().spin_until.len(), 2);
}

#[test]
fn only_runs_what_was_asked() {
    let out = cli(&[
        "--quick",
        "--no-progress",
        "--only",
        "spin-ladder,main-starvation",
    ]);
    assert!(out.status.success());
    let report = Report::from_json(&String::from_utf8_lossy(&out.stdout)).unwrap();
    assert!(report.spin_ladder.is_some() && report.main_starvation.is_some());
    assert!(report.timed_waits.is_none() && report.wake_latency.is_none());
    assert!(report.cancel_waits.is_none() && report.periodic_work.is_none());
    assert!(report.concurrency_limit.is_none() && report.producer_consumer.is_none());
}

/// The run a link carries, read as the page reads it (unwrapped,
/// inflated, decoded by core).
fn read_link(link: &str) -> Report {
    let payload = waitlab_core::link::payloads(link)[0];
    let packed = waitlab_core::link::unwrap(payload).unwrap();
    let body = miniz_oxide::inflate::decompress_to_vec_with_limit(
        &packed,
        waitlab_core::link::MAX_BODY_BYTES,
    )
    .unwrap();
    waitlab_core::link::decode_body(&body).unwrap()
}

/// `--link PAGE` prints one line, a link on PAGE whose run the page
/// reads as native (its provenance travels with it), with what was run
/// and nothing else; `--link` alone, one on `cargo xtask serve`'s page.
/// (What a link past 2,000 characters says is the binary's unit test.)
#[test]
fn link_opens_as_a_native_run() {
    let ladder_link = |page: &[&str]| {
        let args = [
            "--quick",
            "--no-progress",
            "--only",
            "spin-ladder",
            "--link",
        ];
        cli(&[&args[..], page].concat())
    };
    let out = ladder_link(&["https://example.test/waitlab/"]);
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{stdout}");
    assert!(lines[0].starts_with("https://example.test/waitlab/#v1:"));
    assert!(lines[0].len() <= 2000, "{} characters", lines[0].len());
    assert!(!String::from_utf8_lossy(&out.stderr).contains("characters"));
    let report = read_link(lines[0]);
    let native = report.env.native.expect("the link keeps its provenance");
    assert_eq!(native.name, "Rust");
    assert!(
        matches!(native.source, waitlab_core::schema::Source::Command(_)),
        "a native program's run: {:?}",
        native.source
    );
    assert!(report.spin_ladder.is_some() && report.timed_waits.is_none());
    let out = ladder_link(&[]);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("http://127.0.0.1:8080/#v1:"));
}

/// `--trace`: the run's timeline in the Trace Event Format, a lane per
/// thread the experiment runs, each round's wait on the waiter's, each
/// signal a flow from the setter to the waiter.
#[test]
fn trace_writes_the_timeline() {
    let dir = std::env::temp_dir().join(format!("waitlab-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (out, trace) = (dir.join("run.json"), dir.join("run.trace.json"));
    let run = cli(&[
        "--quick",
        "--no-progress",
        "--only",
        "wake-latency",
        "--out",
        out.to_str().unwrap(),
        "--trace",
        trace.to_str().unwrap(),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let report = Report::from_json(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let rounds = report.wake_latency.unwrap().config.rounds as usize;
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).unwrap();
    let events = file["traceEvents"].as_array().unwrap();
    let threads: Vec<&str> = events
        .iter()
        .filter(|e| e["name"] == "thread_name")
        .filter_map(|e| e["args"]["name"].as_str())
        .collect();
    for lane in ["wake latency: setter", "wake latency: waiter"] {
        assert!(threads.contains(&lane), "{threads:?}");
    }
    let count = |ph: &str| events.iter().filter(|e| e["ph"] == ph).count();
    let ways = Strategy::NATIVE.len();
    assert_eq!(count("X"), 2 * rounds * ways, "a delay and a wait a round");
    assert_eq!((count("s"), count("f")), (rounds * ways, rounds * ways));
    assert!(String::from_utf8_lossy(&run.stderr).contains("timeline of"));
    std::fs::remove_dir_all(&dir).ok();
}
