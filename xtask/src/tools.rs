//! Installing the pinned toolchain: wasm32 target, trunk, wasm-bindgen-cli,
//! wasm-opt (npm binaryen), browsers and their drivers.
//!
//! Each `ensure_*` checks first and installs only what is missing or of the
//! wrong version. Versions come from the repository (Cargo.toml's `=` pin of
//! wasm-bindgen, Trunk.toml's `[tools]`), so there is one place to bump.

use crate::{Result, cargo, root, run};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, MutexGuard};

/// Held while the tool named `what` is looked for and installed: `cargo
/// xtask test` runs the release build beside the checks, and both may want
/// the same tool (wasm-bindgen-cli, the wasm32 target) on a fresh machine.
/// The second caller waits, then finds it installed. Each tool has its
/// own lock, so that installing one (trunk, minutes) never holds up
/// another (geckodriver, the browsers' npm packages).
fn installing(what: &str) -> MutexGuard<'static, ()> {
    static LOCKS: Mutex<Vec<(String, &'static Mutex<()>)>> = Mutex::new(Vec::new());
    let lock = {
        let mut locks = LOCKS
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        match locks.iter().find(|(name, _)| name == what) {
            Some((_, lock)) => *lock,
            None => {
                let lock: &'static Mutex<()> = Box::leak(Box::new(Mutex::new(())));
                locks.push((what.to_owned(), lock));
                lock
            }
        }
    };
    lock.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The trunk release that builds with this machine's rustc (0.22 needs a
/// newer one).
const TRUNK_VERSION: &str = "0.21.14";
/// twiggy's release on crates.io.
const TWIGGY_VERSION: &str = "0.8.0";
/// npm's binaryen release whose wasm-opt is known good (Debian's 108
/// corrupts the output).
const BINARYEN_VERSION: &str = "132.0.0";
/// npm's terser release, which minifies the wasm-bindgen glue (trunk's own
/// minifier cannot parse it).
const TERSER_VERSION: &str = "5.46.0";
/// npm's axe-core release the end-to-end tests check accessibility with.
const AXE_VERSION: &str = "4.14.1";
/// npm's speedscope release, the Trace Event Format importer the
/// end-to-end tests open the timelines' files in.
const SPEEDSCOPE_VERSION: &str = "1.25.0";

fn home() -> PathBuf {
    PathBuf::from(std::env::var_os("HOME").unwrap_or_else(|| "/root".into()))
}

fn cargo_bin(name: &str) -> PathBuf {
    let dir = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| home().join(".cargo"));
    dir.join("bin").join(name)
}

fn binaryen_dir() -> PathBuf {
    home()
        .join(".cache/waitlab")
        .join(format!("binaryen-{BINARYEN_VERSION}"))
}

/// `package@version` from npm in its own directory under
/// `~/.cache/waitlab`, installed there unless `file` (inside the package)
/// is already; returns that file.
fn ensure_npm(package: &str, version: &str, file: &str) -> Result<PathBuf> {
    let dir = home()
        .join(".cache/waitlab")
        .join(format!("{package}-{version}"));
    let path = dir.join("node_modules").join(package).join(file);
    let _installing = installing(package);
    if !path.exists() {
        std::fs::create_dir_all(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
        run(Command::new("npm").args([
            "install",
            "--no-audit",
            "--no-fund",
            "--prefix",
            &dir.to_string_lossy(),
            &format!("{package}@{version}"),
        ]))?;
    }
    Ok(path)
}

/// PATH with `~/.cargo/bin` and the pinned wasm-opt in front.
pub fn path_with_tools() -> std::ffi::OsString {
    let mut parts = vec![
        binaryen_dir().join("node_modules/.bin"),
        cargo_bin("").to_path_buf(),
    ];
    if let Some(path) = std::env::var_os("PATH") {
        parts.extend(std::env::split_paths(&path));
    }
    std::env::join_paths(parts).expect("PATH entries are valid")
}

/// The first line a tool prints for `--version`, if it runs at all.
fn version_of(program: &Path) -> Option<String> {
    let out = Command::new(program).arg("--version").output().ok()?;
    out.status.success().then(|| {
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .unwrap_or("")
            .to_owned()
    })
}

/// The exact wasm-bindgen version pinned in the root Cargo.toml.
pub fn wasm_bindgen_version() -> Result<String> {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml"))
        .map_err(|e| format!("reading Cargo.toml: {e}"))?;
    manifest
        .lines()
        .find_map(|l| l.trim().strip_prefix("wasm-bindgen = \"="))
        .and_then(|rest| rest.strip_suffix('"'))
        .map(str::to_owned)
        .ok_or_else(|| "Cargo.toml must pin wasm-bindgen = \"=X.Y.Z\"".to_owned())
}

pub fn ensure_wasm_target() -> Result {
    let _installing = installing("wasm32-unknown-unknown");
    let out = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .map_err(|e| format!("rustup is needed: {e}"))?;
    if !String::from_utf8_lossy(&out.stdout).contains("wasm32-unknown-unknown") {
        run(Command::new("rustup").args(["target", "add", "wasm32-unknown-unknown"]))?;
    }
    Ok(())
}

fn ensure_cargo_tool(bin: &str, krate: &str, version: &str, locked: bool) -> Result<PathBuf> {
    let path = cargo_bin(bin);
    let want = format!("{bin} {version}");
    let _installing = installing(krate);
    if version_of(&path).is_some_and(|v| v.trim() == want) {
        return Ok(path);
    }
    eprintln!("xtask: installing {krate} {version} (first run only, takes minutes)");
    let mut cmd = cargo();
    cmd.args(["install", krate, "--version", version]);
    if locked {
        cmd.arg("--locked");
    }
    run(&mut cmd)?;
    Ok(path)
}

/// trunk, wasm-bindgen-cli and wasm-opt of the pinned versions; returns the
/// trunk binary.
pub fn ensure_build_tools() -> Result<PathBuf> {
    ensure_wasm_bindgen()?;
    ensure_wasm_opt()?;
    ensure_cargo_tool("trunk", "trunk", TRUNK_VERSION, true)
}

/// The wasm32 target and the pinned wasm-bindgen CLI (with
/// wasm-bindgen-test-runner, which the browser-layer tests run under).
fn ensure_wasm_bindgen() -> Result {
    ensure_wasm_target()?;
    // The registry mirror lags one of wasm-bindgen-cli's locked
    // dependencies, so it is installed without --locked.
    ensure_cargo_tool(
        "wasm-bindgen",
        "wasm-bindgen-cli",
        &wasm_bindgen_version()?,
        false,
    )?;
    Ok(())
}

/// The pinned wasm-bindgen CLI (installed by [`ensure_build_tools`]).
pub fn wasm_bindgen() -> PathBuf {
    cargo_bin("wasm-bindgen")
}

/// twiggy, the wasm size profiler, for `cargo xtask bench`.
pub fn ensure_twiggy() -> Result<PathBuf> {
    ensure_cargo_tool("twiggy", "twiggy", TWIGGY_VERSION, true)
}

/// `apt-get install` of Debian's `packages`, without their recommended
/// ones and without questions (the caller holds the "apt" lock).
fn apt_install(packages: &[&str]) -> Command {
    let mut apt = Command::new("apt-get");
    apt.args(["install", "-y", "-qq", "--no-install-recommends"])
        .args(packages)
        .env("DEBIAN_FRONTEND", "noninteractive");
    apt
}

/// Debian's `brotli` for `cargo xtask bench`'s page weight, installed if
/// missing.
pub fn ensure_brotli() -> Result {
    let _apt = installing("apt");
    if version_of(Path::new("/usr/bin/brotli")).is_none() {
        run(Command::new("apt-get").args(["update", "-qq"]))?;
        run(&mut apt_install(&["brotli"]))?;
    }
    Ok(())
}

/// Debian's WordPress, PHP with its MySQL driver, MariaDB and WordPress's
/// default theme, installed if missing: the end-to-end tests paste each
/// experiment's address into a real WordPress. `Err` says in one line why
/// it cannot run here (its tests then say they did not check it).
fn ensure_wordpress() -> std::result::Result<(), String> {
    const PACKAGES: [&str; 5] = [
        "wordpress",
        "wordpress-theme-twentytwentythree",
        "php-cli",
        "php-mysql",
        "mariadb-server",
    ];
    let installed = |package: &str| {
        Command::new("dpkg-query")
            .args(["-W", "-f=${Status}", package])
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).ends_with(" installed"))
    };
    let missing: Vec<&str> = PACKAGES.into_iter().filter(|p| !installed(p)).collect();
    if missing.is_empty() {
        return Ok(());
    }
    if apt_install(&missing).status().is_ok_and(|s| s.success()) {
        Ok(())
    } else {
        Err(format!("apt could not install {}", missing.join(", ")))
    }
}

/// Paths of the WebDriver servers.
pub struct Browsers {
    pub chromedriver: PathBuf,
    pub geckodriver: PathBuf,
    /// WebKitWebDriver and the MiniBrowser it drives, or why WebKit cannot
    /// run here.
    pub webkit: std::result::Result<WebKit, String>,
    /// axe-core's script, which the tests run in pages.
    pub axe: PathBuf,
    /// speedscope's built page (its `dist/release` folder), which the
    /// tests serve and open traces in.
    pub speedscope: PathBuf,
    /// Debian's WordPress, or why it cannot run here.
    pub wordpress: std::result::Result<(), String>,
}

/// WebKitGTK for the end-to-end tests: Safari's engine on Linux.
pub struct WebKit {
    pub driver: PathBuf,
    pub minibrowser: PathBuf,
}

/// Debian's WebKitGTK WebDriver and a virtual display for it, installed
/// if missing; `Err` says in one line why WebKit cannot run here.
fn ensure_webkit() -> std::result::Result<WebKit, String> {
    let driver = PathBuf::from("/usr/bin/WebKitWebDriver");
    if !driver.exists() || !Path::new("/usr/bin/xvfb-run").exists() {
        let status = apt_install(&["webkit2gtk-driver", "xvfb", "xauth"]).status();
        if !status.is_ok_and(|s| s.success()) {
            return Err("apt could not install webkit2gtk-driver and xvfb".into());
        }
    }
    // MiniBrowser lives in WebKitGTK's library folder, under the
    // machine's multiarch name.
    let minibrowser = std::fs::read_dir("/usr/lib")
        .map_err(|e| format!("/usr/lib: {e}"))?
        .filter_map(|e| e.ok())
        .map(|e| e.path().join("webkit2gtk-4.1/MiniBrowser"))
        .find(|p| p.is_file())
        .ok_or("WebKitGTK's MiniBrowser is not installed")?;
    Ok(WebKit {
        driver,
        minibrowser,
    })
}

/// Debian's chromium, chromium-driver and firefox-esr, WebKitGTK and
/// WordPress where Debian has them for this machine, and geckodriver from
/// crates.io; also
/// wasm-bindgen-cli (the browser tests run under wasm-bindgen-test-runner).
pub fn ensure_browsers() -> Result<Browsers> {
    ensure_wasm_bindgen()?;
    let missing: Vec<&str> = [
        ("/usr/bin/chromium", "chromium"),
        ("/usr/bin/chromedriver", "chromium-driver"),
        ("/usr/bin/firefox-esr", "firefox-esr"),
        // Japanese glyphs, so screenshots of the page in Japanese show
        // its words rather than empty boxes.
        (
            "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",
            "fonts-ipafont-gothic",
        ),
    ]
    .into_iter()
    .filter(|(bin, _)| !Path::new(bin).exists())
    .map(|(_, pkg)| pkg)
    .collect();
    let webkit_missing = !Path::new("/usr/bin/WebKitWebDriver").exists();
    let wordpress_missing = !Path::new("/usr/share/wordpress/wp-settings.php").exists();
    let apt = installing("apt");
    if !missing.is_empty() || webkit_missing || wordpress_missing {
        run(Command::new("apt-get").args(["update", "-qq"]))?;
    }
    if !missing.is_empty() {
        run(&mut apt_install(&missing))?;
    }
    let webkit = ensure_webkit();
    let wordpress = ensure_wordpress();
    drop(apt);
    let geckodriver = cargo_bin("geckodriver");
    {
        let _installing = installing("geckodriver");
        if version_of(&geckodriver).is_none() {
            run(cargo().args(["install", "--locked", "geckodriver"]))?;
        }
    }
    Ok(Browsers {
        chromedriver: "/usr/bin/chromedriver".into(),
        geckodriver,
        webkit,
        axe: ensure_npm("axe-core", AXE_VERSION, "axe.min.js")?,
        speedscope: ensure_npm("speedscope", SPEEDSCOPE_VERSION, "dist/release/index.html")?
            .parent()
            .expect("index.html is in a folder")
            .to_path_buf(),
        wordpress,
    })
}

/// terser's command-line script (run with node).
/// The pinned wasm-opt (npm binaryen).
pub fn ensure_wasm_opt() -> Result<PathBuf> {
    ensure_npm("binaryen", BINARYEN_VERSION, "bin/wasm-opt")
}

/// Where wasm-opt's outputs are kept, by the hash of their input and
/// arguments, for this wasm-opt's version.
pub fn wasm_opt_cache() -> PathBuf {
    home()
        .join(".cache/waitlab")
        .join(format!("wasm-opt-{BINARYEN_VERSION}"))
}

pub fn ensure_terser() -> Result<PathBuf> {
    ensure_npm("terser", TERSER_VERSION, "bin/terser")
}

/// The file in `dir` named `pattern`, or named like it with trunk's content
/// hash after the stem (`app.js` matches `app-0123abcd.js`, `app_bg.wasm`
/// matches `app-0123abcd_bg.wasm`).
pub fn find_in(dir: &Path, pattern: &str) -> Result<PathBuf> {
    let stem_end = pattern.find(['_', '.']).unwrap_or(pattern.len());
    let (stem, suffix) = pattern.split_at(stem_end);
    std::fs::read_dir(dir)
        .map_err(|e| format!("reading {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            let hash = name
                .strip_prefix(stem)
                .and_then(|rest| rest.strip_prefix('-'))
                .and_then(|rest| rest.strip_suffix(suffix));
            name == pattern || hash.is_some_and(|h| h.chars().all(|c| c.is_ascii_alphanumeric()))
        })
        .ok_or_else(|| format!("no {pattern} in {}", dir.display()))
}
