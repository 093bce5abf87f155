//! waitlab-native: the article's waiting experiments run natively (std
//! threads, tokio, futexes), written in waitlab's result schema so the page
//! can set them beside a browser's numbers.
//!
//! `waitlab-native --help` lists the options; the result goes to stdout or
//! `--out FILE`, progress and a summary table to stderr.

mod cancel;
mod env;
mod handoff;
mod ladder;
mod limit;
mod periodic;
mod runtime;
mod starvation;
mod timed;
mod wake;

use clap::Parser;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use waitlab_core::compare;
use waitlab_core::experiments::Experiment;
use waitlab_core::experiments::cancel_waits::CancelConfig;
use waitlab_core::experiments::concurrency_limit::LimitConfig;
use waitlab_core::experiments::main_starvation::MainConfig;
use waitlab_core::experiments::periodic_work::PeriodicConfig;
use waitlab_core::experiments::pool_starvation::PoolConfig;
use waitlab_core::experiments::producer_consumer::ProducerConsumerConfig;
use waitlab_core::experiments::spin_ladder::LadderConfig;
use waitlab_core::experiments::timed_waits::{Mechanism, TimedWaitsConfig};
use waitlab_core::experiments::wake_latency::WakeConfig;
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
    PossibleValuesParser::new(Experiment::ALL.map(|e| {
        PossibleValue::new(e.slug()).help(format!("{}: {}", e.badge(), english().text(e.heading())))
    }))
    .map(|slug| Experiment::from_slug(&slug).expect("one of the slugs listed"))
}

/// The waiting experiments of "Thread.Sleep vs Task.Delay vs SpinWait",
/// run natively, in waitlab's result schema.
#[derive(Debug, Parser)]
#[command(version, about, long_about = None)]
struct Cli {
    /// A short run (a few seconds) instead of the default (under 30 s).
    #[arg(long)]
    quick: bool,
    /// The article's full pool experiment: 200 jobs of 1000 ms (minutes
    /// with few cores) instead of 40 jobs of 250 ms.
    #[arg(long, conflicts_with = "quick")]
    full_pool: bool,
    /// Run only these experiments (repeat or separate with commas).
    #[arg(long, value_delimiter = ',', value_parser = experiment_names())]
    only: Vec<Experiment>,
    /// Write the JSON result here instead of to stdout.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Workers of the pool experiment (default: the core count, at most 4).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    workers: Option<u32>,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
}

/// The configurations of one run.
struct Plan {
    timed: Option<TimedWaitsConfig>,
    main: Option<MainConfig>,
    pool: Option<PoolConfig>,
    ladder: Option<LadderConfig>,
    wake: Option<WakeConfig>,
    cancel: Option<CancelConfig>,
    periodic: Option<PeriodicConfig>,
    limit: Option<LimitConfig>,
    handoff: Option<ProducerConsumerConfig>,
}

impl Plan {
    fn of(cli: &Cli) -> Plan {
        let wanted = |e: Experiment| cli.only.is_empty() || cli.only.contains(&e);
        let workers = cli
            .workers
            .unwrap_or_else(|| PoolConfig::for_cores(env::cores()).workers);
        // The native probe's own mechanisms (`std` and tokio).
        let mut timed = TimedWaitsConfig {
            mechanisms: Mechanism::NATIVE.to_vec(),
            ..TimedWaitsConfig::default()
        };
        let mut main = MainConfig::default();
        let mut pool = PoolConfig {
            workers,
            ..PoolConfig::for_cores(workers)
        };
        let mut ladder = LadderConfig::default();
        let mut wake = WakeConfig::default();
        let mut cancel = CancelConfig::default();
        let mut periodic = PeriodicConfig::default();
        let mut limit = LimitConfig::default();
        let mut handoff = ProducerConsumerConfig::default();
        if cli.quick {
            timed.samples = 20;
            timed.durations_ms = vec![0, 1, 10];
            main.jobs = 4;
            main.wait_ms = 50;
            pool.jobs = 4 * workers;
            pool.wait_ms = 50;
            ladder.repeats = 3;
            ladder.spin_until_ms = 50;
            wake.rounds = 20;
            cancel.rounds = 10;
            periodic.ticks = 10;
            limit.jobs = 12;
            handoff.items = 30;
            handoff.burst = 500;
        }
        if cli.full_pool {
            pool.jobs = 200;
            pool.wait_ms = 1000;
        }
        Plan {
            timed: wanted(Experiment::TimedWaits).then_some(timed),
            main: wanted(Experiment::MainStarvation).then_some(main),
            pool: wanted(Experiment::PoolStarvation).then_some(pool),
            ladder: wanted(Experiment::SpinLadder).then_some(ladder),
            wake: wanted(Experiment::WakeLatency).then_some(wake),
            cancel: wanted(Experiment::CancelWaits).then_some(cancel),
            periodic: wanted(Experiment::PeriodicWork).then_some(periodic),
            limit: wanted(Experiment::ConcurrencyLimit).then_some(limit),
            handoff: wanted(Experiment::ProducerConsumer).then_some(handoff),
        }
    }

    /// Units of progress of the whole run.
    fn units(&self) -> u64 {
        self.timed.as_ref().map_or(0, timed::units)
            + self.main.as_ref().map_or(0, |c| 2 * u64::from(c.jobs))
            + self.pool.as_ref().map_or(0, |c| 2 * u64::from(c.jobs))
            + self.ladder.as_ref().map_or(0, ladder::units)
            + self.wake.as_ref().map_or(0, wake::units)
            + self.cancel.as_ref().map_or(0, cancel::units)
            + self.periodic.as_ref().map_or(0, periodic::units)
            + self.limit.as_ref().map_or(0, limit::units)
            + self.handoff.as_ref().map_or(0, handoff::units)
    }

    fn run(&self, progress: &Progress, command: &str) -> Report {
        let samples = self.timed.as_ref().map_or(0, |c| c.samples);
        let mut report = Report::new(env::environment(command, samples), None);
        report.timed_waits = self.timed.as_ref().map(|c| timed::run(c, progress));
        report.main_starvation = self
            .main
            .as_ref()
            .map(|c| starvation::run_main(c, progress));
        report.pool_starvation = self
            .pool
            .as_ref()
            .map(|c| starvation::run_pool(c, progress));
        report.spin_ladder = self.ladder.as_ref().map(|c| ladder::run(c, progress));
        report.wake_latency = self.wake.as_ref().map(|c| wake::run(c, progress));
        report.cancel_waits = self.cancel.as_ref().map(|c| cancel::run(c, progress));
        report.periodic_work = self.periodic.as_ref().map(|c| periodic::run(c, progress));
        report.concurrency_limit = self.limit.as_ref().map(|c| limit::run(c, progress));
        report.producer_consumer = self.handoff.as_ref().map(|c| handoff::run(c, progress));
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

/// The page's English catalog (every part): the native probe words what
/// it shows as the page does in English.
pub fn english() -> &'static Catalog {
    static EN: std::sync::OnceLock<Catalog> = std::sync::OnceLock::new();
    EN.get_or_init(|| {
        let parts = [
            include_str!("../../../www/i18n/en.json"),
            include_str!("../../../www/i18n/en.runs.json"),
            include_str!("../../../www/i18n/en.compare.json"),
        ];
        Catalog::from_parts(Lang::En, &parts).expect("a valid English catalog")
    })
}

/// `phrase` in English.
pub fn words(phrase: &Phrase) -> String {
    english().render(phrase)
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
    for lesson in Lesson::ALL {
        let line = summary::line(lesson, Some(report), &[&article]);
        out.push_str(&format!(
            "  {:<72} {}\n",
            words(&lesson.phrase()),
            words(&line.verdict.phrase())
        ));
        for (key, figures) in [
            (key!("summary.here"), line.run),
            (key!("summary.article"), line.article),
        ] {
            if let Some(figures) = figures {
                out.push_str(&format!(
                    "      {}\n",
                    words(&Phrase::new(key).phrase("figures", figures))
                ));
            }
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
    let plan = Plan::of(&cli);
    let progress = progress_bar(plan.units(), cli.no_progress);
    let started = Instant::now();
    let report = plan.run(&progress, &command);
    progress.finish_and_clear();
    let json = report.to_json();
    let written = match &cli.out {
        Some(path) => std::fs::write(path, format!("{json}\n")),
        None => writeln!(std::io::stdout().lock(), "{json}"),
    };
    if let Err(e) = written {
        let to = cli
            .out
            .as_ref()
            .map_or("stdout".to_owned(), |p| p.display().to_string());
        eprintln!("waitlab-native: could not write the result to {to}: {e}");
        return std::process::ExitCode::FAILURE;
    }
    eprint!("{}", summary(&report));
    eprintln!(
        "\nwaitlab-native: done in {:.1} s{}",
        started.elapsed().as_secs_f64(),
        cli.out
            .as_ref()
            .map_or(String::new(), |p| format!(", result in {}", p.display()))
    );
    std::process::ExitCode::SUCCESS
}
