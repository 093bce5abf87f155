//! Where and on what a run was made ([`Environment`], with a bundled
//! set's provenance, [`NativeEnv`]), and why it failed ([`Failure`]): the
//! schema's vocabulary that every layer reads, a leaf that names no
//! experiment. `schema` re-exports it.

use crate::clock::ClockInfo;
use crate::key;
use crate::text::{Arg, Phrase};
use serde::{Deserialize, Serialize};

/// Why a run failed, as a report keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Failure {
    /// What the page says of it, in the language of whoever reads it.
    Said(Phrase),
    /// A sentence in the language of whoever ran it (a file or link made
    /// before version 4), shown as written.
    Written(String),
}

impl Failure {
    /// The failure as the page says it.
    pub fn phrase(&self) -> Phrase {
        match self {
            Failure::Said(p) => p.clone(),
            Failure::Written(text) => Phrase::written(text.clone()),
        }
    }
}

/// Where and on what a run was made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Environment {
    /// `navigator.userAgent`, or the native probe's description.
    pub user_agent: String,
    /// `navigator.hardwareConcurrency` or the native core count.
    pub hardware_concurrency: u32,
    /// Whether the page was cross-origin isolated (shared memory available).
    pub cross_origin_isolated: bool,
    /// Measured clock granularity; `None` if the clock never moved.
    pub clock: Option<ClockInfo>,
    /// When the run started, ms since the Unix epoch.
    pub started_at_unix_ms: f64,
    /// Whether the page was hidden (or, embedded, scrolled out of view)
    /// at any time during the run, which lets browsers throttle timers.
    pub hidden_during_run: bool,
    /// For numbers not measured in a browser: what produced them and on
    /// which machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub native: Option<NativeEnv>,
}

#[cfg(test)]
impl Environment {
    /// The tests' browser: Chrome 156 on Linux, two cores, isolated, no
    /// clock measured, never hidden.
    pub(crate) fn test_chrome() -> Environment {
        Environment {
            user_agent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0".into(),
            hardware_concurrency: 2,
            cross_origin_isolated: true,
            clock: None,
            started_at_unix_ms: 0.0,
            hidden_during_run: false,
            native: None,
        }
    }
}

/// The provenance of a bundled result set: a native run's, an article's,
/// or a browser engine's run by `cargo xtask gallery` (its source says
/// which, [`Environment::is_native`]). Names (the set's, the runtime's,
/// the system's, the CPU's, an article's title, a command) are its
/// author's data and stay as written; the words around them are the page's
/// ([`NativeEnv::provenance`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NativeEnv {
    /// The runtime's own name, such as "Rust", ".NET 10" or "Firefox
    /// 153": a name, in no language; [`Environment::short_name`] words it
    /// with where the set comes from.
    pub name: String,
    /// Runtime and versions, such as ".NET 10.0.10 (SDK 10.0.302), C# 14".
    pub runtime: String,
    /// Operating system and version.
    pub os: String,
    /// The CPU's model (its cores are the environment's
    /// `hardware_concurrency`).
    pub cpu: String,
    /// Where the numbers come from.
    pub source: Source,
    /// Samples per probe, where one count applies to the whole set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub samples: Option<u32>,
}

/// Where a bundled set's numbers come from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Stated in an article (its title): only the figures its text gives.
    Article(String),
    /// Measured by a command line.
    Command(String),
    /// Measured by waitlab's own page in a browser engine that a test
    /// driver ran, by this command (`cargo xtask gallery`): a browser's
    /// numbers, not native ones.
    Engine(String),
    /// A version-2 file's sentence, shown as written.
    #[serde(untagged)]
    Written(String),
}

impl NativeEnv {
    /// Whether a browser engine's run measured this set (`cargo xtask
    /// gallery`), not a native program or an article.
    pub fn is_engine(&self) -> bool {
        matches!(self.source, Source::Engine(_))
    }

    /// The engine a bundled engine set was measured in, by its name
    /// ("Chromium 156", "Firefox 153", "WebKitGTK 2.50": a set's part
    /// carries no user agent); `None` for a native program or an article.
    pub(crate) fn engine(&self) -> Option<Engine> {
        self.is_engine()
            .then(|| Engine::named(&self.name))
            .flatten()
    }

    /// The operating system's family, such as "Linux" or "macOS", with
    /// the machine's architecture where its description ends with one
    /// ("Linux x86_64"); the description up to its first comma if no
    /// family is known.
    pub fn platform(&self) -> String {
        const FAMILIES: [&str; 6] = ["Linux", "macOS", "Windows", "FreeBSD", "Android", "iOS"];
        const ARCHES: [&str; 4] = ["x86_64", "aarch64", "arm64", "x86"];
        let family = FAMILIES
            .into_iter()
            .find(|f| self.os.contains(f))
            .unwrap_or_else(|| self.os.split(',').next().unwrap_or_default().trim());
        let arch = self.os.rsplit(',').next().map(str::trim);
        match arch.filter(|a| ARCHES.contains(a)) {
            Some(arch) => format!("{family} {arch}"),
            None => family.to_owned(),
        }
    }

    /// "Firefox 153 (bundled engine set, Linux)", ".NET 10 on Apple M4
    /// (the article)", "Rust native program (Linux x86_64)": its name
    /// with where its numbers come from, in the reader's language.
    pub fn short_name(&self) -> Phrase {
        let name = Phrase::written(self.name.clone());
        match &self.source {
            Source::Article(_) => Phrase::new(key!("env.name.article"))
                .phrase("name", name)
                .data("cpu", self.cpu.clone()),
            Source::Engine(_) => Phrase::new(key!("env.name.engine"))
                .phrase("name", name)
                .data("os", self.platform()),
            Source::Command(_) => Phrase::new(key!("env.name.native"))
                .phrase("name", name)
                .data("os", self.platform()),
            Source::Written(_) => name,
        }
    }

    /// "Apple M4, 10 cores · stated in the article “…”; only the figures
    /// its text gives, none derived · 200 samples per probe": what the set
    /// ran on and where its numbers come from, `cores` being its
    /// environment's `hardware_concurrency`.
    pub fn provenance(&self, cores: u32) -> Phrase {
        let source = match &self.source {
            Source::Article(title) => {
                Phrase::new(key!("reference.from_article")).data("title", title.clone())
            }
            Source::Command(command) => {
                Phrase::new(key!("reference.from_command")).data("command", command.clone())
            }
            Source::Engine(command) => {
                Phrase::new(key!("reference.from_engine")).data("command", command.clone())
            }
            Source::Written(text) => Phrase::written(text.clone()),
        };
        let samples = self.samples.map_or_else(
            || Phrase::written(""),
            |n| Phrase::new(key!("reference.samples")).count("count", n),
        );
        Phrase::new(key!("reference.provenance"))
            .data("cpu", self.cpu.clone())
            .phrase(
                "cores",
                Phrase::new(key!("reference.cores")).count("count", cores),
            )
            .phrase("source", source)
            .phrase("samples", samples)
    }
}

impl Environment {
    /// Whether these are native numbers (a native run's or an article's),
    /// not a browser's (this one's, a link's, or a bundled engine's).
    pub fn is_native(&self) -> bool {
        self.native.as_ref().is_some_and(|n| !n.is_engine())
    }

    /// Whether this is a bundled browser engine's run (`cargo xtask
    /// gallery`).
    pub fn is_engine(&self) -> bool {
        self.native.as_ref().is_some_and(NativeEnv::is_engine)
    }

    /// "Chrome 156 on Linux, 2026-11-30": whose run, and when.
    pub fn run_name(&self) -> Phrase {
        let (y, m, d) = civil_date(self.started_at_unix_ms);
        Phrase::new(key!("env.run_name"))
            .phrase("who", self.short_name())
            .arg("date", Arg::Date(y, m, d))
    }

    /// The day the run started, `YYYY-MM-DD` (UTC), for file names.
    pub fn run_date(&self) -> String {
        let (y, m, d) = civil_date(self.started_at_unix_ms);
        format!("{y:04}-{m:02}-{d:02}")
    }

    /// A short name of the browser (or runtime) and OS, such as
    /// "Chrome 156 on Linux", read from the user agent.
    pub fn short_name(&self) -> Phrase {
        if let Some(native) = &self.native {
            return native.short_name();
        }
        match self.browser_and_os() {
            (Some(b), Some(os)) => Phrase::new(key!("env.browser_on_os"))
                .data("browser", b)
                .code("os", os),
            (Some(b), None) => Phrase::written(b),
            (None, _) => Phrase::written(self.user_agent.chars().take(60).collect::<String>()),
        }
    }

    /// The short name as a result link stores it (`Chrome 156 on Linux`,
    /// in every language; the page words it when it opens the link).
    pub fn link_name(&self) -> String {
        match (&self.native, self.browser_and_os()) {
            (Some(native), _) => native.name.clone(),
            (None, (Some(b), Some(os))) => format!("{b}{LINK_NAME_JOIN}{os}"),
            (None, (Some(b), None)) => b,
            (None, (None, _)) => self.user_agent.chars().take(60).collect(),
        }
    }

    /// The browser with its major version and the OS, from the user agent
    /// (or from a name a link stored).
    fn browser_and_os(&self) -> (Option<String>, Option<&'static str>) {
        let ua = self.user_agent.as_str();
        if let Some((b, os)) = ua.split_once(LINK_NAME_JOIN)
            && let Some(&os) = OS_NAMES.iter().find(|&&n| n == os)
        {
            return (Some(b.to_owned()), Some(os));
        }
        let version_after = |token: &str| {
            ua.split(token)
                .nth(1)
                .map(|rest| rest.split(['.', ' ', ';', ')']).next().unwrap_or(""))
        };
        let browser = [
            ("Firefox/", "Firefox"),
            ("Edg/", "Edge"),
            ("Chrome/", "Chrome"),
            ("Version/", "Safari"),
        ]
        .into_iter()
        .find_map(|(token, name)| version_after(token).map(|v| format!("{name} {v}")));
        let os = [
            ("Android", "Android"),
            ("iPhone", "iOS"),
            ("Windows", "Windows"),
            ("Mac OS X", "macOS"),
            ("Linux", "Linux"),
        ]
        .into_iter()
        .find(|(token, _)| ua.contains(token))
        .map(|(_, name)| name);
        (browser, os)
    }
}

/// A browser engine, as a user agent or a bundled set's name names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Engine {
    /// Chromium's: Chrome, Edge and the like.
    Blink,
    /// Firefox's.
    Gecko,
    /// Safari's, and every browser's on iOS.
    WebKit,
}

impl Engine {
    /// The engine `text` (a user agent, a set's name) names, if any. In
    /// this order: Chromium's agents name WebKit too, and iOS's browsers
    /// (CriOS, FxiOS, EdgiOS) name neither Chrome nor Firefox.
    fn named(text: &str) -> Option<Engine> {
        [
            ("Firefox", Engine::Gecko),
            ("Chrom", Engine::Blink),
            ("WebKit", Engine::WebKit),
            ("Safari", Engine::WebKit),
        ]
        .into_iter()
        .find(|(word, _)| text.contains(word))
        .map(|(_, engine)| engine)
    }
}

impl Environment {
    /// The engine of the browser that ran this (its user agent's, or a
    /// bundled engine set's), if it names one: which bundled engine set is
    /// the reader's own, to show beside a lesson this page could not
    /// measure. Never what the page can do, which is detected.
    pub(crate) fn engine(&self) -> Option<Engine> {
        match &self.native {
            Some(native) => native.engine(),
            None => Engine::named(&self.user_agent),
        }
    }
}

/// How a result link joins the browser and the OS of its short name.
const LINK_NAME_JOIN: &str = " on ";
/// The systems a short name names.
const OS_NAMES: [&str; 5] = ["Android", "iOS", "Windows", "macOS", "Linux"];

/// The UTC calendar date (year, month, day) of a Unix time in ms, in the
/// proleptic Gregorian calendar (H. Hinnant's `civil_from_days`); any
/// input, a link's included, gives some date and never panics.
pub(crate) fn civil_date(unix_ms: f64) -> (i64, u32, u32) {
    let days = (unix_ms / 86_400_000.0).floor().clamp(-1e9, 1e9) as i64;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}
