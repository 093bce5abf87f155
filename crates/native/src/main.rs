//! waitlab-native: the article's waiting experiments run natively (std
//! threads, tokio, futexes), written in waitlab's result schema so the page
//! can set them beside a browser's numbers.
//!
//! `waitlab-native --help` lists the options; the result goes to stdout or
//! `--out FILE`, progress and a summary table to stderr. `--link` prints a
//! result link instead (the page's `#v1:` codec, written by core), which
//! opens the run in the page beside the reader's browser, as native.

mod cancel_waits;
mod concurrency_limit;
mod env;
mod machine;
mod main_starvation;
mod periodic_work;
mod pool_starvation;
mod producer_consumer;
mod runtime;
mod spin_ladder;
mod timed_waits;
mod trace;
mod wake_latency;

use clap::Parser;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::Write;
use std::marker::PhantomData;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use waitlab_core::compare;
use waitlab_core::experiments::Config;
use waitlab_core::experiments::timed_waits::TimedWaits;
use waitlab_core::experiments::{Experiment, Registered, Way};
use waitlab_core::key;
use waitlab_core::lang::Lang;
use waitlab_core::schema::Report;
use waitlab_core::summary::{self, Lesson};
use waitlab_core::text::{Catalog, Phrase};

/// Progress shared by every experiment (cheap to clone, thread-safe). The
/// experiments report it between cells or runs, never while they time.
pub type Progress = ProgressBar;

/// Milliseconds since `t`.
pub fn ms_since(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

/// Each of `values` in `unit`s.
pub fn durations(values: Vec<u32>, unit: Duration) -> Vec<Duration> {
    values.into_iter().map(|v| unit * v).collect()
}

/// The time from each of `from` to the same round's `to`, ms (never below
/// zero).
pub fn ms_between(from: &[Instant], to: &[Instant]) -> Vec<f64> {
    let each = |(from, to): (&Instant, &Instant)| to.saturating_duration_since(*from);
    from.iter()
        .zip(to)
        .map(each)
        .map(|d| d.as_secs_f64() * 1000.0)
        .collect()
}

/// Keeps the thread busy for `d` (a delay before a signal, a tick's work,
/// a pause between items), as the page's probes busy-wait.
pub fn busy_for(d: Duration) {
    let until = Instant::now() + d;
    while Instant::now() < until {
        std::hint::spin_loop();
    }
}

/// The experiments as the command line names them: each by its slug (the
/// page's), with its badge and heading as help.
fn experiment_names() -> impl clap::builder::TypedValueParser<Value = Experiment> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let native = Experiment::ALL
        .into_iter()
        .filter(|e| e.meta().runs_natively());
    PossibleValuesParser::new(native.map(|e| {
        PossibleValue::new(e.slug()).help(format!("{}: {}", e.badge(), english().text(e.heading())))
    }))
    .map(|slug| Experiment::from_slug(&slug).expect("one of the slugs listed"))
}

/// The page `--link` points at when it names none: `cargo xtask serve`'s.
const DEFAULT_PAGE: &str = "http://127.0.0.1:8080/";

/// A link longer than this is cut by some chat apps and mail clients.
const LONG_LINK: usize = 2000;

/// The result link of `report` on `page`: its body in the page's codec,
/// compressed as the page does (raw DEFLATE), after `#`.
fn link_of(report: &Report, page: &str) -> String {
    let body = waitlab_core::link::encode_body(report);
    let deflated = miniz_oxide::deflate::compress_to_vec(&body, 10);
    format!(
        "{}#{}",
        page.split('#').next().unwrap_or(page),
        waitlab_core::link::wrap(&deflated)
    )
}

/// What to say of a link of `chars` characters, if it is too long to share
/// everywhere.
fn long_link_note(chars: usize) -> Option<String> {
    (chars > LONG_LINK).then(|| {
        format!(
            "the link is {chars} characters, more than {LONG_LINK}, which some chat apps and mail clients cut; --only with one or two experiments (such as --only timed-waits) makes a shorter one."
        )
    })
}

/// The waiting experiments of "Thread.Sleep vs Task.Delay vs SpinWait",
/// run natively, in waitlab's result schema.
#[derive(Debug, Parser)]
#[command(version, about, long_about = None)]
pub struct Cli {
    /// A short run (a few seconds) instead of the default (under 30 s).
    #[arg(long)]
    pub quick: bool,
    /// The article's full pool experiment: 200 jobs of 1000 ms (minutes
    /// with few cores) instead of 40 jobs of 250 ms.
    #[arg(long, conflicts_with = "quick")]
    pub full_pool: bool,
    /// Run only these experiments (repeat or separate with commas).
    #[arg(long, value_delimiter = ',', value_parser = experiment_names())]
    pub only: Vec<Experiment>,
    /// Write the JSON result here instead of to stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Print a result link of the run to stdout instead of its JSON:
    /// PAGE (by default `cargo xtask serve`'s) followed by the run, which
    /// the page opens beside the reader's browser as a native run.
    #[arg(
        long,
        value_name = "PAGE",
        num_args = 0..=1,
        default_missing_value = DEFAULT_PAGE
    )]
    pub link: Option<String>,
    /// Also write the run's timeline to FILE, in the Trace Event Format
    /// (what each thread did and when), which Perfetto UI
    /// (ui.perfetto.dev), chrome://tracing and speedscope open, as they
    /// open the page's.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// Workers of the pool experiment (default: the core count, at most 4).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub workers: Option<u32>,
    /// No progress bar.
    #[arg(long)]
    pub no_progress: bool,
}

/// One experiment as the native probe runs it (implemented in its module,
/// named by `probe`'s match).
pub trait Native: Registered {
    /// The configuration `cli` asks for: the defaults for this machine,
    /// or their short run with `--quick`.
    fn config(cli: &Cli) -> Self::Config {
        let config = Self::Config::for_cores(env::cores());
        if cli.quick { config.quick() } else { config }
    }
    /// Units of progress a run of `config` counts.
    fn units(config: &Self::Config) -> u64;
    /// Measures it with `config`, counting progress on `tick`.
    fn run(config: &Self::Config, tick: &Progress) -> Self;
}

/// An experiment's [`Native`], its types erased.
trait Probe: Sync {
    fn units(&self, cli: &Cli) -> u64;
    fn run(&self, cli: &Cli, progress: &Progress, report: &mut Report);
}

struct Of<E>(PhantomData<fn() -> E>);

impl<E: Native> Probe for Of<E> {
    fn units(&self, cli: &Cli) -> u64 {
        E::units(&E::config(cli))
    }

    fn run(&self, cli: &Cli, progress: &Progress, report: &mut Report) {
        *E::slot(report) = Some(E::run(&E::config(cli), progress));
    }
}

/// How the native probe runs `experiment` (none for one only a browser
/// can run: a program has no tab to hide).
fn probe(experiment: Experiment) -> Option<&'static dyn Probe> {
    use waitlab_core::experiments::*;
    Some(match experiment {
        Experiment::TimedWaits => &Of::<timed_waits::TimedWaits>(PhantomData),
        Experiment::MainStarvation => &Of::<main_starvation::MainStarvation>(PhantomData),
        Experiment::PoolStarvation => &Of::<pool_starvation::PoolStarvation>(PhantomData),
        Experiment::SpinLadder => &Of::<spin_ladder::SpinLadder>(PhantomData),
        Experiment::WakeLatency => &Of::<wake_latency::WakeLatency>(PhantomData),
        Experiment::CancelWaits => &Of::<cancel_waits::CancelWaits>(PhantomData),
        Experiment::PeriodicWork => &Of::<periodic_work::PeriodicWork>(PhantomData),
        Experiment::ConcurrencyLimit => &Of::<concurrency_limit::ConcurrencyLimit>(PhantomData),
        Experiment::ProducerConsumer => &Of::<producer_consumer::ProducerConsumer>(PhantomData),
        Experiment::HiddenTab => return None,
    })
}

impl Cli {
    /// The experiments it asks for, in page order.
    fn experiments(&self) -> Vec<Experiment> {
        Experiment::ALL
            .into_iter()
            .filter(|e| self.only.is_empty() || self.only.contains(e))
            .collect()
    }

    /// Units of progress of the whole run.
    fn units(&self) -> u64 {
        self.experiments()
            .into_iter()
            .filter_map(probe)
            .map(|p| p.units(self))
            .sum()
    }

    /// Runs what it asks for; `command` is how it was called.
    fn run(&self, progress: &Progress, command: &str) -> Report {
        let timed = self.experiments().contains(&Experiment::TimedWaits);
        let samples = if timed {
            <TimedWaits as Native>::config(self).samples
        } else {
            0
        };
        let mut report = Report::new(env::environment(command, samples), None);
        for p in self.experiments().into_iter().filter_map(probe) {
            p.run(self, progress, &mut report);
        }
        report
    }
}

fn progress_bar(units: u64, hidden: bool) -> Progress {
    if hidden {
        return ProgressBar::with_draw_target(Some(units), ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::with_draw_target(Some(units), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{elapsed:>4} [{bar:30}] {percent:>3}% {wide_msg}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar
}

/// The page's English catalog (every part, and each experiment's texts
/// from its folder `www/i18n/ID/`, as `build.rs` lists them): the native
/// probe words what it shows as the page does in English.
pub fn english() -> &'static Catalog {
    static EN: std::sync::OnceLock<Catalog> = std::sync::OnceLock::new();
    EN.get_or_init(|| {
        let parts: &[&str] = &include!(concat!(env!("OUT_DIR"), "/english.rs"));
        Catalog::from_parts(Lang::En, parts).expect("a valid English catalog")
    })
}

/// `phrase` in English.
pub fn words(phrase: &Phrase) -> String {
    english().render(phrase)
}

/// Measures each of `items` in turn: says what on `tick` (`name`), and
/// counts `units` of progress once it is measured.
pub fn each<T: Copy, R>(
    items: &[T],
    tick: &Progress,
    units: u32,
    name: impl Fn(T) -> String,
    mut measure: impl FnMut(T) -> R,
) -> Vec<R> {
    let each = |&item: &T| {
        tick.set_message(name(item));
        let measured = measure(item);
        tick.inc(u64::from(units));
        measured
    };
    items.iter().map(each).collect()
}

/// [`each`] of `ways`, each named by its label.
pub fn each_way<W: Way, R>(
    ways: &[W],
    tick: &Progress,
    units: u32,
    measure: impl FnMut(W) -> R,
) -> Vec<R> {
    each(ways, tick, units, |way| words(&way.label()), measure)
}

/// The summary table on stderr: every experiment's comparison rows.
fn summary(report: &Report) -> String {
    let mut out = String::new();
    for experiment in Experiment::ALL {
        let Some(group) = compare::group(experiment, report) else {
            continue;
        };
        let columns = experiment.columns();
        out.push_str(&format!("\n{}\n", experiment.id().replace('_', " ")));
        out.push_str(&format!("  {:<58}", "probe"));
        for c in &columns {
            let header = words(&experiment.header(c));
            out.push_str(&format!(
                " {:>12}",
                header.split(',').next().unwrap_or(&header)
            ));
        }
        out.push('\n');
        for row in &group.rows {
            out.push_str(&format!("  {:<58}", words(&row.what)));
            for (value, c) in row.values.iter().zip(&columns) {
                out.push_str(&format!(" {:>12}", value.format(c.unit)));
            }
            for note in &row.notes {
                out.push_str(&format!("  ({})", words(note)));
            }
            out.push('\n');
        }
    }
    out.push_str(&lessons(report));
    if out.contains('‡') {
        out.push_str(
            "\n‡ below the clock's resolution: fewer than 20 clock steps, rounding rather than a \
             measurement\n",
        );
    }
    out
}

/// The last table: how code should wait, one line per lesson of the
/// article (the page's summary), this machine's figures beside the
/// article's.
fn lessons(report: &Report) -> String {
    let article = Report::from_json(include_str!(
        "../../../www/data/native/dotnet10-article-apple-m4.json"
    ))
    .expect("the bundled article set parses");
    let mut out = format!(
        "
{}
",
        words(&Phrase::new(key!("summary.heading")))
    );
    for lesson in Lesson::all() {
        let line = summary::line(lesson, summary::Ran::Report(report), &[&article]);
        out.push_str(&format!(
            "  {:<72} {}\n",
            words(&lesson.phrase()),
            words(&line.verdict.phrase())
        ));
        let here = |key, figures| Phrase::new(key).phrase("figures", figures);
        let said = [
            line.run.map(|f| here(key!("summary.here"), f)),
            line.why
                .map(|why| Phrase::new(key!("summary.why")).phrase("why", why)),
            line.article.map(|f| here(key!("summary.article"), f)),
        ];
        for phrase in said.into_iter().flatten() {
            out.push_str(&format!("      {}\n", words(&phrase)));
        }
    }
    out
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let command = std::iter::once("waitlab-native".to_owned())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ");
    let progress = progress_bar(cli.units(), cli.no_progress);
    let started = Instant::now();
    if cli.trace.is_some() {
        trace::begin();
    }
    let report = cli.run(&progress, &command);
    progress.finish_and_clear();
    if let (Some(path), Some(t)) = (&cli.trace, trace::finish()) {
        let source = format!("waitlab-native, {}", report.env.link_name());
        let json = waitlab_core::trace::events::write(&t, english(), &source);
        if let Err(e) = std::fs::write(path, json) {
            eprintln!(
                "waitlab-native: could not write the trace to {}: {e}",
                path.display()
            );
            return std::process::ExitCode::FAILURE;
        }
        eprintln!(
            "waitlab-native: timeline of {} spans on {} threads in {}",
            t.span_count(),
            t.lanes.len(),
            path.display()
        );
    }
    let json = report.to_json();
    let link = cli.link.as_deref().map(|page| link_of(&report, page));
    let written = match (&cli.out, &link) {
        (Some(path), _) => std::fs::write(path, format!("{json}\n")),
        (None, Some(_)) => Ok(()),
        (None, None) => writeln!(std::io::stdout().lock(), "{json}"),
    }
    .and_then(|()| match &link {
        Some(link) => writeln!(std::io::stdout().lock(), "{link}"),
        None => Ok(()),
    });
    if let Err(e) = written {
        let to = cli
            .out
            .as_ref()
            .map_or("stdout".to_owned(), |p| p.display().to_string());
        eprintln!("waitlab-native: could not write the result to {to}: {e}");
        return std::process::ExitCode::FAILURE;
    }
    eprint!("{}", summary(&report));
    if let Some(note) = link.as_deref().and_then(|l| long_link_note(l.len())) {
        eprintln!("\nwaitlab-native: {note}");
    }
    eprintln!(
        "\nwaitlab-native: done in {:.1} s{}",
        started.elapsed().as_secs_f64(),
        cli.out
            .as_ref()
            .map_or(String::new(), |p| format!(", result in {}", p.display()))
    );
    std::process::ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_long_link_says_so_and_names_only() {
        assert_eq!(super::long_link_note(2000), None);
        let note = super::long_link_note(2001).unwrap();
        assert!(
            note.contains("2001 characters") && note.contains("--only"),
            "{note}"
        );
    }
}
