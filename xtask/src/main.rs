//! `cargo xtask serve|test|dist|bench|native`: waitlab's automation, in Rust.
//!
//! Every subcommand first installs what it needs and is missing, from the
//! Rust, npm and Debian registries only (never a prebuilt download), so the
//! README's two commands work on a fresh machine. Installed tools are reused
//! from `~/.cargo/bin` and `~/.cache/waitlab`.

mod packs;
mod shell;
mod tools;
mod weight;

#[cfg(test)]
mod tidy;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

type Result<T = ()> = std::result::Result<T, String>;

const HELP: &str = "\
usage: cargo xtask <command>

commands:
  serve   build the app (release) and serve it on http://127.0.0.1:8080
          with cross-origin isolation headers
  test    every check and test: fmt, clippy, core unit tests, tidy,
          browser tests in headless Chromium and Firefox, end-to-end tests
  dist    write a static build to dist/ (with a _headers file for COOP/COEP)
  bench   page weight (gzip and brotli of a first load, gated) and where
          the wasm's bytes go, first paint and Run usable, noise and
          fidelity ratios against a raw-JS probe, event wake, the suite's
          wall time, and the wall time of a default native run
  native  run waitlab-native with its defaults and write this machine's
          set to www/data/native/ (listed in its index.json), then its packs
  packs   write the packs the page loads (www/data/native/packs/) from the
          JSON sets listed in www/data/native/index.json
  shell   write index.html's static shell (headings and explanations shown
          before the wasm starts) from www/i18n/en.json (the page's texts)
";

fn main() -> ExitCode {
    let arg = std::env::args().nth(1);
    let result = match arg.as_deref() {
        Some("serve") => serve(),
        Some("test") => test(),
        Some("dist") => dist().map(|_| ()),
        Some("bench") => bench(),
        Some("native") => native(),
        Some("packs") => packs::write(),
        Some("shell") => shell::write(),
        Some("-h" | "--help" | "help") => {
            print!("{HELP}");
            Ok(())
        }
        _ => {
            eprint!("{HELP}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root (the parent of this crate's folder).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives inside the workspace")
        .to_path_buf()
}

/// Runs a command in the workspace root, failing on a non-zero exit.
fn run(cmd: &mut Command) -> Result {
    Lane::MAIN.run(cmd)
}

/// Where a group of commands builds and writes its output: the default
/// target directory and xtask's own terminal, or (for the lane that runs
/// beside the release build) a target directory and a log of its own, so
/// the two lanes' cargo invocations never wait on each other's lock and
/// their output does not interleave.
#[derive(Clone, Copy)]
struct Lane<'a> {
    target_dir: Option<&'a Path>,
    log: Option<&'a std::fs::File>,
}

impl Lane<'_> {
    const MAIN: Lane<'static> = Lane {
        target_dir: None,
        log: None,
    };

    fn run(&self, cmd: &mut Command) -> Result {
        use std::io::Write;
        if let Some(dir) = self.target_dir {
            cmd.env("CARGO_TARGET_DIR", dir);
        }
        let shown = format!("{cmd:?}").replace('"', "");
        match self.log {
            Some(mut log) => {
                // A lost line of the log is no reason to fail the command.
                let _ = writeln!(log, "xtask: $ {shown}");
                let out = log.try_clone().map_err(|e| format!("log: {e}"))?;
                let err = log.try_clone().map_err(|e| format!("log: {e}"))?;
                cmd.stdout(out).stderr(err);
            }
            None => eprintln!("xtask: $ {shown}"),
        }
        let status = cmd
            .current_dir(root())
            .status()
            .map_err(|e| format!("could not start {shown}: {e}"))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("{shown} failed ({status})"))
        }
    }
}

/// The packages built for wasm32 only: the app and the browser glue.
const WASM_ONLY: [&str; 2] = ["waitlab", "waitlab-browser"];

fn cargo() -> Command {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
}

/// A trunk command with the pinned tools on PATH and the version check off.
fn trunk(args: &[&str]) -> Result<Command> {
    let mut cmd = Command::new(tools::ensure_build_tools()?);
    cmd.args(args)
        .env("PATH", tools::path_with_tools())
        .env("TRUNK_SKIP_VERSION_CHECK", "true");
    Ok(cmd)
}

fn serve() -> Result {
    run(cargo().args(["fetch"]))?;
    eprintln!("xtask: building, then serving waitlab at http://127.0.0.1:8080/ (Ctrl-C stops)");
    run(&mut trunk(&["serve", "--release"])?)
}

/// Builds the release app into `dist/` and returns its path.
fn dist() -> Result<PathBuf> {
    run(cargo().args(["fetch"]))?;
    run(&mut trunk(&["build", "--release"])?)?;
    let dist = root().join("dist");
    if !dist.join("_headers").is_file() {
        return Err("dist/_headers is missing after the build".into());
    }
    eprintln!("xtask: wrote {}", dist.display());
    Ok(dist)
}

/// Why a phase did not run.
const NOT_RUN: &str = "not run, an earlier phase failed";

/// The wall time of each phase of a run, printed at its end (also when a
/// phase fails, so a slow or failing step is easy to find). A phase is
/// skipped once `stop` is set: a phase failed, here or in the other lane.
struct Phases<'a> {
    rows: Vec<(String, f64)>,
    stop: &'a AtomicBool,
}

impl<'a> Phases<'a> {
    fn new(stop: &'a AtomicBool) -> Self {
        Phases {
            rows: Vec::new(),
            stop,
        }
    }

    /// Runs one phase and records how long it took.
    fn run(&mut self, name: &str, f: impl FnOnce() -> Result) -> Result {
        if self.stop.load(Ordering::Relaxed) {
            return Err(format!("{name}: {NOT_RUN}"));
        }
        let started = Instant::now();
        let result = f();
        self.rows
            .push((name.to_owned(), started.elapsed().as_secs_f64()));
        if result.is_err() {
            self.stop.store(true, Ordering::Relaxed);
        }
        result
    }

    /// Records the phases of a lane that ran beside others, indented
    /// under `lane`.
    fn lane(&mut self, lane: &str, phases: Phases) {
        self.rows.extend(
            phases
                .rows
                .into_iter()
                .map(|(name, secs)| (format!("  {lane}: {name}"), secs)),
        );
    }

    fn print(&self, wall: f64) {
        eprintln!("xtask: phases (the two lanes ran at the same time)");
        for (name, secs) in &self.rows {
            eprintln!("  {name:<58} {secs:>7.1} s");
        }
        eprintln!("  {:<58} {wall:>7.1} s", "total, wall time");
    }
}

fn test() -> Result {
    let started = Instant::now();
    let stop = AtomicBool::new(false);
    let mut phases = Phases::new(&stop);
    let result = test_phases(&mut phases);
    phases.print(started.elapsed().as_secs_f64());
    result?;
    eprintln!("xtask: all tests passed");
    Ok(())
}

/// The checks lane's target directory: its own, so that it builds while
/// the release build holds the default one's lock.
fn checks_target() -> PathBuf {
    root().join("target").join("checks")
}

/// fmt, the tools, then two lanes at the same time (2 cores: each lane's
/// serial stretches, such as the release build's link and wasm-opt, leave
/// a core to the other), then the end-to-end suite against the build.
fn test_phases(phases: &mut Phases) -> Result {
    phases.run("fmt --check", || {
        run(cargo().args(["fmt", "--all", "--", "--check"]))
    })?;
    let mut browsers = None;
    phases.run("tools, browsers and drivers", || {
        run(cargo().args(["fetch"]))?;
        browsers = Some(tools::ensure_browsers()?);
        Ok(())
    })?;
    let browsers = browsers.expect("set by its phase");
    let checks_dir = checks_target();
    std::fs::create_dir_all(&checks_dir).map_err(|e| format!("{}: {e}", checks_dir.display()))?;
    let log_path = checks_dir.join("lane.log");
    let log =
        std::fs::File::create(&log_path).map_err(|e| format!("{}: {e}", log_path.display()))?;
    let checks = Lane {
        target_dir: Some(&checks_dir),
        log: Some(&log),
    };
    let mut dist_path = PathBuf::new();
    let stop = phases.stop;
    let (release, host) = std::thread::scope(|scope| {
        let host = scope.spawn(|| {
            let mut lane = Phases::new(stop);
            let result = checks_lane(&mut lane, checks, &browsers);
            (lane, result)
        });
        let mut lane = Phases::new(stop);
        let result = release_lane(&mut lane, &mut dist_path);
        (
            (lane, result),
            host.join().expect("the checks lane does not panic"),
        )
    });
    eprintln!("xtask: the checks lane's output ({}):", log_path.display());
    std::io::copy(
        &mut std::fs::File::open(&log_path).map_err(|e| e.to_string())?,
        &mut std::io::stderr(),
    )
    .map_err(|e| e.to_string())?;
    phases.lane("release", release.0);
    phases.lane("checks", host.0);
    // Each lane stops at its first error; a lane that stopped because the
    // other failed says so, and only the failures are reported.
    let failures: Vec<String> = [release.1, host.1]
        .into_iter()
        .filter_map(Result::err)
        .filter(|e| !e.ends_with(NOT_RUN))
        .collect();
    if !failures.is_empty() {
        return Err(failures.join("; "));
    }
    // End to end: the built dist in real browsers, with and without
    // isolation. The suite's own harness runs the tests that measure
    // nothing three at a time, then the ones that measure alone; its
    // binary was built by the checks lane.
    phases.run("end to end (Chromium, Firefox, WebKit)", || {
        let lane = Lane {
            log: None,
            ..checks
        };
        lane.run(&mut e2e(&dist_path, &browsers, false, &[] as &[&str]))
    })
}

/// The Leptos tree for wasm32, in the release profile throughout, so that
/// the host proc macros and build scripts that clippy and rustdoc need are
/// the ones the release build then links (its `--package waitlab` has the
/// release build's features: no dev-dependencies come in).
fn release_lane(phases: &mut Phases, dist_path: &mut PathBuf) -> Result {
    phases.run("clippy (wasm32, release: app, browser glue, core)", || {
        run(cargo()
            .args(["clippy", "--release", "--package", "waitlab"])
            .args(["--target", "wasm32-unknown-unknown", "--all-targets"])
            .args(["--", "-D", "warnings"]))
    })?;
    phases.run("docs (wasm32: app, browser glue)", || {
        run(cargo()
            .args(["doc", "--release", "--no-deps"])
            .args(["--target", "wasm32-unknown-unknown"])
            .args(WASM_ONLY.iter().flat_map(|p| ["--package", p]))
            .env("RUSTDOCFLAGS", "-D warnings"))
    })?;
    phases.run("release build (trunk)", || {
        *dist_path = dist()?;
        Ok(())
    })
}

/// Everything that needs no release build, in its own target directory:
/// the host crates' clippy, docs and tests, the browser glue's tests for
/// wasm32 (clippy, then wasm-bindgen-test in both browsers), and the
/// end-to-end suite's binary.
fn checks_lane(phases: &mut Phases, lane: Lane, browsers: &tools::Browsers) -> Result {
    phases.run("clippy (host: core, native, e2e, xtask)", || {
        lane.run(
            cargo()
                .args(["clippy", "--workspace"])
                .args(WASM_ONLY.iter().flat_map(|p| ["--exclude", p]))
                .args(["--all-targets", "--", "-D", "warnings"]),
        )
    })?;
    phases.run("docs (host)", || {
        lane.run(
            cargo()
                .args(["doc", "--workspace", "--no-deps"])
                .args(WASM_ONLY.iter().flat_map(|p| ["--exclude", p]))
                .env("RUSTDOCFLAGS", "-D warnings"),
        )
    })?;
    // Core unit and golden tests, the native probe's CLI and bundled-set
    // tests, the tidy checks, and the end-to-end crate's own unit tests
    // (its server and client).
    phases.run("unit, golden, native CLI and tidy tests", || {
        lane.run(
            cargo()
                .args(["test", "--workspace"])
                .args(WASM_ONLY.iter().flat_map(|p| ["--exclude", p]))
                .args(["--exclude", "waitlab-e2e"]),
        )?;
        lane.run(cargo().args(["test", "--package", "waitlab-e2e", "--lib"]))?;
        lane.run(cargo().args([
            "test",
            "--package",
            "waitlab-e2e",
            "--test",
            "e2e",
            "--no-run",
        ]))
    })?;
    const BROWSER_TESTS: [&str; 8] = [
        "--package",
        "waitlab-browser",
        "--target",
        "wasm32-unknown-unknown",
        "--test",
        "browser",
        "--test",
        "in_worker",
    ];
    phases.run("clippy (wasm32: the browser glue's tests)", || {
        lane.run(
            cargo()
                .arg("clippy")
                .args(BROWSER_TESTS)
                .args(["--", "-D", "warnings"]),
        )
    })?;
    // Browser-layer tests under wasm-bindgen-test-runner, in both browsers.
    for (phase, var, driver) in [
        (
            "wasm-bindgen tests, Chromium",
            "CHROMEDRIVER",
            &browsers.chromedriver,
        ),
        (
            "wasm-bindgen tests, Firefox",
            "GECKODRIVER",
            &browsers.geckodriver,
        ),
    ] {
        phases.run(phase, || {
            lane.run(
                cargo()
                    .arg("test")
                    .args(BROWSER_TESTS)
                    .env("PATH", tools::path_with_tools())
                    .env(var, driver),
            )
        })?;
    }
    Ok(())
}

/// Builds the native probe (release) and runs it with its defaults from
/// the workspace root, writing its result to `out` (relative to the root).
/// Returns the run's wall time in seconds.
fn run_native(out: &str) -> Result<f64> {
    run(cargo().args(["build", "--release", "--package", "waitlab-native"]))?;
    let exe = root().join("target/release/waitlab-native");
    let started = Instant::now();
    run(Command::new(exe).arg("--out").arg(out).current_dir(root()))?;
    Ok(started.elapsed().as_secs_f64())
}

/// `cargo xtask native`: rewrites this machine's set,
/// `www/data/native/rust-<os>-<arch>.json`, and lists it in the index if
/// it is new.
fn native() -> Result {
    let name = format!(
        "rust-{}-{}.json",
        std::env::consts::OS,
        std::env::consts::ARCH
    );
    let out = format!("www/data/native/{name}");
    let seconds = run_native(&out)?;
    let index_path = root().join("www/data/native/index.json");
    let index = std::fs::read_to_string(&index_path)
        .map_err(|e| format!("{}: {e}", index_path.display()))?;
    if let Some(updated) = with_set(&index, &name)? {
        std::fs::write(&index_path, updated).map_err(|e| e.to_string())?;
        println!("xtask: added {name} to {}", index_path.display());
    }
    println!("xtask: wrote {out} in {seconds:.1} s");
    packs::write()
}

/// The index text with `file` appended to its sets (in the layout the
/// committed index uses), or `None` if it already lists it.
fn with_set(index: &str, file: &str) -> Result<Option<String>> {
    if index.contains(&format!("\"{file}\"")) {
        return Ok(None);
    }
    let (head, tail) = index
        .rsplit_once("\n  ]")
        .ok_or("www/data/native/index.json: no sets list to add to")?;
    let comma = if head.trim_end().ends_with('[') {
        ""
    } else {
        ","
    };
    Ok(Some(format!(
        "{head}{comma}\n    {{ \"file\": \"{file}\" }}\n  ]{tail}"
    )))
}

fn bench() -> Result {
    println!("== share-link decoder under hostile input ==");
    run(cargo().args([
        "test",
        "--release",
        "--quiet",
        "--package",
        "waitlab-core",
        "--lib",
        "--",
        "--ignored",
        "--nocapture",
        "bench_hostile_payloads_million",
    ]))?;
    println!("== native probe (waitlab-native, defaults) ==");
    let seconds = run_native("target/native-bench.json")?;
    println!("  default native run {seconds:>13.1} s (goal <= 30 s)");
    let dist = dist()?;
    let browsers = tools::ensure_browsers()?;
    tools::ensure_brotli()?;
    let over = weight::report(&dist)?;
    weight::contributors()?;
    let browser_benches = run(&mut e2e(&dist, &browsers, true, &["--ignored", "bench_"]));
    if !over.is_empty() {
        return Err(format!("page weight over budget: {}", over.join("; ")));
    }
    browser_benches
}

/// The end-to-end suite against `dist`, with libtest's `extra` arguments
/// (a filter, `--skip`, `--ignored`); `release` for benchmarks. With WebKit it
/// runs under `xvfb-run`, since WebKitGTK needs a display; without, it
/// says why in one line and the WebKit tests say they did not run.
fn e2e(
    dist: &Path,
    browsers: &tools::Browsers,
    release: bool,
    extra: &[impl AsRef<std::ffi::OsStr>],
) -> Command {
    let mut cmd = match &browsers.webkit {
        Ok(_) => {
            let mut xvfb = Command::new("xvfb-run");
            xvfb.args(["-a", "-s", "-screen 0 1280x1800x24"])
                .arg(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
            xvfb
        }
        Err(why) => {
            eprintln!("xtask: WebKit: not tested here: {why}");
            cargo()
        }
    };
    cmd.args(["test", "--package", "waitlab-e2e", "--test", "e2e"]);
    if release {
        cmd.arg("--release");
    }
    cmd.arg("--")
        .args(extra)
        .env("WAITLAB_DIST", dist)
        .env("CHROMEDRIVER", &browsers.chromedriver)
        .env("GECKODRIVER", &browsers.geckodriver)
        .env("WAITLAB_AXE", &browsers.axe);
    if let Ok(webkit) = &browsers.webkit {
        cmd.env("WEBKITDRIVER", &webkit.driver)
            .env("WAITLAB_MINIBROWSER", &webkit.minibrowser);
    }
    cmd
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_new_set_is_listed_once() {
        let index = "{\n  \"sets\": [\n    { \"file\": \"a.json\" }\n  ]\n}\n";
        let updated = super::with_set(index, "b.json").unwrap().unwrap();
        assert_eq!(
            updated,
            "{\n  \"sets\": [\n    { \"file\": \"a.json\" },\n    { \"file\": \"b.json\" }\n  ]\n}\n"
        );
        assert_eq!(super::with_set(&updated, "b.json").unwrap(), None);
        let empty = "{\n  \"sets\": [\n  ]\n}\n";
        assert!(
            super::with_set(empty, "b.json")
                .unwrap()
                .unwrap()
                .contains("[\n    { \"file\": \"b.json\" }\n  ]")
        );
    }
}
