//! A minimal W3C WebDriver client (the handful of commands the tests use),
//! driving Debian's Chromium through chromedriver and Firefox ESR through
//! geckodriver, both headless, and WebKitGTK's MiniBrowser through
//! WebKitWebDriver, which needs a display (`cargo xtask test` runs the
//! suite under `xvfb-run`).

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// Which browser.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Browser {
    /// Debian's chromium via chromedriver.
    Chromium,
    /// Debian's firefox-esr via geckodriver.
    Firefox,
    /// WebKitGTK's MiniBrowser via WebKitWebDriver (Debian's
    /// webkit2gtk-driver): Safari's engine.
    WebKit,
}

impl Browser {
    /// Short name for messages and file names.
    pub fn name(self) -> &'static str {
        match self {
            Browser::Chromium => "chromium",
            Browser::Firefox => "firefox",
            Browser::WebKit => "webkit",
        }
    }

    /// Whether this browser can be driven here; `Err` says why not. Only
    /// WebKit may be missing: `cargo xtask test` installs the others, and
    /// names WebKit's driver in `WEBKITDRIVER` when it could install it.
    pub fn available(self) -> Result<(), String> {
        match self {
            Browser::Chromium | Browser::Firefox => Ok(()),
            Browser::WebKit if std::env::var_os("WEBKITDRIVER").is_none() => Err(
                "WEBKITDRIVER is not set (cargo xtask test sets it where WebKitGTK installs)"
                    .into(),
            ),
            Browser::WebKit if std::env::var_os("DISPLAY").is_none() => {
                Err("WebKitGTK needs a display (run under xvfb-run)".into())
            }
            Browser::WebKit => Ok(()),
        }
    }
}

/// Whether sessions started from now on run wasm in the browsers'
/// baseline compilers only (see [`measuring`]).
static BASELINE_ONLY: AtomicBool = AtomicBool::new(false);

/// Says whether the tests about to run measure. Sessions started for tests
/// that measure nothing run wasm in the browsers' baseline compilers only
/// (V8's Liftoff, SpiderMonkey's baseline; JavaScriptCore has no such
/// switch): the same module and the same behaviour, without recompiling
/// the app's whole wasm in an optimising tier on every page load, which
/// on two cores took CPU the other tests were waiting for. Sessions for
/// tests that measure get the browsers as readers have them.
pub fn measuring(yes: bool) {
    BASELINE_ONLY.store(!yes, Ordering::Relaxed);
}

/// WebKitGTK's browser for automation, beside its library.
const MINIBROWSER: &str = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";

/// A browser session; closed (and its driver killed) on drop. Tests lease
/// one from a pool ([`Session::lease`]).
pub struct Session {
    /// The browser's version, as its driver reports it.
    pub version: String,
    agent: ureq::Agent,
    base: String,
    /// Dropped after the session is deleted ([`Session`]'s `Drop`): the
    /// driver killed, then its folder removed.
    driver: Driver,
    /// The browser.
    pub browser: Browser,
}

/// A temporary directory removed on drop, unique to one server's start
/// (a browser's session: its profile and its driver's log; a WordPress).
pub(crate) struct TempDir(pub(crate) PathBuf);

impl TempDir {
    /// A new, empty folder under the system's temporary one, named by
    /// `what`, this process and a count (never by a port, which another
    /// server may have used before).
    pub(crate) fn new(what: &str) -> TempDir {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("waitlab-e2e-{what}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("creating {}: {e}", dir.display()));
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A WebDriver server this process started: killed (and waited for) when
/// dropped, on every path, a panic during its start included.
struct Driver {
    child: Child,
    /// Where its standard output and error go.
    log: PathBuf,
    /// The port it listens on.
    port: u16,
    /// Its folder: the profile and the log (removed after the kill).
    _dir: TempDir,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Driver {
    /// The last lines the driver wrote, for a failure's message.
    fn said(&self) -> String {
        last_words(&self.log, 12)
    }

    /// Spawns `program` with `args` (its port among them) and waits until
    /// the server answering `/status` on `port` is this very process: the
    /// listening socket is the child's own, and its answer is a WebDriver
    /// status. Holds [`STARTING`] throughout, so that no other driver of
    /// this process is given the same port between its choice and its
    /// bind; `Err` says why (it exited, or another server answered).
    fn spawn(program: &str, args: &[String], port: u16, dir: TempDir) -> Result<Driver, String> {
        let log = dir.0.join("driver.log");
        let out = std::fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
        let err = out.try_clone().map_err(|e| e.to_string())?;
        let child = Command::new(program)
            .args(args)
            .stdout(Stdio::from(out))
            .stderr(Stdio::from(err))
            .spawn()
            .unwrap_or_else(|e| {
                panic!("cannot start {program}: {e} (cargo xtask test installs it)")
            });
        let mut driver = Driver {
            child,
            log,
            port,
            _dir: dir,
        };
        let agent = agent(Duration::from_secs(5));
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Ok(Some(status)) = driver.child.try_wait() {
                return Err(format!(
                    "{program} on port {port} exited before it was ready ({status}); {}",
                    driver.said()
                ));
            }
            if let Some(body) = status(&agent, port) {
                if !listens_on(driver.child.id(), port) {
                    return Err(format!(
                        "another server answered on port {port}, not {program}: {body}"
                    ));
                }
                if body["value"]["ready"] == Value::Bool(true) {
                    return Ok(driver);
                }
            }
            if Instant::now() >= deadline {
                return Err(format!(
                    "{program} on port {port} was not ready within 30 s; {}",
                    driver.said()
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// The last `n` lines of the log at `path`, for a failure's message.
pub(crate) fn last_words(path: &Path, n: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    let tail = lines[lines.len().saturating_sub(n)..].join("\n    ");
    if tail.is_empty() {
        "(it wrote nothing)".into()
    } else {
        format!("its last words:\n    {tail}")
    }
}

/// Held from choosing a server's port (a driver's, WordPress's) until
/// the server listens on it.
pub(crate) static STARTING: Mutex<()> = Mutex::new(());

/// An HTTP client that reads error statuses as answers.
fn agent(timeout: Duration) -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(timeout))
        .build()
        .into()
}

/// What the server on `port` says at `/status`, if it answers with JSON.
fn status(agent: &ureq::Agent, port: u16) -> Option<Value> {
    let mut resp = agent
        .get(format!("http://127.0.0.1:{port}/status"))
        .call()
        .ok()?;
    resp.body_mut().read_json().ok()
}

/// Whether process `pid` holds the socket listening on loopback `port`
/// (Linux: the socket's inode in `/proc/net/tcp*`, among the process's
/// open files).
pub(crate) fn listens_on(pid: u32, port: u16) -> bool {
    let inodes = listening_inodes(port);
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return false;
    };
    fds.filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
        .filter_map(|target| {
            let target = target.to_string_lossy().into_owned();
            target
                .strip_prefix("socket:[")?
                .strip_suffix(']')?
                .parse::<u64>()
                .ok()
        })
        .any(|inode| inodes.contains(&inode))
}

/// The inodes of the sockets listening on `port` (IPv4 and IPv6).
fn listening_inodes(port: u16) -> Vec<u64> {
    ["/proc/net/tcp", "/proc/net/tcp6"]
        .iter()
        .filter_map(|table| std::fs::read_to_string(table).ok())
        .flat_map(|table| listeners(&table, port))
        .collect()
}

/// The inodes of the rows of a `/proc/net/tcp` table that listen on
/// `port`.
fn listeners(table: &str, port: u16) -> Vec<u64> {
    const LISTEN: &str = "0A";
    table
        .lines()
        .skip(1)
        .filter_map(|row| {
            let cols: Vec<&str> = row.split_whitespace().collect();
            let local_port = cols.get(1)?.rsplit_once(':')?.1;
            let listening =
                u16::from_str_radix(local_port, 16).ok()? == port && *cols.get(3)? == LISTEN;
            listening.then(|| cols.get(9)?.parse().ok())?
        })
        .collect()
}

/// Whether a new session's `browserName` is `browser`'s.
fn is_browser(browser: Browser, name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    match browser {
        Browser::Chromium => name.starts_with("chrom"),
        Browser::Firefox => name == "firefox",
        Browser::WebKit => name == "minibrowser" || name.contains("webkit"),
    }
}

/// Adds a switch to a new session's capabilities: a command-line argument
/// for Chromium, a preference for Firefox (WebKitGTK's MiniBrowser takes
/// neither; callers say what it lacks).
fn add_switch(
    capabilities: &mut Value,
    browser: Browser,
    chromium_arg: &str,
    firefox_pref: (&str, Value),
) {
    match browser {
        Browser::Chromium => capabilities["goog:chromeOptions"]["args"]
            .as_array_mut()
            .expect("Chromium's capabilities list its arguments")
            .push(json!(chromium_arg)),
        Browser::Firefox => {
            let (name, value) = firefox_pref;
            capabilities["moz:firefoxOptions"]["prefs"][name] = value;
        }
        Browser::WebKit => {}
    }
}

/// A port free now (the caller holds [`STARTING`] until its driver has
/// bound it).
pub(crate) fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn driver_path(var: &str, fallback: &str) -> String {
    std::env::var(var).unwrap_or_else(|_| fallback.to_owned())
}

/// How [`Session::hide_page`] hid the page.
#[derive(Debug)]
pub enum HiddenBy {
    /// The window was minimized.
    Minimizing,
    /// A new tab came to the front; the page's tab is this handle.
    NewTab(String),
}

impl Session {
    /// Starts the driver and a headless browser session.
    pub fn start(browser: Browser) -> Session {
        Self::start_in(browser, None)
    }

    /// [`Session::start`] with the browser's preferred language set to
    /// `language` (such as `de-DE`), as a reader's browser would have it.
    pub fn start_in(browser: Browser, language: Option<&str>) -> Session {
        Self::start_with(browser, language, "normal", false, false)
    }

    /// [`Session::start`] in a browser whose reader asked for reduced
    /// motion (`prefers-reduced-motion: reduce`; Chromium and Firefox).
    pub fn start_with_reduced_motion(browser: Browser) -> Session {
        Self::start_with(browser, None, "normal", true, false)
    }

    /// [`Session::start`] in a browser that throttles a hidden page's
    /// timers as it would for a reader: chromedriver's switches that keep
    /// them running are left out (`excludeSwitches`); Firefox and WebKitGTK
    /// take nothing.
    pub fn start_throttling(browser: Browser) -> Session {
        Self::start_with(browser, None, "normal", false, true)
    }

    /// [`Session::start_in`] whose navigations return at once, without
    /// waiting for the page to load (for a page whose wasm never comes).
    pub fn start_unwaited(browser: Browser, language: Option<&str>) -> Session {
        Self::start_with(browser, language, "none", false, false)
    }

    /// Starts a session as [`Session::try_start`] does, up to three
    /// times: a driver that exits, is not the one answering on its port,
    /// or gives a session of another browser is told and replaced.
    fn start_with(
        browser: Browser,
        language: Option<&str>,
        page_load: &str,
        reduced_motion: bool,
        throttling: bool,
    ) -> Session {
        const TRIES: usize = 3;
        let mut why = Vec::new();
        while why.len() < TRIES {
            match Self::try_start(browser, language, page_load, reduced_motion, throttling) {
                Ok(session) => return session,
                Err(e) => {
                    eprintln!("{}: a session did not start: {e}", browser.name());
                    why.push(e);
                }
            }
        }
        panic!(
            "{}: no session in {TRIES} tries:\n  {}",
            browser.name(),
            why.join("\n  ")
        )
    }

    /// One try at a driver and a session: the driver on a port no other
    /// driver of this process was given meanwhile, answering as itself,
    /// and a session whose browser is `browser`. `Err` says what went
    /// wrong, with the driver's last words; the driver is killed then.
    fn try_start(
        browser: Browser,
        language: Option<&str>,
        page_load: &str,
        reduced_motion: bool,
        throttling: bool,
    ) -> Result<Session, String> {
        let dir = TempDir::new(browser.name());
        std::fs::create_dir_all(dir.0.join("profile"))
            .unwrap_or_else(|e| panic!("creating {}: {e}", dir.0.display()));
        let accept = language.unwrap_or("en-US");
        let profile = dir.0.join("profile");
        let (program, capabilities) = match browser {
            Browser::Chromium => (
                driver_path("CHROMEDRIVER", "/usr/bin/chromedriver"),
                json!({
                    "browserName": "chrome",
                    "goog:chromeOptions": {
                        "binary": "/usr/bin/chromium",
                        "args": [
                            "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                            "--no-first-run", "--disable-background-networking",
                            "--disable-component-update", "--disable-sync",
                            "--disable-dev-shm-usage", "--window-size=1100,1600",
                            format!("--user-data-dir={}", profile.display()),
                            format!("--lang={accept}"),
                        ],
                        "prefs": { "intl.accept_languages": accept }
                    }
                }),
            ),

            Browser::Firefox => (
                driver_path("GECKODRIVER", "geckodriver"),
                json!({
                    "browserName": "firefox",
                    "moz:firefoxOptions": {
                        "binary": "/usr/bin/firefox-esr",
                        // geckodriver makes each session a fresh profile.
                        "args": ["-headless", "--width=1100", "--height=1600"],
                        "prefs": {
                            "app.update.enabled": false,
                            "browser.shell.checkDefaultBrowser": false,
                            "intl.accept_languages": accept
                        }
                    }
                }),
            ),
            Browser::WebKit => (
                driver_path("WEBKITDRIVER", "WebKitWebDriver"),
                json!({
                    "browserName": "MiniBrowser",
                    "webkitgtk:browserOptions": {
                        "binary": std::env::var("WAITLAB_MINIBROWSER").unwrap_or_else(|_| MINIBROWSER.to_owned()),
                        "args": ["--automation"]
                    }
                }),
            ),
        };
        let mut capabilities = capabilities;
        capabilities["pageLoadStrategy"] = json!(page_load);
        if BASELINE_ONLY.load(Ordering::Relaxed) {
            let no_tier_up = ("javascript.options.wasm_optimizingjit", json!(false));
            add_switch(
                &mut capabilities,
                browser,
                "--js-flags=--no-wasm-tier-up",
                no_tier_up,
            );
        }
        if reduced_motion {
            assert!(
                browser != Browser::WebKit,
                "WebKitGTK's MiniBrowser has no reduced-motion switch"
            );
            let reduce = ("ui.prefersReducedMotion", json!(1));
            add_switch(
                &mut capabilities,
                browser,
                "--force-prefers-reduced-motion",
                reduce,
            );
        }
        if throttling && browser == Browser::Chromium {
            capabilities["goog:chromeOptions"]["excludeSwitches"] = json!([
                "disable-background-timer-throttling",
                "disable-backgrounding-occluded-windows"
            ]);
        }
        let driver = {
            let _starting = STARTING
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            let port = free_port();
            let args = match browser {
                Browser::Firefox => vec!["--port".to_owned(), port.to_string()],
                Browser::Chromium | Browser::WebKit => vec![format!("--port={port}")],
            };
            Driver::spawn(&program, &args, port, dir)?
        };
        let agent = agent(Duration::from_secs(180));
        let root = format!("http://127.0.0.1:{}", driver.port);
        let body: Value = agent
            .post(format!("{root}/session"))
            .send_json(json!({ "capabilities": { "alwaysMatch": capabilities } }))
            .map_err(|e| format!("{program}: new session: {e}; {}", driver.said()))?
            .body_mut()
            .read_json()
            .map_err(|e| format!("{program}: new session: {e}; {}", driver.said()))?;
        let Some(id) = body["value"]["sessionId"].as_str() else {
            return Err(format!("{program}: no session: {body}; {}", driver.said()));
        };
        let caps = &body["value"]["capabilities"];
        let name = caps["browserName"].as_str().unwrap_or_default();
        let mut session = Session {
            version: caps["browserVersion"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
            agent,
            base: format!("{root}/session/{id}"),
            driver,
            browser,
        };
        if !is_browser(browser, name) {
            return Err(format!(
                "{program} on port {} gave a session of {name:?}, not {}",
                session.driver.port,
                browser.name()
            ));
        }
        session.command(
            "POST",
            "/timeouts",
            json!({ "script": 170_000, "pageLoad": 60_000 }),
        );
        if browser != Browser::Chromium {
            session.command(
                "POST",
                "/window/rect",
                json!({ "width": 1100, "height": 1600 }),
            );
        }
        Ok(session)
    }

    fn command(&mut self, method: &str, path: &str, body: Value) -> Value {
        self.try_command(method, path, body)
            .unwrap_or_else(|e| panic!("{} {method} {path}: {e}", self.browser.name()))
    }

    /// One WebDriver command; `Err` says why it failed (never panics, so
    /// it may run while a failed test unwinds).
    fn try_command(&mut self, method: &str, path: &str, body: Value) -> Result<Value, String> {
        let url = format!("{}{path}", self.base);
        let resp = match method {
            "GET" => self.agent.get(&url).call(),
            "DELETE" => self.agent.delete(&url).call(),
            _ => self.agent.post(&url).send_json(&body),
        };
        let mut resp = resp.map_err(|e| e.to_string())?;
        let status = resp.status();
        let value: Value = resp
            .body_mut()
            .with_config()
            .limit(64 * 1024 * 1024)
            .read_json()
            .map_err(|e| format!("unreadable reply: {e}"))?;
        if !status.is_success() {
            return Err(format!("failed ({status}): {}", value["value"]));
        }
        Ok(value["value"].clone())
    }

    /// Hides the page as a reader does: minimizes the window where that
    /// hides it (WebKitGTK's MiniBrowser, whose new tab leaves the page
    /// visible), otherwise opens a new tab and switches to it. Says how,
    /// to undo it with [`Session::show_page`], or why neither worked.
    pub fn hide_page(&mut self) -> Result<HiddenBy, String> {
        let hidden = |s: &mut Session| {
            s.try_command(
                "POST",
                "/execute/sync",
                json!({ "script": "return document.visibilityState;", "args": [] }),
            )
            .is_ok_and(|v| v == "hidden")
        };
        if self
            .try_command("POST", "/window/minimize", json!({}))
            .is_ok()
        {
            if hidden(self) {
                return Ok(HiddenBy::Minimizing);
            }
            self.restore_window()?;
        }
        let current = self.try_command("GET", "/window", Value::Null)?;
        let opened = self.try_command("POST", "/window/new", json!({ "type": "tab" }))?;
        let handle = opened["handle"]
            .as_str()
            .ok_or("no handle for the new tab")?;
        self.try_command("POST", "/window", json!({ "handle": handle }))?;
        Ok(HiddenBy::NewTab(
            current.as_str().unwrap_or_default().to_owned(),
        ))
    }

    /// Shows the page [`Session::hide_page`] hid: the window restored, or
    /// the new tab closed and the page's switched back to.
    pub fn show_page(&mut self, by: HiddenBy) {
        match by {
            HiddenBy::Minimizing => self
                .restore_window()
                .unwrap_or_else(|e| panic!("{}: restoring the window: {e}", self.browser.name())),
            HiddenBy::NewTab(handle) => {
                self.command("DELETE", "/window", Value::Null);
                self.command("POST", "/window", json!({ "handle": handle }));
            }
        }
    }

    fn restore_window(&mut self) -> Result<(), String> {
        self.try_command(
            "POST",
            "/window/rect",
            json!({ "width": 1100, "height": 1600 }),
        )
        .map(drop)
    }

    /// Opens `url`, waits for the app to mount and settle, and reaches
    /// every experiment's form, as a reader scrolling down the page would
    /// (each is made when it is first in view), back at the top after.
    pub fn open(&mut self, url: &str) {
        self.open_reaching(url, "[data-testid=form-place]");
    }

    /// Opens `url` as [`Session::open`] does, but reaches only the form of
    /// the section whose test id is `section` (each form a chunk to fetch
    /// and make: all nine took WebKitGTK about 2 s a page).
    pub fn open_for(&mut self, url: &str, section: &str) {
        self.open_reaching(
            url,
            &format!("[data-testid={section}] [data-testid=form-place]"),
        );
    }

    /// Opens `url` and scrolls to each place `places` selects until its
    /// form is made (has its buttons, or says why not): a place holds an
    /// element before its chunk's view is in.
    fn open_reaching(&mut self, url: &str, places: &str) {
        self.open_first_screen(url);
        let script = format!("const places = {};", Value::from(places))
            + "const empty = () => Array.from(document.querySelectorAll(places))\
                 .filter(p => !p.querySelector('button, [data-testid=chunk-not-loaded], [data-testid=after-run]'));\
             const frames = () => new Promise(r =>\
                 requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0))));\
             const end = performance.now() + 45000;\
             while (empty().length > 0 && performance.now() < end) {\
                 for (const place of empty()) { place.scrollIntoView({ block: 'center' }); await frames(); }\
                 await frames();\
             }\
             window.scrollTo(0, 0);\
             return empty().length;";
        let reached = self.eval_async(&script);
        assert_eq!(reached, json!(0), "forms still not made after 45 s");
    }

    /// Opens `url` and waits for the app to mount and settle, its forms
    /// not reached (what a first screen shows and fetches).
    pub fn open_first_screen(&mut self, url: &str) {
        self.command("POST", "/url", json!({ "url": url }));
        // Settled: the app is up and the bundled sets' panel is no longer
        // loading (loaded, failed or named as slow), so nothing above a
        // button moves it while a click is under way (WebKit once clicked
        // beside Run as the panel grew).
        self.wait_for(
            "document.querySelector('[data-testid=timed-waits]') !== null\
             && document.querySelector('[data-testid=reference-loading]') === null",
            30,
        );
    }

    /// Navigates to `url` without waiting for the app (a page that is not
    /// waitlab, or an embed).
    pub fn navigate(&mut self, url: &str) {
        self.command("POST", "/url", json!({ "url": url }));
    }

    /// Chromium only: one DevTools command (chromedriver's `goog/cdp`).
    fn devtools(&mut self, cmd: &str, params: Value) {
        assert_eq!(
            self.browser,
            Browser::Chromium,
            "{cmd} is a DevTools command, which only Chromium's driver takes"
        );
        self.command(
            "POST",
            "/goog/cdp/execute",
            json!({ "cmd": cmd, "params": params }),
        );
    }

    /// Chromium only: slows the page's CPU `rate` times, as DevTools'
    /// CPU throttling plays a slow phone (1 stops it). It stays on across
    /// navigations, so a pooled session must set it back.
    pub fn throttle_cpu(&mut self, rate: f64) {
        self.devtools("Emulation.setCPUThrottlingRate", json!({ "rate": rate }));
    }

    /// Chromium only: a phone's screen, `width` × `height` CSS pixels at
    /// three device pixels each, laid out as on a phone (the viewport
    /// meta applies), with touch.
    pub fn emulate_phone(&mut self, width: u32, height: u32) {
        self.devtools(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": width, "height": height, "deviceScaleFactor": 3, "mobile": true }),
        );
        self.devtools(
            "Emulation.setTouchEmulationEnabled",
            json!({ "enabled": true, "maxTouchPoints": 5 }),
        );
    }

    /// Chromium only: a slow line, as DevTools plays one: `latency_ms`
    /// added to each request and `bytes_per_s` down and up (0 lifts it).
    /// It stays on across navigations, so a pooled session must lift it.
    pub fn throttle_network(&mut self, latency_ms: f64, bytes_per_s: f64) {
        self.devtools("Network.enable", json!({}));
        let (latency, rate) = if bytes_per_s > 0.0 {
            (latency_ms, bytes_per_s)
        } else {
            (0.0, -1.0)
        };
        self.devtools(
            "Network.emulateNetworkConditions",
            json!({ "offline": false, "latency": latency,
                    "downloadThroughput": rate, "uploadThroughput": rate }),
        );
    }

    /// Chromium only: runs `script` in every document this session opens
    /// from now on, before the document's own scripts.
    pub fn on_every_document(&mut self, script: &str) {
        self.devtools(
            "Page.addScriptToEvaluateOnNewDocument",
            json!({ "source": script }),
        );
    }

    /// Sets the window's outer size, in CSS pixels.
    pub fn resize(&mut self, width: u32, height: u32) {
        self.command(
            "POST",
            "/window/rect",
            json!({ "width": width, "height": height }),
        );
    }

    /// Moves into the `index`-th frame of the page (`None`: back to the
    /// top-level page).
    pub fn frame(&mut self, index: Option<u32>) {
        self.command("POST", "/frame", json!({ "id": index }));
    }

    /// Polls until an element matches `selector`.
    pub fn wait_for_element(&mut self, selector: &str, seconds: u64) {
        self.wait_for(
            &format!("document.querySelector({})", Value::from(selector)),
            seconds,
        );
    }

    /// Runs `script` (a function body; `arguments` holds `args`) and
    /// returns its value.
    pub fn eval(&mut self, script: &str) -> Value {
        self.command(
            "POST",
            "/execute/sync",
            json!({ "script": script, "args": [] }),
        )
    }

    /// Runs an async function body: `await` works inside, its `return`
    /// value comes back.
    pub fn eval_async(&mut self, body: &str) -> Value {
        let script = format!(
            "const done = arguments[arguments.length - 1];\
             (async () => {{ {body} }})().then(done, e => done({{ __error: String(e) }}));"
        );
        let value = self.command(
            "POST",
            "/execute/async",
            json!({ "script": script, "args": [] }),
        );
        assert!(
            value.get("__error").is_none(),
            "script failed: {}",
            value["__error"]
        );
        value
    }

    /// Polls `condition` (a JS expression) until it is true. A condition
    /// that throws (an element not there yet, a frame still loading) counts
    /// as not yet true.
    pub fn wait_for(&mut self, condition: &str, seconds: u64) {
        assert!(
            self.became(condition, seconds),
            "{}: timed out after {seconds} s waiting for {condition}",
            self.browser.name()
        );
    }

    /// Whether the JavaScript `condition` held within `seconds`. The page
    /// itself waits for it: checked at once, then whenever its document
    /// changes (a `MutationObserver`) and every 100 ms for what is not in
    /// the document (a frame's, a variable), in one asynchronous script of
    /// up to 20 s, so that a change is seen as it happens, without a
    /// WebDriver round trip every 100 ms. A page that goes away (it
    /// reloads itself, a link is followed) ends the script at once, and
    /// the wait goes on in the next page (WebKitWebDriver would otherwise
    /// wait out the script timeout for an answer that never comes).
    pub fn became(&mut self, condition: &str, seconds: u64) -> bool {
        let deadline = Instant::now() + Duration::from_secs(seconds);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let limit = left.min(Duration::from_secs(20)).as_millis();
            let script = format!(
                "const done = arguments[arguments.length - 1];\
                 const holds = () => {{ try {{ return !!({condition}); }} catch (e) {{ return false; }} }};\
                 if (holds()) {{ done(true); return; }}\
                 let over = false, observer = null, beat = 0, limit = 0;\
                 const gone = () => end(false);\
                 const end = (v) => {{ if (over) return; over = true;\
                   if (observer) observer.disconnect(); clearInterval(beat); clearTimeout(limit);\
                   removeEventListener('pagehide', gone); removeEventListener('beforeunload', gone);\
                   done(v); }};\
                 const look = () => {{ if (holds()) end(true); }};\
                 try {{ observer = new MutationObserver(look);\
                   observer.observe(document, {{ subtree: true, childList: true, attributes: true, characterData: true }});\
                 }} catch (e) {{}}\
                 addEventListener('pagehide', gone); addEventListener('beforeunload', gone);\
                 beat = setInterval(look, 100);\
                 limit = setTimeout(() => end(holds()), {limit});"
            );
            let answer = self.try_command(
                "POST",
                "/execute/async",
                json!({ "script": script, "args": [] }),
            );
            if answer == Ok(Value::Bool(true)) {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            if answer.is_err() {
                // Navigated away mid-script, or a page not yet there.
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }

    /// Sets an input's value the way typing does (firing `input`).
    pub fn type_into(&mut self, selector: &str, text: &str) {
        let script = format!(
            "const el = document.querySelector({selector});\
             el.value = {text}; el.dispatchEvent(new Event('input', {{ bubbles: true }}));",
            selector = Value::from(selector),
            text = Value::from(text)
        );
        self.eval(&script);
    }

    /// Clicks an element with a real WebDriver click, once it is there and
    /// enabled (a share button waits for its compressed link).
    pub fn click(&mut self, selector: &str) {
        self.wait_for(
            &format!(
                "(el => el && !el.disabled)(document.querySelector({}))",
                Value::from(selector)
            ),
            10,
        );
        let found = self.command(
            "POST",
            "/element",
            json!({ "using": "css selector", "value": selector }),
        );
        let id = found
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .expect("element reference")
            .to_owned();
        self.command("POST", &format!("/element/{id}/click"), json!({}));
    }

    /// Presses and releases `key` where the focus is, as a keyboard does
    /// (a WebDriver key code: `"\u{E014}"` is the right arrow).
    pub fn press(&mut self, key: &str) {
        let stroke = |kind: &str| json!({ "type": kind, "value": key });
        self.command(
            "POST",
            "/actions",
            json!({ "actions": [{ "type": "key", "id": "keyboard",
                "actions": [stroke("keyDown"), stroke("keyUp")] }] }),
        );
    }

    /// The text of the first element matching `selector`, if any.
    pub fn text(&mut self, selector: &str) -> Option<String> {
        self.eval(&format!(
            "const el = document.querySelector({}); return el ? el.textContent : null;",
            Value::from(selector)
        ))
        .as_str()
        .map(str::to_owned)
    }

    /// Errors the page logged or threw since it loaded. Panics if the
    /// page has no error probe (the test server puts one in every
    /// index.html it serves), so the check can never pass unseen.
    pub fn page_errors(&mut self) -> Vec<String> {
        let errors = self
            .eval("return window.__waitlabErrors === undefined ? null : window.__waitlabErrors;");
        assert!(
            !errors.is_null(),
            "{}: the page has no error probe",
            self.browser.name()
        );
        serde_json::from_value(errors).unwrap_or_default()
    }

    /// Saves a PNG screenshot of the viewport to
    /// `target/screenshots/BROWSER-NAME.png`.
    pub fn screenshot(&mut self, name: &str) {
        if let Err(e) = self.try_screenshot(name) {
            panic!("{} screenshot {name}: {e}", self.browser.name());
        }
    }

    fn try_screenshot(&mut self, name: &str) -> Result<(), String> {
        use base64::Engine;
        let data = self.try_command("GET", "/screenshot", Value::Null)?;
        let png = base64::engine::general_purpose::STANDARD
            .decode(data.as_str().unwrap_or(""))
            .map_err(|e| format!("not base64: {e}"))?;
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots");
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        std::fs::write(dir.join(format!("{}-{name}.png", self.browser.name())), png)
            .map_err(|e| e.to_string())
    }

    /// A session of `browser` that earlier tests used, on a blank page and
    /// the top-level frame, or a new one when none is idle. It goes back to
    /// the pool when the lease drops, unless its test failed: then the page
    /// is saved as `failed-TEST` (see [`name_this_test`]) and the session
    /// closed. The servers never reuse a port and send `no-store`, so
    /// nothing a page leaves behind reaches the next test's origin; a test
    /// that registers a service worker takes a fresh [`Session::start`].
    pub fn lease(browser: Browser) -> Lease {
        let idle = {
            let mut pool = pool();
            let found = pool.iter().position(|s| s.browser == browser);
            found.map(|i| pool.swap_remove(i))
        };
        Lease(Some(idle.unwrap_or_else(|| Session::start(browser))))
    }

    /// Leaves the page and its frames (and so stops its workers) for the
    /// next test; `false` if the browser does not answer.
    fn reset(&mut self) -> bool {
        self.try_command("POST", "/frame", json!({ "id": null }))
            .and_then(|_| self.try_command("POST", "/url", json!({ "url": "about:blank" })))
            .is_ok()
    }
}

fn pool() -> std::sync::MutexGuard<'static, Vec<Session>> {
    static POOL: Mutex<Vec<Session>> = Mutex::new(Vec::new());
    POOL.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Closes every idle session (and its driver and browser); the harness
/// calls it once all tests have run, since statics are never dropped.
pub fn close_pool() {
    pool().clear();
}

thread_local! {
    static TEST_NAME: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    /// Whether a session of this thread's test, failed, then answered no
    /// screenshot within the driver's timeout (see [`stopped_answering`]).
    static UNANSWERED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the browser of this thread's last failed test stopped
/// answering: its driver timed out taking a screenshot of the failed page
/// (WebKitGTK's web process, hung). Asking clears it.
pub fn stopped_answering() -> bool {
    UNANSWERED.with(|u| u.replace(false))
}

/// Names the test running on this thread, for the screenshot of its page
/// if it fails.
pub fn name_this_test(name: &str) {
    TEST_NAME.with(|n| *n.borrow_mut() = name.to_owned());
}

/// A pooled [`Session`], lent to one test (see [`Session::lease`]).
pub struct Lease(Option<Session>);

impl std::ops::Deref for Lease {
    type Target = Session;
    fn deref(&self) -> &Session {
        self.0.as_ref().expect("leased until dropped")
    }
}

impl std::ops::DerefMut for Lease {
    fn deref_mut(&mut self) -> &mut Session {
        self.0.as_mut().expect("leased until dropped")
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        let Some(mut session) = self.0.take() else {
            return;
        };
        if std::thread::panicking() {
            let name = TEST_NAME.with(|n| format!("failed-{}", n.borrow()));
            if let Err(e) = session.try_screenshot(&name) {
                if e.contains("\"error\":\"timeout\"") {
                    UNANSWERED.with(|u| u.set(true));
                }
                eprintln!(
                    "{}: no screenshot of the failed page: {e}",
                    session.browser.name()
                );
            }
        } else if session.reset() {
            pool().push(session);
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // The driver is killed after this, when its field drops.
        let _ = self.agent.delete(&self.base).call();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two rows of a real `/proc/net/tcp`: a server listening on 9515, and
    /// a connection from that port (not a listener).
    const TABLE: &str = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:252B 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 81234 1 0000000000000000 100 0 0 10 0
   1: 0100007F:252B 0100007F:A1B2 01 00000000:00000000 00:00000000 00000000     0        0 81299 1 0000000000000000 20 4 30 10 -1
";

    #[test]
    fn only_the_listening_socket_of_a_port_counts() {
        assert_eq!(listeners(TABLE, 9515), vec![81234]);
        assert_eq!(listeners(TABLE, 9516), Vec::<u64>::new());
    }

    #[test]
    fn a_listener_is_found_among_its_own_process_files_only() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        assert!(listens_on(std::process::id(), port));
        // Another process (this one's parent) does not hold it.
        let parent = std::os::unix::process::parent_id();
        assert!(!listens_on(parent, port));
        drop(listener);
        assert!(!listens_on(std::process::id(), port));
    }

    #[test]
    fn a_session_of_another_browser_is_refused() {
        assert!(is_browser(Browser::Chromium, "chrome"));
        assert!(is_browser(Browser::Chromium, "chrome-headless-shell"));
        assert!(is_browser(Browser::Firefox, "firefox"));
        assert!(is_browser(Browser::WebKit, "MiniBrowser"));
        // The race this guards against: WebKit's port answered by a
        // chromedriver.
        assert!(!is_browser(Browser::WebKit, "chrome"));
        assert!(!is_browser(Browser::Firefox, "chrome"));
        assert!(!is_browser(Browser::Chromium, "firefox"));
    }

    #[test]
    fn a_driver_that_exits_at_once_is_told_with_its_words() {
        let args = vec!["-c".to_owned(), "echo 'port taken' >&2; exit 3".to_owned()];
        let Err(why) = Driver::spawn(
            "sh",
            &args,
            free_port(),
            TempDir::new(Browser::Chromium.name()),
        ) else {
            panic!("a driver that exited was taken as ready");
        };
        assert!(why.contains("exited before it was ready"), "{why}");
        assert!(why.contains("port taken"), "{why}");
    }

    #[test]
    fn another_server_on_the_port_is_not_taken_for_the_driver() {
        // A WebDriver-like status served by this process, while the
        // "driver" (a shell that sleeps) never listens at all.
        let server = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = server.local_addr().unwrap().port();
        std::thread::spawn(move || {
            use std::io::{Read, Write};
            for mut conn in server.incoming().flatten() {
                let mut buf = [0u8; 1024];
                let _ = conn.read(&mut buf);
                let body = r#"{"value":{"ready":true,"message":"ChromeDriver ready"}}"#;
                let _ = write!(
                    conn,
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
            }
        });
        let args = vec!["-c".to_owned(), "sleep 30".to_owned()];
        let Err(why) = Driver::spawn("sh", &args, port, TempDir::new(Browser::WebKit.name()))
        else {
            panic!("another server's answer was taken as the driver's");
        };
        assert!(why.contains("another server answered"), "{why}");
    }
}
