//! Experiment 2b natively: a multi-thread runtime with K workers is the
//! thread pool of the article's 200 × 1 s experiment.
//!
//! Progress is reported once a run is done, never while its jobs are
//! timed.

use crate::main_starvation::job;
use crate::{Cli, Native, Progress, ms_since, runtime, trace};
use std::time::{Duration, Instant};
use waitlab_core::experiments::Config;
use waitlab_core::experiments::JobMode;
use waitlab_core::experiments::pool_starvation::{JobSpan, PoolConfig, PoolRun, PoolStarvation};
use waitlab_core::key;
use waitlab_core::trace::{Kind, Name};

fn pool_run(config: &PoolConfig, mode: JobMode) -> PoolRun {
    let wait = Duration::from_millis(u64::from(config.wait_ms));
    let rt = runtime::multi_thread(config.workers);
    let jobs = config.jobs;
    rt.block_on(async move {
        let start = Instant::now();
        let handles: Vec<_> = (0..jobs)
            .map(|job_no| {
                tokio::spawn(async move {
                    let (worker, start_ms) = (runtime::worker_index(), ms_since(start));
                    job(mode, wait).await;
                    JobSpan {
                        worker,
                        job: job_no,
                        start_ms,
                        end_ms: ms_since(start),
                    }
                })
            })
            .collect();
        let extra = tokio::spawn(async move { ms_since(start) });
        let mut spans = Vec::with_capacity(handles.len());
        for h in handles {
            spans.push(h.await.expect("jobs do not panic"));
        }
        let extra_job_wait_ms = extra.await.expect("the extra job does not panic");
        on_timeline(mode, wait, start, &spans);
        PoolRun {
            mode,
            batch_ms: spans.iter().map(|s| s.end_ms).fold(0.0, f64::max),
            extra_job_wait_ms,
            spans,
        }
    })
}

/// A batch on the timeline, once it is over: each job on its worker,
/// holding it or not, and in the queue from the batch's start until a
/// worker took it.
fn on_timeline(mode: JobMode, wait: Duration, start: Instant, spans: &[JobSpan]) {
    let kind = Kind::waiting(!mode.is_async());
    let job = Name::ms(key!("timeline.name.job"), wait.as_millis() as u32);
    for s in spans {
        let lane = format!("thread pool: worker {}", s.worker + 1);
        trace::spans_since(&lane, start, [(kind, job, s.start_ms, s.end_ms)]);
    }
    let queued = Name::of(key!("timeline.name.queued_job"));
    trace::spans_since(
        "thread pool: queue",
        start,
        spans
            .iter()
            .map(|s| (Kind::Queued, queued, 0.0, s.start_ms)),
    );
}

impl Native for PoolStarvation {
    fn config(cli: &Cli) -> PoolConfig {
        let workers = cli
            .workers
            .unwrap_or_else(|| PoolConfig::for_cores(crate::env::cores()).workers);
        let c = PoolConfig {
            workers,
            ..PoolConfig::for_cores(workers)
        };
        if cli.full_pool {
            PoolConfig {
                jobs: 200,
                wait_ms: 1000,
                ..c
            }
        } else if cli.quick {
            PoolConfig {
                jobs: 4 * workers,
                ..c.quick()
            }
        } else {
            c
        }
    }

    /// Runs experiment 2b with `config`, blocking first.
    fn run(config: &PoolConfig, tick: &Progress) -> PoolStarvation {
        let (workers, jobs, ms) = (config.workers, config.jobs, config.wait_ms);
        let name =
            |mode: JobMode| format!("{workers} workers, {jobs} {} jobs of {ms} ms", mode.name());
        let runs = crate::each(&JobMode::ALL, tick, config.jobs, name, |mode| {
            pool_run(config, mode)
        });
        PoolStarvation {
            config: config.clone(),
            runs,
            blocking_sleeps: true,
        }
    }

    /// Units of progress: each job of each mode.
    fn units(config: &PoolConfig) -> u64 {
        2 * u64::from(config.jobs)
    }
}
