//! A run as files a reader takes away: CSV with one row per sample (or,
//! where a run keeps no samples, per measured item), and the names the
//! files get. Locale-free: `.` decimals, times in ms.

use crate::environment::civil_date;
use crate::experiments::{Experiment, Registered, Visit};
use crate::number::fixed;
use crate::schema::{Environment, Report};

pub use crate::experiments::Sample;

/// The CSV's columns. `series` is the mechanism, strategy or mode;
/// `requested_ms` the wait asked for (timed and cancellable waits) or the
/// interval (periodic work, whose samples are each tick's lateness);
/// a handoff's samples are its paced items' latencies;
/// `index` the sample's (or job's, or call's, or tick's) number;
/// for a concurrency limit `at_ms` is when a job got its slot and
/// `value_ms` how long it held it; `at_ms` when it happened, ms since the
/// batch started (starvation); `value_ms` the sample. The rest describe
/// the environment, the same on every row.
pub const CSV_COLUMNS: &str = "experiment,series,requested_ms,index,at_ms,value_ms,\
    user_agent,cores,cross_origin_isolated,clock_step_ms,started_at_unix_ms";

/// Decimals of every time: to a nanosecond.
const PLACES: u8 = 6;

/// `text` as a CSV field: quoted when it holds a comma, quote or line
/// break, its quotes doubled.
fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

fn environment(env: &Environment) -> String {
    [
        field(&env.user_agent),
        env.hardware_concurrency.to_string(),
        env.cross_origin_isolated.to_string(),
        env.clock
            .map_or_else(String::new, |c| fixed(c.min_step_ms, PLACES)),
        fixed(env.started_at_unix_ms, 0),
    ]
    .join(",")
}

/// `experiment`'s part of `report` as CSV: the header, then one line per
/// sample ([`CSV_COLUMNS`]); only the header if the report lacks it.
pub fn csv(report: &Report, experiment: Experiment) -> String {
    struct SamplesOf<'a>(&'a Report);
    impl<'a> Visit for SamplesOf<'a> {
        type Out = Vec<Sample<'a>>;
        fn visit<E: Registered>(self) -> Vec<Sample<'a>> {
            E::of(self.0).map_or_else(Vec::new, E::samples)
        }
    }
    let rows = experiment.visit(SamplesOf(report));
    let env = environment(&report.env);
    let mut out = String::with_capacity(64 * (rows.len() + 1));
    out.push_str(CSV_COLUMNS);
    out.push('\n');
    for r in rows {
        let line = [
            experiment.slug().to_owned(),
            field(r.series),
            r.requested_ms.map_or_else(String::new, |d| d.to_string()),
            r.index.to_string(),
            r.at_ms.map_or_else(String::new, |t| fixed(t, PLACES)),
            fixed(r.value_ms, PLACES),
        ]
        .join(",");
        out.push_str(&line);
        out.push(',');
        out.push_str(&env);
        out.push('\n');
    }
    out
}

/// The name a download of `report` gets: `waitlab-EXPERIMENT-DATE.EXT`,
/// the date the run started (UTC), `EXPERIMENT` left out for a report of
/// several.
pub fn file_name(report: &Report, experiment: Option<Experiment>, extension: &str) -> String {
    named(report, experiment.map(Experiment::slug), extension)
}

/// The name a download of one of `experiment`'s charts (`chart`, such as
/// `histogram`) gets: `waitlab-EXPERIMENT-CHART-DATE.EXT`.
pub fn chart_file_name(
    report: &Report,
    experiment: Experiment,
    chart: &str,
    extension: &str,
) -> String {
    named(
        report,
        Some(&format!("{}-{chart}", experiment.slug())),
        extension,
    )
}

fn named(report: &Report, what: Option<&str>, extension: &str) -> String {
    let (y, m, d) = civil_date(report.env.started_at_unix_ms);
    let what = what.map_or_else(String::new, |w| format!("{w}-"));
    format!("waitlab-{what}{y:04}-{m:02}-{d:02}.{extension}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report() -> Report {
        Report::from_json(include_str!("../tests/data/export_report.json"))
            .expect("the golden report parses")
    }

    #[test]
    fn csv_has_one_row_per_sample_with_the_environment() {
        let golden = include_str!("../tests/data/export_timed_waits.csv");
        assert_eq!(csv(&report(), Experiment::TimedWaits), golden);
    }

    #[test]
    fn fields_with_commas_and_quotes_are_quoted() {
        assert_eq!(field("plain"), "plain");
        assert_eq!(field("a, b"), "\"a, b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }

    #[test]
    fn a_report_without_the_experiment_is_only_a_header() {
        let r = report();
        assert_eq!(csv(&r, Experiment::WakeLatency), format!("{CSV_COLUMNS}\n"));
    }

    #[test]
    fn file_names_carry_the_experiment_and_the_date() {
        let r = report();
        assert_eq!(
            file_name(&r, Some(Experiment::TimedWaits), "csv"),
            "waitlab-timed-waits-2026-12-01.csv"
        );
        assert_eq!(file_name(&r, None, "json"), "waitlab-2026-12-01.json");
        assert_eq!(
            chart_file_name(&r, Experiment::TimedWaits, "histogram", "svg"),
            "waitlab-timed-waits-histogram-2026-12-01.svg"
        );
    }
}
