//! The versioned result schema: what a run produces, what the page exports
//! as JSON, and (later) what share links and native probes carry.
//!
//! The schema is a public boundary. Any change to these shapes bumps
//! [`SCHEMA_VERSION`]; [`Report::from_json`] refuses other versions with a
//! message instead of misreading them. Version 2 added the native
//! environment and the stated figures; a version-1 file is a valid version-2
//! file without them, so both are read. Version 3 structured the native
//! provenance (the CPU's model apart from its cores, where the numbers
//! come from as an article or a command, so the page words it in the
//! reader's language); an older file's provenance text is kept as written.
//! Version 4 keeps a run's failure as a phrase, said in the language of
//! whoever reads the report; an older file's failure sentence is kept as
//! written.
//! Golden files in `tests/data/` pin the
//! wire format.

use crate::clock::ClockInfo;
use crate::experiments::cancel_waits::CancelWaits;
use crate::experiments::concurrency_limit::ConcurrencyLimit;
use crate::experiments::main_starvation::MainStarvation;
use crate::experiments::periodic_work::PeriodicWork;
use crate::experiments::pool_starvation::PoolStarvation;
use crate::experiments::producer_consumer::ProducerConsumer;
use crate::experiments::spin_ladder::SpinLadder;
use crate::experiments::timed_waits::Mechanism;
use crate::experiments::timed_waits::TimedWaits;
use crate::experiments::wake_latency::WakeLatency;
use crate::experiments::{Description, Experiment, StatedFigure, Visit};
use crate::key;
use crate::text::{Arg, Phrase};
use serde::{Deserialize, Serialize};

/// The tag every report carries in its `schema` field.
pub const SCHEMA_NAME: &str = "waitlab.result";
/// The current schema version.
pub const SCHEMA_VERSION: u32 = 4;
/// The oldest version this build still reads.
pub const OLDEST_READABLE_VERSION: u32 = 1;

/// Why a report could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SchemaError {
    /// Not JSON, or not this shape.
    #[error("not a waitlab result: {0}")]
    Malformed(#[from] serde_json::Error),
    /// Another schema altogether.
    #[error("not a waitlab result (schema \"{0}\")")]
    ForeignSchema(String),
    /// A version this build does not know.
    #[error(
        "result schema version {found} is not supported (this build reads versions 1 to {supported})"
    )]
    UnsupportedVersion {
        /// Version in the file.
        found: u32,
        /// Version this build reads.
        supported: u32,
    },
}

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
    /// A short name for tables and legends, such as "Rust native, Linux".
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
            return Phrase::written(native.name.clone());
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

/// How a result link joins the browser and the OS of its short name.
const LINK_NAME_JOIN: &str = " on ";
/// The systems a short name names.
const OS_NAMES: [&str; 5] = ["Android", "iOS", "Windows", "macOS", "Linux"];

/// A complete result file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Always [`SCHEMA_NAME`].
    pub schema: String,
    /// Always [`SCHEMA_VERSION`] when written by this build.
    pub version: u32,
    /// Where it was measured.
    pub env: Environment,
    /// Experiment 1, if it was run.
    pub timed_waits: Option<TimedWaits>,
    /// Experiment 2a, if it was run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub main_starvation: Option<MainStarvation>,
    /// Experiment 2b, if it was run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pool_starvation: Option<PoolStarvation>,
    /// Experiment 3, if it was run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spin_ladder: Option<SpinLadder>,
    /// Experiment 4, if it was run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wake_latency: Option<WakeLatency>,
    /// Experiment 6, if it was run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cancel_waits: Option<CancelWaits>,
    /// Experiment 7, if it was run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub periodic_work: Option<PeriodicWork>,
    /// Experiment 8, if it was run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrency_limit: Option<ConcurrencyLimit>,
    /// Experiment 9, if it was run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub producer_consumer: Option<ProducerConsumer>,
    /// Why the run failed, if it did (its results are then absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<Failure>,
    /// Figures stated by a source rather than measured (the article's).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stated: Vec<StatedFigure>,
    /// Whether this report was decoded from a share link: its statistics
    /// are quantized and its samples reconstructed (see `share`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub from_link: bool,
    /// The run's timeline, if this report is of a run on this page (or a
    /// native run asked for one): never in its JSON or links.
    #[serde(skip)]
    pub trace: Option<std::sync::Arc<crate::trace::Trace>>,
}

impl Report {
    /// Whether it has results of `experiment`.
    pub fn has(&self, experiment: Experiment) -> bool {
        struct Has<'a>(&'a Report);
        impl Visit for Has<'_> {
            type Out = bool;
            fn visit<E: Description>(self) -> bool {
                E::of(self.0).is_some()
            }
        }
        experiment.visit(Has(self))
    }

    /// Whether it measured anything of `experiment`: one outcome with
    /// samples. A run without one (every row unavailable here) is no
    /// result to show, only the reasons.
    pub fn measured_anything(&self, experiment: Experiment) -> bool {
        struct Measured<'a>(&'a Report);
        impl Visit for Measured<'_> {
            type Out = bool;
            fn visit<E: Description>(self) -> bool {
                E::of(self.0).is_some_and(E::measured_anything)
            }
        }
        experiment.visit(Measured(self))
    }

    /// A report of the current version with `self`'s environment and its
    /// results of `experiment` alone.
    pub fn only(&self, experiment: Experiment) -> Report {
        let mut part = Report::new(self.env.clone(), None);
        experiment.visit(Copy(self, &mut part));
        part.trace = self.trace.clone();
        part
    }

    /// A report of the current version.
    pub fn new(env: Environment, timed_waits: Option<TimedWaits>) -> Report {
        Report {
            schema: SCHEMA_NAME.to_owned(),
            version: SCHEMA_VERSION,
            env,
            timed_waits,
            main_starvation: None,
            pool_starvation: None,
            spin_ladder: None,
            wake_latency: None,
            cancel_waits: None,
            periodic_work: None,
            concurrency_limit: None,
            producer_consumer: None,
            failure: None,
            stated: Vec::new(),
            from_link: false,
            trace: None,
        }
    }

    /// One report holding every experiment of `parts` (the first part
    /// that has an experiment gives it), with the first part's
    /// environment, marked hidden if any part was; `None` without parts.
    pub fn combine(parts: &[Report]) -> Option<Report> {
        let first = parts.first()?;
        let mut env = first.env.clone();
        env.hidden_during_run = parts.iter().any(|p| p.env.hidden_during_run);
        let mut all = Report::new(env, None);
        for e in Experiment::ALL {
            if let Some(part) = parts.iter().find(|p| p.has(e)) {
                e.visit(Copy(part, &mut all));
            }
        }
        Some(all)
    }

    /// Pretty JSON, as exported by the page.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report always serializes")
    }

    /// Parses a report, checking the schema name and version first so a
    /// future file gets a version message rather than a field error.
    pub fn from_json(s: &str) -> Result<Report, SchemaError> {
        #[derive(Deserialize)]
        struct Header {
            schema: String,
            version: u32,
        }
        let header: Header = serde_json::from_str(s)?;
        if header.schema != SCHEMA_NAME {
            return Err(SchemaError::ForeignSchema(
                header.schema.chars().take(40).collect(),
            ));
        }
        if !(OLDEST_READABLE_VERSION..=SCHEMA_VERSION).contains(&header.version) {
            return Err(SchemaError::UnsupportedVersion {
                found: header.version,
                supported: SCHEMA_VERSION,
            });
        }
        let mut report: Report = serde_json::from_str(s)?;
        // What a run measured is what its cells name (files written before
        // runs could pick their mechanisms do not say).
        if let Some(tw) = &mut report.timed_waits {
            tw.config.mechanisms = Mechanism::named_by(tw.cells.iter().map(|c| c.key));
        }
        Ok(report)
    }
}

/// Where a report keeps an experiment's results: written for each
/// experiment from [`each_experiment!`](crate::experiments)'s list, its
/// id naming its field.
pub trait Stored: Sized {
    /// Its results in `report`.
    fn of(report: &Report) -> Option<&Self>;
    /// Where `report` keeps its results.
    fn slot(report: &mut Report) -> &mut Option<Self>;
}

/// Each experiment's [`Stored`], from the list.
macro_rules! stored {
    ($($(#[$doc:meta])* $variant:ident => $module:ident::$result:ident as $slug:literal { $($meta:tt)* },)*) => {
        $(impl Stored for crate::experiments::$module::$result {
            fn of(report: &Report) -> Option<&Self> {
                report.$module.as_ref()
            }

            fn slot(report: &mut Report) -> &mut Option<Self> {
                &mut report.$module
            }
        })*
    };
}

crate::experiments::each_experiment!(stored);

/// Copies one experiment's results from the first report to the second.
struct Copy<'a>(&'a Report, &'a mut Report);

impl Visit for Copy<'_> {
    type Out = ();
    fn visit<E: Description>(self) {
        *E::slot(self.1) = E::of(self.0).cloned();
    }
}

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

#[cfg(test)]
mod tests;
