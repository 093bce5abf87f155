//! The recipes the page shows beside each lesson (`www/recipes/`): the short
//! snippets a reader copies. The page displays each file as it is, so these
//! tests check the files themselves. Every Rust recipe is compiled in here as
//! a module and run with waits of a few tens of milliseconds, asserting what
//! its lesson promises (a timed wait never ends before its deadline, a
//! cancelled wait ends early, a semaphore never lets too many in, and so on)
//! rather than absolute timings, which a busy machine would break. The .NET
//! recipes are not compiled, since these machines have no .NET SDK: they are
//! checked as text for what can be checked without one (their length, their
//! balanced brackets, the API their lesson is about, and no `Thread.Sleep`).
//! Every lesson has a recipe in Rust, C# and JavaScript of at most
//! [`MAX_LINES`] lines, whose first line says where it runs.

#[path = "../../../www/recipes/timed_wait_minimum.rs"]
mod timed_wait_minimum;

#[path = "../../../www/recipes/await_done_no_yield.rs"]
mod await_done_no_yield;

#[path = "../../../www/recipes/sleep_vs_delay.rs"]
mod sleep_vs_delay;

#[path = "../../../www/recipes/never_block_main.rs"]
mod never_block_main;

#[path = "../../../www/recipes/spin_briefly.rs"]
mod spin_briefly;

#[path = "../../../www/recipes/signal_dont_poll.rs"]
mod signal_dont_poll;

#[path = "../../../www/recipes/cancel_through_wait.rs"]
mod cancel_through_wait;

#[path = "../../../www/recipes/periodic_no_drift.rs"]
mod periodic_no_drift;

#[path = "../../../www/recipes/limit_with_semaphore.rs"]
mod limit_with_semaphore;

#[path = "../../../www/recipes/hand_off_channel.rs"]
mod hand_off_channel;

#[path = "../../../www/recipes/keep_time_hidden.rs"]
mod keep_time_hidden;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use waitlab_core::summary::Lesson;
use waitlab_core::summary::recipe::{self, MAX_LINES, Platform, RunsOn};

const fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

fn recipes_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../www/recipes")
}

/// The recipes in the folder with extension `ext`, as (file name, text).
fn recipes_with(ext: &str) -> Vec<(String, String)> {
    let mut found: Vec<_> = std::fs::read_dir(recipes_dir())
        .expect("www/recipes exists")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == ext))
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&path).unwrap())
        })
        .collect();
    found.sort();
    found
}

/// A recipe's shape: at most [`MAX_LINES`] lines, ending with exactly one
/// newline, its first line a comment that says where it runs (a page, a
/// worker, an isolated page, a thread that may block).
fn check_shape(name: &str, text: &str) {
    let first = text.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("// ") && first.to_lowercase().contains("runs "),
        "{name} does not say first where it runs: {first}"
    );
    let lines = text.lines().count();
    assert!(
        lines <= MAX_LINES,
        "{name} has {lines} lines, more than {MAX_LINES}"
    );
    assert!(text.ends_with('\n'), "{name} does not end with a newline");
    assert!(!text.ends_with("\n\n"), "{name} ends with a blank line");
}

/// A timed wait never ends before its deadline, and the lateness it reports
/// is no more than the lateness measured after it returned.
#[test]
fn a_timed_wait_never_returns_before_its_deadline() {
    for wait in [0, 1, 2, 5, 15] {
        let deadline = Instant::now() + ms(wait);
        let late = timed_wait_minimum::sleep_until(deadline);
        let now = Instant::now();
        assert!(now >= deadline, "woke before a {wait} ms deadline");
        assert!(late <= now - deadline);
    }
    // A deadline already past: it returns at once, saying how late it is.
    let past = Instant::now();
    thread::sleep(ms(5));
    assert!(timed_wait_minimum::sleep_until(past) >= ms(5));
}

/// On a runtime of one thread, awaiting futures that are already ready lets
/// no other task run; the recipe's chunks, each followed by a yield, do.
#[tokio::test(flavor = "current_thread")]
async fn yielding_between_chunks_lets_other_tasks_run() {
    let ran = Arc::new(AtomicBool::new(false));
    let other = tokio::spawn({
        let ran = Arc::clone(&ran);
        async move { ran.store(true, Ordering::SeqCst) }
    });
    for _ in 0..100 {
        std::future::ready(()).await;
    }
    assert!(!ran.load(Ordering::SeqCst), "a ready future yielded");
    let items: Vec<u64> = (1..=100).collect();
    assert_eq!(
        await_done_no_yield::process_in_chunks(&items, 10).await,
        5050
    );
    assert!(
        ran.load(Ordering::SeqCst),
        "the chunks never let the other task run"
    );
    other.await.unwrap();
}

/// 50 tasks each awaiting 20 ms of timer, on one thread, take about one wait:
/// far less than half of 50 × 20 ms, and never less than 20 ms.
#[tokio::test(flavor = "current_thread")]
async fn a_batch_of_timer_waits_takes_about_one_wait() {
    let each = ms(20);
    let start = Instant::now();
    sleep_vs_delay::batch(50, each).await;
    let took = start.elapsed();
    assert!(took >= each, "the batch ended before its waits: {took:?}");
    assert!(
        took < each * 50 / 2,
        "the waits ran one after another: {took:?}"
    );
}

/// With the blocking call on a thread of its own, a runtime of one thread
/// still runs a short timer before the call ends; made on the runtime's
/// thread, the same call holds the timer up until it is done.
#[tokio::test(flavor = "current_thread")]
async fn blocking_work_off_the_runtime_leaves_it_free() {
    let blocking = 80;
    let ticker = || async {
        tokio::time::sleep(ms(5)).await;
        Instant::now()
    };
    let off = async {
        let got = never_block_main::blocking_off_the_runtime(blocking).await;
        (got, Instant::now())
    };
    let ((got, done), ticked) = tokio::join!(off, ticker());
    assert_eq!(got, blocking);
    assert!(ticked < done, "the timer waited for the blocking call");

    let on = async { (never_block_main::blocking_call(blocking), Instant::now()) };
    let ((got, done), ticked) = tokio::join!(on, ticker());
    assert_eq!(got, blocking);
    assert!(
        ticked >= done,
        "a call on the runtime's thread did not block it"
    );
}

/// A flag already set is seen while spinning; one set 30 ms later by another
/// thread finds the waiter parked (blocked), and its unpark wakes it.
#[test]
fn spin_briefly_spins_then_blocks_and_wakes() {
    assert!(spin_briefly::wait_for(&AtomicBool::new(true), 100));

    let flag = Arc::new(AtomicBool::new(false));
    let waiter = thread::spawn({
        let flag = Arc::clone(&flag);
        move || (spin_briefly::wait_for(&flag, 1000), Instant::now())
    });
    thread::sleep(ms(30));
    let set_at = Instant::now();
    flag.store(true, Ordering::Release);
    waiter.thread().unpark();
    let (spun, woke) = waiter.join().unwrap();
    assert!(!spun, "1000 spins outlasted 30 ms");
    assert!(woke >= set_at);
}

/// A waiter wakes after the notify, not before; a notify sent before the
/// wait is kept; with none, the wait gives up after its limit, not before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_notified_waiter_wakes_after_the_notify() {
    let signal = Arc::new(tokio::sync::Notify::new());
    let setter = tokio::spawn({
        let signal = Arc::clone(&signal);
        async move {
            tokio::time::sleep(ms(20)).await;
            let at = Instant::now();
            signal.notify_one();
            at
        }
    });
    assert!(signal_dont_poll::wait_for_signal(&signal, Duration::from_secs(10)).await);
    let woke = Instant::now();
    assert!(woke >= setter.await.unwrap(), "woke before the notify");

    signal.notify_one();
    assert!(signal_dont_poll::wait_for_signal(&signal, Duration::from_secs(10)).await);

    let start = Instant::now();
    assert!(!signal_dont_poll::wait_for_signal(&signal, ms(20)).await);
    assert!(start.elapsed() >= ms(20));
}

/// Cancelled after 20 ms, a 2 s wait ends early and says so; uncancelled,
/// a 20 ms wait runs to its end.
#[tokio::test(flavor = "current_thread")]
async fn cancelling_ends_the_wait_before_its_end() {
    let token = tokio_util::sync::CancellationToken::new();
    let canceller = tokio::spawn({
        let token = token.clone();
        async move {
            tokio::time::sleep(ms(20)).await;
            token.cancel();
        }
    });
    let full = Duration::from_secs(2);
    let start = Instant::now();
    assert!(cancel_through_wait::wait_or_cancel(full, &token).await);
    let took = start.elapsed();
    assert!(took >= ms(20), "ended before the cancel: {took:?}");
    assert!(took < full, "the cancel did not end the wait");
    canceller.await.unwrap();

    let start = Instant::now();
    let uncancelled = tokio_util::sync::CancellationToken::new();
    assert!(!cancel_through_wait::wait_or_cancel(ms(20), &uncancelled).await);
    assert!(start.elapsed() >= ms(20));
}

/// Tick k starts no earlier than start + k × period, and after 20 ticks of
/// work shorter than the period the schedule has not drifted by the work's
/// total time, as waiting a period after each piece of work would.
#[tokio::test(flavor = "current_thread")]
async fn periodic_ticks_keep_to_the_schedule() {
    let (period, work, ticks) = (ms(10), ms(6), 20);
    let mut starts = Vec::new();
    let start = Instant::now();
    periodic_no_drift::every(period, ticks, |k| {
        assert_eq!(k as usize, starts.len());
        starts.push(Instant::now());
        thread::sleep(work); // the work, blocking: the next tick must not wait for it
    })
    .await;
    assert_eq!(starts.len(), ticks as usize);
    for (k, at) in (0..).zip(&starts) {
        assert!(*at >= start + period * k, "tick {k} came early");
    }
    let last = starts[starts.len() - 1] - start;
    let drift = last.saturating_sub(period * (ticks - 1));
    assert!(drift < work * ticks, "drifted {drift:?} in {ticks} ticks");
}

/// 20 jobs through a gate of 3: never more than 3 inside at once, more than
/// one side by side, and every job runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_semaphore_never_lets_more_than_n_in() {
    let limit = 3;
    let inside = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let done = Arc::new(AtomicUsize::new(0));
    let jobs: Vec<_> = (0..20)
        .map(|_| {
            let (inside, most, done) = (Arc::clone(&inside), Arc::clone(&most), Arc::clone(&done));
            async move {
                let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                tokio::time::sleep(ms(5)).await;
                inside.fetch_sub(1, Ordering::SeqCst);
                done.fetch_add(1, Ordering::SeqCst);
            }
        })
        .collect();
    limit_with_semaphore::run_limited(jobs, limit).await;
    assert_eq!(done.load(Ordering::SeqCst), 20);
    let most = most.load(Ordering::SeqCst);
    assert!(
        most <= limit,
        "{most} jobs ran at once through a gate of {limit}"
    );
    assert!(most > 1, "the jobs ran one at a time");
}

/// The channel delivers every item, in order, also when a slow consumer
/// lets the bounded channel fill.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_channel_delivers_every_item_in_order() {
    let items: Vec<u64> = (0..1000).collect();
    let mut got = Vec::new();
    hand_off_channel::hand_off(items.clone(), |item| {
        if item == 0 {
            thread::sleep(ms(20)); // the producer fills the channel meanwhile
        }
        got.push(item);
    })
    .await;
    assert_eq!(got, items);
}

/// The ticker's ticks come in order, each no earlier than its due time on
/// the clock, and keep coming while the receiver waits.
#[test]
fn the_ticker_keeps_to_the_clock() {
    let period = ms(10);
    let start = Instant::now();
    let ticks = keep_time_hidden::ticker(period);
    for expected in 1..=10u32 {
        let tick = ticks.recv().expect("the ticker keeps ticking");
        assert_eq!(tick, expected);
        assert!(start.elapsed() >= period * tick, "tick {tick} came early");
    }
}

/// Every lesson has its recipe in Rust, C# and JavaScript, and every recipe
/// in the folder is at most 15 lines with no blank line at its end.
#[test]
fn every_recipe_is_short() {
    for lesson in Lesson::all() {
        for platform in Platform::ALL {
            let path = recipes_dir()
                .join("..")
                .join(recipe::path(lesson, platform));
            assert!(path.is_file(), "{lesson:?} has no {platform:?} recipe");
        }
    }
    for ext in Platform::ALL.map(Platform::extension) {
        for (name, text) in recipes_with(ext) {
            check_shape(&name, &text);
        }
    }
}

/// Each JavaScript recipe's first line says where it runs as its block
/// says it above the code (core's `runs_on`), and one that needs shared
/// memory stops at once where there is none, saying so first.
#[test]
fn the_javascript_recipes_say_first_where_they_run() {
    for lesson in Lesson::all() {
        let name = recipe::path(lesson, Platform::Js);
        let text = std::fs::read_to_string(recipes_dir().join("..").join(&name)).unwrap();
        let first = text.lines().next().unwrap_or_default();
        let (said, guarded) = match recipe::runs_on(lesson) {
            RunsOn::Anywhere => ("// Runs on any page and in any worker.", false),
            RunsOn::Worker => ("// Runs in a worker, on any page.", false),
            RunsOn::IsolatedPage => ("// Runs on a cross-origin isolated page", true),
            RunsOn::IsolatedWorker => ("// Runs in a worker of a cross-origin isolated page", true),
            RunsOn::AnywhereOrIsolated => ("// signal() runs on any page and in any worker;", true),
        };
        assert!(first.starts_with(said), "{name}: {first}");
        assert_eq!(
            text.contains("'needs a SharedArrayBuffer"),
            guarded,
            "{name}: a guard that names what it needs, where it needs shared memory"
        );
    }
}

/// The shape check refuses a recipe that does not say first where it runs.
#[test]
#[should_panic(expected = "does not say first where it runs")]
fn a_recipe_that_does_not_say_where_it_runs_is_refused() {
    check_shape("planted.js", "// A planted recipe.\nexport const x = 1;\n");
}

/// The API each lesson's C# recipe is about: its text names one of them.
const DOTNET_APIS: [(&str, &[&str]); 11] = [
    ("timed_wait_minimum", &["Task.Delay"]),
    ("await_done_no_yield", &["Task.Yield"]),
    ("sleep_vs_delay", &["Task.WhenAll"]),
    ("never_block_main", &["Task.Run"]),
    ("spin_briefly", &["ManualResetEventSlim", "SpinWait"]),
    ("signal_dont_poll", &["TaskCompletionSource"]),
    ("cancel_through_wait", &["CancellationToken"]),
    ("periodic_no_drift", &["PeriodicTimer"]),
    ("limit_with_semaphore", &["SemaphoreSlim"]),
    ("hand_off_channel", &["Channel.Create"]),
    ("keep_time_hidden", &["PeriodicTimer"]),
];

/// Whether (), {} and [] pair up in C# source, outside comments, strings and
/// character literals. A sketch of C#'s lexer: enough for short snippets
/// (an interpolated string's holes are skipped with the string).
fn brackets_balance(source: &str) -> Result<(), String> {
    let chars: Vec<char> = source.chars().collect();
    let mut open = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let rest = &chars[i..];
        match rest {
            ['/', '/', ..] => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            ['/', '*', ..] => {
                i += 2;
                while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                    i += 1;
                }
                i += 1;
            }
            ['"', ..]
            | ['\'', ..]
            | ['$' | '@', '"', ..]
            | ['$', '@', '"', ..]
            | ['@', '$', '"', ..] => {
                let quote_at = rest.iter().position(|&c| c == '"' || c == '\'').unwrap();
                let quote = rest[quote_at];
                let verbatim = rest[..quote_at].contains(&'@');
                i += quote_at + 1;
                loop {
                    match chars.get(i) {
                        None => return Err("a string never ends".to_owned()),
                        Some('\\') if !verbatim => i += 1,
                        Some(&c) if c == quote => {
                            if verbatim && chars.get(i + 1) == Some(&'"') {
                                i += 1;
                            } else {
                                break;
                            }
                        }
                        Some('\n') if !verbatim => {
                            return Err("a string runs past its line".to_owned());
                        }
                        Some(_) => {}
                    }
                    i += 1;
                }
            }
            [c @ ('(' | '{' | '['), ..] => open.push(*c),
            [c @ (')' | '}' | ']'), ..] => {
                let want = match c {
                    ')' => '(',
                    '}' => '{',
                    _ => '[',
                };
                if open.pop() != Some(want) {
                    return Err(format!("'{c}' at character {i} closes nothing open"));
                }
            }
            _ => {}
        }
        i += 1;
    }
    match open.last() {
        Some(c) => Err(format!("'{c}' is never closed")),
        None => Ok(()),
    }
}

/// The C# recipes, which nothing here can compile: each is short, ends with
/// a newline, pairs its brackets, names its lesson's API and never calls
/// `Thread.Sleep`.
#[test]
fn dotnet_recipes_are_well_formed() {
    // The bracket check itself, on what it must accept and refuse.
    assert!(brackets_balance("f(\"}\", '{', @\"a\"\"(\"); // )\n/* ] */ { a[0]; }").is_ok());
    assert!(brackets_balance("{ (} )").is_err());
    assert!(brackets_balance("{ f(); ").is_err());

    let recipes = recipes_with("cs");
    assert_eq!(
        recipes.len(),
        Lesson::all().len(),
        "one C# recipe per lesson"
    );
    for (name, text) in &recipes {
        check_shape(name, text);
        brackets_balance(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            !text.contains("Thread.Sleep("),
            "{name} blocks a thread to wait"
        );
        let id = name.trim_end_matches(".cs");
        let (_, apis) = DOTNET_APIS
            .iter()
            .find(|(lesson, _)| *lesson == id)
            .unwrap_or_else(|| panic!("{name} is no lesson's recipe"));
        assert!(
            apis.iter().any(|api| text.contains(api)),
            "{name} names none of {apis:?}"
        );
    }
}
