//! Runs experiment 8 on the main thread: the same jobs through each gate
//! in turn. Progress is published between batches only.

use crate::runner::{Publish, Reporter, RunScope};
use waitlab_browser::probes::concurrency_limit;
use waitlab_browser::wait;
use waitlab_core::experiments::concurrency_limit::{ConcurrencyLimit, Gate, LimitConfig, LimitRun};
use waitlab_core::schema::Report;

async fn measure(config: &LimitConfig, reporter: &Reporter) -> ConcurrencyLimit {
    let jobs_ms = config.jobs_ms();
    let mut runs = Vec::new();
    for gate in Gate::BROWSER {
        reporter.update(|p| p.main = Some(gate.label()));
        wait::let_page_render().await;
        let spans = concurrency_limit::run(gate, config.limit, &jobs_ms).await;
        runs.push(LimitRun::measured(gate, spans, config.limit));
        reporter.update(|p| p.done += 1);
    }
    ConcurrencyLimit {
        config: config.clone(),
        runs,
    }
}

/// Runs experiment 8 with `config`.
async fn run_concurrency_limit(config: LimitConfig, publish: Publish) -> Report {
    let scope = RunScope::begin();
    let reporter = Reporter::new(publish, Gate::BROWSER.len() as u32);
    let result = measure(&config, &reporter).await;
    scope.finish(|r| r.concurrency_limit = Some(result))
}

crate::runner::chunks::runner!(LimitConfig, concurrency_limit, run_concurrency_limit);
