//! Runs experiment 2b: a pool of K probe workers and a batch of N jobs that
//! block their worker (`Atomics.wait`, or a busy-wait where shared memory is
//! off) or await a timer, plus one extra job queued after the batch.
//!
//! Jobs are handed out round robin as soon as the batch starts, so they
//! queue in the workers' event loops the way work items queue in a thread
//! pool. Spans come back in each worker's `timeOrigin + now()` time, are put
//! on the page's clock with the offset measured by ping-pong before the
//! batch, and are shown relative to the moment the batch was queued.

use crate::runner::{Publish, Reporter, RunScope};
use futures::future::try_join_all;
use waitlab_browser::clock::epoch_now;
use waitlab_browser::{memory, trace, wait, worker_host::ProbeWorker};
use waitlab_core::clock::skew_ms;
use waitlab_core::experiments::JobMode;
use waitlab_core::experiments::pool_starvation::job::{JobDone, PoolJob};
use waitlab_core::experiments::pool_starvation::{JobSpan, PoolConfig, PoolRun, PoolStarvation};
use waitlab_core::key;
use waitlab_core::protocol::{FromWorker, ToWorker, shared_slots};
use waitlab_core::schema::Report;
use waitlab_core::text::Phrase;
use waitlab_core::trace::{Kind, Name, Thread};

/// Clock exchanges per worker before a batch.
const CLOCK_EXCHANGES: usize = 16;

/// How far `worker`'s `timeOrigin + now()` is ahead of the page's, ms,
/// from ping-pong exchanges (NTP's formula, `wake::skew_ms`).
async fn clock_offset(worker: &mut ProbeWorker) -> Result<f64, Phrase> {
    let mut exchanges = Vec::with_capacity(CLOCK_EXCHANGES);
    for _ in 0..CLOCK_EXCHANGES {
        let sent = epoch_now();
        worker.send(&ToWorker::ClockPing)?;
        match worker.next().await? {
            FromWorker::ClockPong {
                received_ms,
                sent_ms,
            } => exchanges.push([sent, received_ms, sent_ms, epoch_now()]),
            other => return Err(crate::runner::unexpected(key!("role.pool_worker"), &other)),
        }
    }
    Ok(skew_ms(&exchanges))
}

async fn run_mode(
    mode: JobMode,
    config: &PoolConfig,
    workers: &mut [ProbeWorker],
    reporter: &Reporter,
) -> Result<PoolRun, Phrase> {
    let mut offsets = Vec::with_capacity(workers.len());
    for worker in workers.iter_mut() {
        offsets.push(clock_offset(worker).await?);
    }
    wait::fresh_task().await;
    let t0 = epoch_now();
    let send = |worker: &mut ProbeWorker, job: u32| {
        worker.send(&ToWorker::job(&PoolJob {
            job,
            mode,
            wait_ms: config.wait_ms,
        }))
    };
    for job in 0..config.jobs {
        send(&mut workers[config.worker_for(job) as usize], job)?;
    }
    let extra = config.jobs;
    let extra_queued = epoch_now();
    send(&mut workers[config.worker_for(extra) as usize], extra)?;

    let mut spans = Vec::with_capacity(extra as usize + 1);
    for (w, worker) in workers.iter_mut().enumerate() {
        let expected = (0..=extra)
            .filter(|&j| config.worker_for(j) as usize == w)
            .count();
        for _ in 0..expected {
            let done: JobDone =
                crate::runner::reply(key!("role.pool_worker"), worker.next().await?)?;
            spans.push(JobSpan {
                worker: w as u32,
                job: done.job,
                start_ms: done.start_ms - offsets[w] - t0,
                end_ms: done.end_ms - offsets[w] - t0,
            });
            reporter.update(|p| p.done += 1);
        }
    }
    spans.sort_unstable_by(|a, b| a.start_ms.total_cmp(&b.start_ms));
    on_timeline(mode, config, workers, &spans, (t0, extra_queued - t0));
    let batch_ms = spans
        .iter()
        .filter(|s| s.job < extra)
        .map(|s| s.end_ms)
        .fold(0.0, f64::max);
    let extra_start = spans
        .iter()
        .find(|s| s.job == extra)
        .map_or(0.0, |s| s.start_ms);
    Ok(PoolRun {
        mode,
        batch_ms,
        extra_job_wait_ms: extra_start - (extra_queued - t0),
        spans,
    })
}

/// Puts a batch on the timeline once it is over: each job on its
/// worker's lane, holding it or not, and in the queue lane from when it was
/// queued (`t0`, epoch ms; the extra job `extra_at` ms later) until a worker
/// took it.
fn on_timeline(
    mode: JobMode,
    config: &PoolConfig,
    workers: &[ProbeWorker],
    spans: &[JobSpan],
    (t0, extra_at): (f64, f64),
) {
    let kind = if mode.is_async() {
        Kind::Free
    } else {
        Kind::Holding
    };
    let job = Name::ms(key!("timeline.name.job"), config.wait_ms);
    for (w, worker) in workers.iter().enumerate() {
        let own = spans.iter().filter(|s| s.worker as usize == w);
        trace::add_spans(
            worker.thread(),
            own.map(|s| (kind, job, t0 + s.start_ms, t0 + s.end_ms)),
        );
    }
    let queued = Name::of(key!("timeline.name.queued_job"));
    trace::add_spans(
        Thread::Queue,
        spans.iter().map(|s| {
            let at = if s.job == config.jobs { extra_at } else { 0.0 };
            (Kind::Queued, queued, t0 + at, t0 + s.start_ms.max(at))
        }),
    );
}

async fn measure(config: &PoolConfig, reporter: &Reporter) -> Result<(Vec<PoolRun>, bool), Phrase> {
    reporter.update(|p| {
        p.worker =
            Some(Phrase::new(key!("progress.starting_workers")).count("count", config.workers))
    });
    let mut workers = try_join_all((0..config.workers).map(|_| ProbeWorker::start())).await?;
    let memory = memory::new_shared_i32(shared_slots::LEN).ok();
    if let Some(memory) = &memory {
        for w in &workers {
            w.share(memory)?;
        }
    }
    let mut runs = Vec::new();
    for mode in JobMode::ALL {
        reporter.update(|p| {
            p.worker = Some(
                Phrase::new(key!("pool_starvation.progress"))
                    .count("jobs", config.jobs)
                    .phrase("mode", mode.label())
                    .count("wait", config.wait_ms)
                    .count("workers", config.workers),
            )
        });
        runs.push(run_mode(mode, config, &mut workers, reporter).await?);
    }
    Ok((runs, memory.is_some()))
}

/// Runs experiment 2b with `config`, blocking mode first.
async fn run_pool_starvation(config: PoolConfig, publish: Publish) -> Report {
    let scope = RunScope::begin();
    let reporter = Reporter::new(publish, 2 * (config.jobs + 1));
    let result = measure(&config, &reporter).await;
    let result = result.map(|(runs, blocking_sleeps)| PoolStarvation {
        config,
        runs,
        blocking_sleeps,
    });
    scope.finish_with(result)
}

crate::runner::chunks::runner!(PoolConfig, pool_starvation, run_pool_starvation);
