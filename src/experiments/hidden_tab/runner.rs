//! Runs experiment 10: starts the workers (a `setTimeout` chain that also
//! wakes the page through a `MessageChannel`, and, with shared memory, one
//! blocking in `Atomics.wait`), then opens the window: every way ticks at
//! once while the page records its visibility changes. Once a second the
//! page says how long is left and what to do (switch away, come back);
//! the window closes at its length, or a second after the reader came
//! back from being away long enough.
//!
//! Unlike every other experiment, the ways run side by side and the page
//! draws its countdown beside them: the effect read here is a hundred
//! times the interval, and one window is all a reader gives.

use crate::runner::{Publish, Reporter, RunScope};
use std::cell::RefCell;
use std::rc::Rc;
use waitlab_browser::memory::{self, Slots};
use waitlab_browser::probes::hidden_tab::{self, PageWays};
use waitlab_browser::{clock, page, trace, wait, worker_host::ProbeWorker};
use waitlab_core::experiments::hidden_tab::job::Ticking;
use waitlab_core::experiments::hidden_tab::{
    HiddenConfig, HiddenTab, Keeper, KeeperResult, Span, hidden_spans,
};
use waitlab_core::key;
use waitlab_core::outcome::Outcome;
use waitlab_core::protocol::{FromWorker, ToWorker};
use waitlab_core::text::{Arg, Phrase};
use waitlab_core::trace::{Kind, Name};

/// Why the page's ways could not start: what the browser refused.
fn refused(e: wasm_bindgen::JsValue) -> Phrase {
    Phrase::new(key!("hidden_tab.refused")).data("detail", waitlab_browser::js_error_message(&e))
}

/// The waits between `way`'s `ticks`, as the timeline shows them.
fn on_timeline(way: Keeper, ticks: &[f64]) -> impl Iterator<Item = (Kind, Name, f64, f64)> + '_ {
    let (kind, name) = way.timeline();
    ticks.windows(2).map(move |t| (kind, name, t[0], t[1]))
}

/// How long after coming back the window closes, ms.
const AFTER_RETURN_MS: f64 = 1000.0;

/// What the page says while it records: what to do, and how it stands.
fn say(config: &HiddenConfig, spans: &[Span], hidden_now: bool) -> Phrase {
    let hidden_ms: f64 = spans.iter().map(|s| s.to_ms - s.from_ms).sum();
    let seconds = |ms: f64| Arg::Fixed(ms / 1000.0, 1);
    if spans.is_empty() || hidden_now {
        Phrase::new(key!("hidden_tab.away"))
            .count("ways", Keeper::BROWSER.len() as u32)
            .count("interval", config.interval_ms)
    } else if hidden_ms >= HiddenConfig::ENOUGH_HIDDEN_MS {
        Phrase::new(key!("hidden_tab.back")).arg("hidden", seconds(hidden_ms))
    } else {
        Phrase::new(key!("hidden_tab.back_short"))
            .arg("hidden", seconds(hidden_ms))
            .arg("enough", seconds(HiddenConfig::ENOUGH_HIDDEN_MS))
    }
}

async fn measure(config: &HiddenConfig, reporter: &Reporter) -> Result<HiddenTab, Phrase> {
    reporter.update(|p| p.worker = Some(Phrase::new(key!("progress.starting_worker"))));
    let window = config.window_ms();
    let most = config.most_ticks();
    let channel = web_sys::MessageChannel::new().map_err(refused)?;
    let mut timer = ProbeWorker::start().await?;
    timer.share_port(&channel.port2())?;
    // The blocking worker needs shared memory, its slot 0 its stop (two
    // slots: its `f64` view needs whole eights of bytes).
    let mut blocking = match memory::new_shared_i32(2) {
        Ok(ints) => {
            let worker = ProbeWorker::start().await?;
            worker.share(&ints)?;
            Ok((worker, Slots::new(ints)))
        }
        Err(why) => Err(why),
    };
    let changes = Rc::new(RefCell::new(Vec::<(f64, bool)>::with_capacity(64)));
    let start = clock::now();
    let epoch_start = clock::time_origin() + start;
    let hidden_at_start = page::is_hidden();
    let _visibility = {
        let changes = changes.clone();
        page::EventListener::visibility(move |hidden| {
            changes.borrow_mut().push((clock::now() - start, hidden));
        })
    };
    let job = |way: Keeper, wake_page: bool| {
        ToWorker::job(&Ticking {
            way,
            interval_ms: config.interval_ms,
            until_ms: epoch_start + window,
            window_ms: window as u32,
            most,
            wake_page,
        })
    };
    timer.send(&job(Keeper::WorkerTimeout, true))?;
    if let Ok((worker, _)) = &mut blocking {
        worker.send(&job(Keeper::WorkerAtomics, false))?;
    }
    let ways =
        PageWays::start(config.interval_ms, most as usize, channel.port1()).map_err(refused)?;
    let spans = |until: f64| hidden_spans(hidden_at_start, &changes.borrow(), until);
    let mut back_at: Option<f64> = None;
    loop {
        let elapsed = clock::now() - start;
        let so_far = spans(elapsed);
        let hidden_now = page::is_hidden();
        let enough = so_far.iter().map(|s| s.to_ms - s.from_ms).sum::<f64>()
            >= HiddenConfig::ENOUGH_HIDDEN_MS;
        if enough && !hidden_now {
            back_at.get_or_insert(elapsed);
        }
        let done_early = back_at.is_some_and(|at| elapsed - at >= AFTER_RETURN_MS);
        if elapsed >= window || done_early {
            break;
        }
        reporter.update(|p| {
            p.done = (elapsed / 1000.0) as u32;
            p.ask = Some(say(config, &so_far, hidden_now));
        });
        let left = (window - elapsed).min(if back_at.is_some() {
            AFTER_RETURN_MS
        } else {
            1000.0
        });
        wait::timeout(left.max(1.0).ceil() as u32).await;
    }
    let end = clock::now() - start;
    let page_ticks = ways.finish();
    // The timeline shows the page's nested chain and each worker's ticks:
    // the waits between them, as their threads lived them.
    if let Some((way, ticks)) = page_ticks.iter().find(|(w, _)| *w == Keeper::PageNested) {
        for (kind, name, from, to) in on_timeline(*way, ticks) {
            trace::span(kind, name, from, to);
        }
    }
    hidden_tab::stop_worker_chain(&channel.port1());
    if let Ok((_, slots)) = &blocking {
        hidden_tab::stop_worker_wait(slots);
    }
    reporter.update(|p| {
        p.done = p.total;
        p.ask = None;
        p.main = None;
    });
    let hidden = spans(end);
    let of_ticks = |way: Keeper, ticks: Vec<f64>| {
        KeeperResult::of_ticks(way, &ticks, &hidden, config.interval_ms)
    };
    let mut results: Vec<KeeperResult> = page_ticks
        .into_iter()
        .map(|(way, ticks)| of_ticks(way, ticks.into_iter().map(|t| t - start).collect()))
        .collect();
    let from_epoch =
        |ticks: Vec<f64>| -> Vec<f64> { ticks.into_iter().map(|t| t - epoch_start).collect() };
    let answer = async |worker: &mut ProbeWorker, way: Keeper| -> Result<KeeperResult, Phrase> {
        Ok(match worker.next().await? {
            FromWorker::Done { outcome, .. } => match outcome.into_outcome() {
                Outcome::Measured { samples_ms, .. } => {
                    trace::add_spans(worker.thread(), on_timeline(way, &samples_ms));
                    of_ticks(way, from_epoch(samples_ms))
                }
                other => KeeperResult::without(way, other),
            },
            other => return Err(crate::runner::unexpected(key!("role.probe_worker"), &other)),
        })
    };
    results.push(answer(&mut timer, Keeper::WorkerTimeout).await?);
    results.push(match &mut blocking {
        Ok((worker, _)) => answer(worker, Keeper::WorkerAtomics).await?,
        Err(why) => KeeperResult::without(
            Keeper::WorkerAtomics,
            Outcome::Unavailable {
                reason: (*why).to_owned(),
            },
        ),
    });
    Ok(HiddenTab {
        config: config.clone(),
        hidden,
        results,
    })
}

/// Runs experiment 10 with `config`. Its report is not marked hidden: a
/// hidden page is what it measures, and its result says when.
async fn run_hidden_tab(config: HiddenConfig, publish: Publish) -> waitlab_core::schema::Report {
    let scope = RunScope::begin();
    let reporter = Reporter::new(publish, config.seconds);
    let result = measure(&config, &reporter).await;
    let mut report = scope.finish_with(result);
    report.env.hidden_during_run = false;
    report
}

crate::runner::chunks::runner!(HiddenConfig, hidden_tab, run_hidden_tab);
