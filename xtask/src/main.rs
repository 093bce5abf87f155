//! `cargo xtask serve|test|dist|bench|native`: waitlab's automation, in Rust.
//!
//! Every subcommand first installs what it needs and is missing, from the
//! Rust, npm and Debian registries only (never a prebuilt download), so the
//! README's two commands work on a fresh machine. Installed tools are reused
//! from `~/.cargo/bin` and `~/.cache/waitlab`.

mod catalogs;
mod facade;
mod gallery;
mod headers;
#[cfg(test)]
mod imports;
mod oembed;
mod packs;
mod post_build;
mod shell;
mod split;
mod tools;
mod weight;

#[cfg(test)]
mod tidy;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
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
  gallery run every experiment with its defaults in Chromium, Firefox and
          WebKitGTK under WebDriver and write each as a bundled set in
          www/data/native/ (listed, not shown at first), then the packs
  packs   write the packs the page loads (www/data/native/packs/) from the
          JSON sets listed in www/data/native/index.json
  shell   write index.html's static shell (headings and explanations shown
          before the wasm starts) from the English page texts
          (www/i18n/en.json and each experiment's www/i18n/ID/en.json)
  post-build trunk's post-build hook: split the app's wasm into a main
          module and chunks loaded on demand, minify a release build's
          scripts (terser), and their integrity in index.html
";

fn main() -> ExitCode {
    let arg = std::env::args().nth(1);
    let result = match arg.as_deref() {
        Some("serve") => serve(),
        Some("test") => test(),
        Some("dist") => dist(None).map(|_| ()),
        Some("bench") => bench(),
        Some("native") => native(),
        Some("gallery") => gallery::write(),
        Some("packs") => packs::write(),
        Some("shell") => shell::write(),
        Some("post-build") => post_build::hook(),
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

thread_local! {
    /// Where this thread's commands write their output, if they run beside
    /// other work (see [`beside`]).
    static BESIDE: std::cell::RefCell<Option<std::fs::File>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` as work beside other work: the output and command lines of
/// every command it runs go to the file at `path` instead of interleaving
/// with the other work's.
fn beside<T>(path: &Path, f: impl FnOnce() -> Result<T>) -> Result<T> {
    let file =
        std::fs::File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    BESIDE.with(|log| *log.borrow_mut() = Some(file));
    let result = f();
    BESIDE.with(|log| *log.borrow_mut() = None);
    result
}

/// Runs a command in the workspace root, failing on a non-zero exit.
fn run(cmd: &mut Command) -> Result {
    let shown = format!("{cmd:?}").replace('"', "");
    BESIDE.with(|log| -> Result {
        let log = log.borrow();
        let Some(file) = log.as_ref() else {
            eprintln!("xtask: $ {shown}");
            return Ok(());
        };
        let copy = || file.try_clone().map_err(|e| e.to_string());
        writeln!(&*file, "xtask: $ {shown}").map_err(|e| e.to_string())?;
        cmd.stdout(copy()?).stderr(copy()?);
        Ok(())
    })?;
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

/// Builds the app's and the worker's release wasm in one cargo run, so
/// their link-time optimisations run side by side (trunk builds one bin
/// after the other, and its own builds then find both fresh: about 14 s
/// of a cold build).
fn prebuild() -> Result {
    run(cargo().args(["fetch"]))?;
    tools::ensure_wasm_target()?;
    run(cargo().args([
        "build",
        "--offline",
        "--release",
        "--target",
        "wasm32-unknown-unknown",
        "--bins",
    ]))
}

fn serve() -> Result {
    prebuild()?;
    eprintln!("xtask: building, then serving waitlab at http://127.0.0.1:8080/ (Ctrl-C stops)");
    run(&mut trunk(&["serve", "--release"])?)
}

/// Builds the release app into `dist/` and returns its path: for the site
/// at `site`, or else where `WAITLAB_SITE_URL` says (`oembed.rs`).
fn dist(site: Option<&str>) -> Result<PathBuf> {
    prebuild()?;
    let mut build = trunk(&["build", "--release"])?;
    if let Some(site) = site {
        build.env(oembed::SITE_URL_VAR, site);
    }
    run(&mut build)?;
    let dist = root().join("dist");
    if !dist.join("_headers").is_file() {
        return Err("dist/_headers is missing after the build".into());
    }
    eprintln!("xtask: wrote {}", dist.display());
    Ok(dist)
}

/// The wall time of each phase of a run, printed at its end (also when a
/// phase fails, so a slow or failing step is easy to find). A phase that
/// ran beside the others is marked so; the total is the run's wall time.
struct Phases {
    started: Instant,
    done: Vec<(&'static str, f64, bool)>,
}

impl Phases {
    fn new() -> Phases {
        Phases {
            started: Instant::now(),
            done: Vec::new(),
        }
    }

    /// Runs one phase and records how long it took.
    fn run(&mut self, name: &'static str, f: impl FnOnce() -> Result) -> Result {
        let started = Instant::now();
        let result = f();
        self.done
            .push((name, started.elapsed().as_secs_f64(), false));
        result
    }

    /// Records a phase that ran beside the others and took `secs`.
    fn beside(&mut self, name: &'static str, secs: f64) {
        self.done.push((name, secs, true));
    }

    fn print(&self) {
        eprintln!("xtask: phases");
        for (name, secs, beside) in &self.done {
            let mark = if *beside { "  (beside the checks)" } else { "" };
            eprintln!("  {name:<44} {secs:>7.1} s{mark}");
        }
        let total = self.started.elapsed().as_secs_f64();
        eprintln!("  {:<44} {total:>7.1} s", "total (wall)");
    }
}

fn test() -> Result {
    let mut phases = Phases::new();
    let result = test_phases(&mut phases);
    phases.print();
    result?;
    eprintln!("xtask: all tests passed");
    Ok(())
}

fn test_phases(phases: &mut Phases) -> Result {
    phases.run("fmt --check", || {
        run(cargo().args(["fmt", "--all", "--", "--check"]))
    })?;
    // The release build (and the tools it installs) runs beside the checks
    // and the unit and browser-layer tests: it builds in target/release,
    // they in target/debug, so cargo lets both run, and each fills the
    // other's single-core stretches (link-time optimisation, the Leptos
    // crates' serial chain, tests that wait). Neither is niced: niced, the
    // release build waited for the checks and then ran its single-core
    // tail alone (294 s against the checks' 219 s). Its output goes to a
    // log, printed if it fails.
    let log = root().join("target/xtask-release-build.log");
    std::fs::create_dir_all(root().join("target")).map_err(|e| e.to_string())?;
    let (checks, built) = std::thread::scope(|scope| {
        let release = scope.spawn(|| {
            let started = Instant::now();
            let dist = beside(&log, || dist(Some(oembed::TEST_SITE_URL)));
            (dist, started.elapsed().as_secs_f64())
        });
        eprintln!(
            "xtask: the release build runs beside the checks; its output: {}",
            log.display()
        );
        // The browsers, their drivers and the pages' scripts install
        // beside both (on a fresh machine mostly downloads, which the
        // compilers' work hides); the checks wait for them only where the
        // browser-layer tests start.
        let installs = root().join("target/xtask-browsers.log");
        let browsers = scope.spawn(move || {
            let started = Instant::now();
            let browsers = beside(&installs, tools::ensure_browsers);
            (browsers, started.elapsed().as_secs_f64(), installs)
        });
        let checks = check_phases(phases, || {
            let (browsers, secs, installs) = browsers.join().expect("the browsers' thread");
            browsers.map(|b| (b, secs)).map_err(|e| {
                let out = std::fs::read_to_string(&installs).unwrap_or_default();
                eprintln!("{out}");
                format!("installing the browsers failed: {e} (its output is above)")
            })
        });
        (checks, release.join().expect("the release build's thread"))
    });
    let (dist_path, secs) = built;
    phases.beside("release build (trunk)", secs);
    let browsers = checks?;
    let dist_path = dist_path.map_err(|e| {
        let out = std::fs::read_to_string(&log).unwrap_or_default();
        eprintln!("{out}");
        format!("the release build failed: {e} (its output is above)")
    })?;
    // End to end: the built dist in real browsers, with and without
    // isolation. The suite's own harness runs the tests that measure
    // nothing three at a time, then the ones that measure alone.
    phases.run("end to end (Chromium, Firefox, WebKit)", || {
        run(&mut e2e(&dist_path, &browsers, false, &[] as &[&str]))
    })
}

/// Where the native probe's quick run writes its timeline, which the
/// end-to-end suite opens in speedscope beside the page's.
fn native_trace() -> PathBuf {
    root().join("target/native-quick.trace.json")
}

/// What runs beside the release build: clippy, docs, the unit, golden,
/// native CLI and tidy tests, and the browser-layer tests (none of them
/// needs the release build). `browsers` waits for the browsers installing
/// beside (and how long they took); returns them, for the end-to-end
/// tests.
fn check_phases(
    phases: &mut Phases,
    browsers: impl FnOnce() -> Result<(tools::Browsers, f64)>,
) -> Result<tools::Browsers> {
    phases.run("clippy (host: core, native, e2e, xtask)", || {
        run(cargo()
            .args(["clippy", "--workspace"])
            .args(WASM_ONLY.iter().flat_map(|p| ["--exclude", p]))
            .args(["--all-targets", "--", "-D", "warnings"]))?;
        // The end-to-end binary is `test = false` (it needs the dist), so
        // `--all-targets` passes it by: it is named.
        run(cargo()
            .args(["clippy", "--package", "waitlab-e2e", "--test", "e2e"])
            .args(["--", "-D", "warnings"]))
    })?;
    let mut installed = None;
    phases.run("waiting for the browsers and drivers", || {
        installed = Some(browsers()?);
        Ok(())
    })?;
    let (browsers, secs) = installed.expect("set by its phase");
    phases.beside("browsers and drivers (installed)", secs);
    // Browser-layer tests under wasm-bindgen-test-runner, in both browsers.
    // They run early: while a browser runs them, the release build beside
    // takes the other core, where at the end they would leave it idle.
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
            let mut cmd = cargo();
            cmd.args([
                "test",
                "--package",
                "waitlab-browser",
                "--target",
                "wasm32-unknown-unknown",
                "--test",
                "browser",
                "--test",
                "in_worker",
            ])
            .env("PATH", tools::path_with_tools())
            .env(var, driver);
            run(&mut cmd)
        })?;
    }
    // Core unit and golden tests, the native probe's CLI and bundled-set
    // tests, the tidy checks and the end-to-end crate's own unit tests (its
    // server and client). The end-to-end suite needs the built dist (it is
    // `test = false`): it runs after the release build.
    phases.run("unit, golden, native CLI and tidy tests", || {
        run(cargo()
            .args(["test", "--workspace"])
            .args(WASM_ONLY.iter().flat_map(|p| ["--exclude", p])))
    })?;
    phases.run("native probe, --quick --trace", || {
        let out = root().join("target/native-quick.json");
        run(cargo()
            .args(["run", "--quiet", "--package", "waitlab-native", "--"])
            .args(["--quick", "--no-progress", "--out"])
            .arg(&out)
            .arg("--trace")
            .arg(native_trace()))
    })?;
    // The app and the browser glue are wasm-only: they are checked for
    // wasm32 alone, so the Leptos tree is compiled twice in all (checked
    // for wasm32 here, built for release by trunk) and never for the host.
    phases.run("clippy (wasm32: app, browser glue, core)", || {
        tools::ensure_wasm_target()?;
        run(cargo()
            .arg("clippy")
            .args(WASM_ONLY.iter().flat_map(|p| ["--package", p]))
            .args(["--package", "waitlab-core"])
            .args(["--target", "wasm32-unknown-unknown", "--all-targets"])
            .args(["--", "-D", "warnings"]))
    })?;
    phases.run("docs", || {
        run(cargo()
            .args(["doc", "--workspace", "--no-deps"])
            .args(WASM_ONLY.iter().flat_map(|p| ["--exclude", p]))
            .env("RUSTDOCFLAGS", "-D warnings"))?;
        run(cargo()
            .args(["doc", "--no-deps", "--target", "wasm32-unknown-unknown"])
            .args(WASM_ONLY.iter().flat_map(|p| ["--package", p]))
            .env("RUSTDOCFLAGS", "-D warnings"))
    })?;
    Ok(browsers)
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
    if let Some(updated) = with_set(&index, &name, true)? {
        std::fs::write(&index_path, updated).map_err(|e| e.to_string())?;
        println!("xtask: added {name} to {}", index_path.display());
    }
    println!("xtask: wrote {out} in {seconds:.1} s");
    packs::write()
}

/// The index text with `file` appended to its sets (in the layout the
/// committed index uses; `shown` at first or not), or `None` if it already
/// lists it.
fn with_set(index: &str, file: &str, shown: bool) -> Result<Option<String>> {
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
    let hidden = if shown { "" } else { ", \"shown\": false" };
    Ok(Some(format!(
        "{head}{comma}\n    {{ \"file\": \"{file}\"{hidden} }}\n  ]{tail}"
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
    let dist = dist(Some(oembed::TEST_SITE_URL))?;
    let browsers = tools::ensure_browsers()?;
    tools::ensure_brotli()?;
    let languages = weight::contributors()?;
    let over = weight::report(&dist, &languages)?;
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
        .env("WAITLAB_AXE", &browsers.axe)
        .env("WAITLAB_SPEEDSCOPE", &browsers.speedscope)
        .env("WAITLAB_NATIVE_TRACE", native_trace());
    if let Err(why) = &browsers.wordpress {
        eprintln!("xtask: WordPress: not tested here: {why}");
    }
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
        let updated = super::with_set(index, "b.json", true).unwrap().unwrap();
        assert_eq!(
            updated,
            "{\n  \"sets\": [\n    { \"file\": \"a.json\" },\n    { \"file\": \"b.json\" }\n  ]\n}\n"
        );
        assert_eq!(super::with_set(&updated, "b.json", true).unwrap(), None);
        assert!(
            super::with_set(index, "c.json", false)
                .unwrap()
                .unwrap()
                .contains("{ \"file\": \"c.json\", \"shown\": false }")
        );
        let empty = "{\n  \"sets\": [\n  ]\n}\n";
        assert!(
            super::with_set(empty, "b.json", true)
                .unwrap()
                .unwrap()
                .contains("[\n    { \"file\": \"b.json\" }\n  ]")
        );
    }
}
