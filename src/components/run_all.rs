//! "Run all", the page's first card: every experiment in turn with its
//! defaults (the quick ones that tell the most first, so the summary below
//! it has answers within seconds), one overall progress bar with the time
//! left, Cancel, and at the end the way to the link that shares every run;
//! beside it, a way to go to one experiment.
//!
//! A reactive effect starts the next experiment when the last one has
//! ended; nothing polls. A finished run's links are compressed before the
//! next run measures: every run waits for compressions in flight
//! (`use_experiment`), so the sequence needs no wait of its own.

use crate::experiments::{OnPage, Visit, visit};
use crate::hooks::{Experiments, UseEnvironment};
use crate::i18n::{t, tr};
use crate::runner::Progress;
use leptos::prelude::*;
use waitlab_core::experiments::{Config, Experiment};
use waitlab_core::key;
use waitlab_core::text::{Arg, Phrase};

/// Where the sequence stands.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Stage {
    /// Not started, or its result was looked at.
    Idle,
    /// Experiment `index` of [`Experiment::RUN_ALL`]: `started` once its run was asked
    /// for.
    At { index: usize, started: bool },
    /// Every experiment ran.
    Done,
    /// Cancelled after `done` experiments.
    Stopped { done: usize },
}

/// Starts `experiment`'s run with its defaults (the pool's sized for this
/// machine's `cores`, as its form's are).
fn start(experiments: Experiments, experiment: Experiment, cores: u32) {
    struct Start(Experiments, u32);
    impl Visit for Start {
        type Out = ();
        fn visit<E: OnPage>(self) {
            self.0.of::<E>().run.run(E::Config::for_cores(self.1));
        }
    }
    visit(experiment, Start(experiments, cores));
}

/// About how long `experiment`'s default run takes, ms, from its
/// configuration's own estimate: the weight of its share of the bar.
fn expected_ms(experiment: Experiment, cores: u32) -> f64 {
    struct Expected(u32);
    impl Visit for Expected {
        type Out = f64;
        fn visit<E: OnPage>(self) -> f64 {
            E::Config::for_cores(self.0).estimated_ms()
        }
    }
    visit(experiment, Expected(cores)).max(1.0)
}

/// The experiment's name.
fn name(experiment: Experiment) -> Phrase {
    experiment.name()
}

/// The card with Run all, its progress and its outcome.
#[component]
pub fn RunAll() -> impl IntoView {
    let experiments = expect_context::<Experiments>();
    let cores = expect_context::<UseEnvironment>().cores;
    let stage = RwSignal::new(Stage::Idle);
    // When the sequence began, and when its current experiment did.
    let began = StoredValue::new(0.0f64);
    let current_began = StoredValue::new(0.0f64);
    let total = Experiment::RUN_ALL.len();
    let weights: Vec<f64> = Experiment::RUN_ALL
        .iter()
        .map(|&e| expected_ms(e, cores))
        .collect();
    let all: f64 = weights.iter().sum();
    // Steps the sequence: start the current experiment once nothing runs;
    // when it has ended, move to the next.
    Effect::new(move |_| {
        let Stage::At { index, started } = stage.get() else {
            return;
        };
        if experiments.running() {
            return;
        }
        if !started {
            stage.set(Stage::At {
                index,
                started: true,
            });
            current_began.set_value(waitlab_browser::clock::now());
            start(experiments, Experiment::RUN_ALL[index], cores);
        } else if index + 1 == total {
            stage.set(Stage::Done);
        } else {
            stage.set(Stage::At {
                index: index + 1,
                started: false,
            });
        }
    });
    let run_all = move |_| {
        began.set_value(waitlab_browser::clock::now());
        stage.set(Stage::At {
            index: 0,
            started: false,
        });
    };
    let stop = move |_| {
        if let Stage::At { index, .. } = stage.get_untracked() {
            stage.set(Stage::Stopped { done: index });
            experiments.state(Experiment::RUN_ALL[index]).cancel.run(());
        }
    };
    let status = move || {
        match stage.get() {
        Stage::Idle => None,
        Stage::At { index, .. } => {
            let experiment = Experiment::RUN_ALL[index];
            let current = experiments
                .progress(experiment)
                .with(|p| p.as_ref().map_or(0.0, Progress::fraction));
            // Each experiment's share of the bar is its expected time.
            let finished: f64 = weights[..index].iter().sum();
            let fraction = (finished + current * weights[index]) / all;
            // The time left: what is left of the expected times, at the
            // pace the finished experiments kept against theirs, trusted
            // as far as they are a share of the whole (the first one's
            // start-up alone says little of the rest).
            let now = waitlab_browser::clock::now();
            let pace = if finished > 0.0 {
                let kept = (current_began.get_value() - began.get_value()) / finished;
                1.0 + (kept - 1.0) * (finished / all)
            } else {
                1.0
            };
            let in_current = (now - current_began.get_value()).max(current * weights[index]);
            let left_ms = (weights[index] - in_current).max(0.0) + weights[index + 1..].iter().sum::<f64>();
            let seconds = (left_ms * pace.clamp(0.5, 3.0) / 1000.0).ceil();
            let step = Phrase::new(key!("runall.step"))
                .count("n", (index + 1) as u64)
                .count("total", total as u64)
                .phrase("what", name(experiment));
            let left = Phrase::new(key!("runall.left")).arg("seconds", Arg::Fixed(seconds, 0));
            Some(view! {
                <div class="progress" data-testid="run-all-progress" role="progressbar"
                    aria-valuemin="0" aria-valuemax="100" aria-valuenow=waitlab_core::number::fixed(fraction * 100.0, 0)>
                    <div class="fill" style:transform=format!("scaleX({})", waitlab_core::number::fixed(fraction, 3))></div>
                </div>
                <p class="progress-text" data-testid="run-all-step">{tr(&step)}" · "{tr(&left)}</p>
            }.into_any())
        }
        Stage::Done => Some(view! {
            <p class="notice" role="status" data-testid="run-all-done">
                {t(key!("runall.done"))}" "<a href="#share">{t(key!("runall.share"))}</a>
            </p>
        }.into_any()),
        Stage::Stopped { done } => Some(view! {
            <p class="notice" role="status" data-testid="run-all-stopped">
                {tr(&Phrase::new(key!("runall.stopped")).count("done", done as u64).count("total", total as u64))}
            </p>
        }.into_any()),
    }
    };
    let running = move || matches!(stage.get(), Stage::At { .. });
    // An experiment that needs the reader (a hidden tab) is not in it,
    // which the card says.
    let left_out = Experiment::ALL
        .into_iter()
        .filter(|e| !Experiment::RUN_ALL.contains(e))
        .map(|e| {
            let said = Phrase::new(key!("runall.leaves_out"))
                .data("badge", e.badge())
                .phrase("name", e.name());
            view! { <p class="hint" data-testid="run-all-leaves-out">{tr(&said)}</p> }
        })
        .collect_view();
    // Going to one experiment scrolls to its section (the fragment holds
    // result links, so it is left alone).
    let pick = move |e: leptos::ev::Event| {
        let slug = event_target_value(&e);
        if !slug.is_empty() {
            leptos::task::spawn_local(async move {
                waitlab_browser::page::scroll_and_keep(&format!("[data-testid={slug}]")).await;
            });
        }
    };
    view! {
        <section class="card run-all" data-testid="run-all">
            <h2>{t(key!("runall.heading"))}</h2>
            <p class="lead">{t(key!("runall.lead"))}</p>
            {left_out}
            <div class="controls">
                <Show when=running fallback=move || view! {
                    <button type="button" class="primary" data-testid="run-all-button"
                        disabled=move || experiments.running() on:click=run_all>{t(key!("runall.run"))}</button>
                }>
                    <button type="button" data-testid="run-all-cancel" on:click=stop>{t(key!("run.cancel"))}</button>
                </Show>
                <label class="pick">
                    <span>{t(key!("runall.pick"))}</span>
                    <select data-testid="pick-experiment" on:change=pick>
                        <option value="">{t(key!("runall.pick_none"))}</option>
                        {Experiment::ALL.map(|e| view! {
                            <option value=e.slug()>{format!("{} · {}", e.badge(), tr(&name(e)))}</option>
                        }).collect_view()}
                    </select>
                </label>
            </div>
            {status}
        </section>
    }
}
