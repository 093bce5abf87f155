//! The controls every experiment shares: the form with Run/Cancel, the
//! progress bar, the notice line, and the results with their raw JSON.

use crate::components::chunked::chunked;
use crate::components::field::Field;
use crate::experiments::OnPage;
use crate::hooks::{Experiments, Notice, RunState, UseEnvironment, UseExperiment};
use crate::i18n::{part_ready, t, tr};
use crate::runner::Progress;
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use std::future::Future;
use std::pin::Pin;
use waitlab_core::experiments::{Config, Experiment};
use waitlab_core::field::Form;
use waitlab_core::key;
use waitlab_core::schema::Report;
use waitlab_core::text::Key;
use waitlab_core::text::{Part, Phrase};

/// Run while idle, Cancel while running.
#[component]
fn RunButtons(
    /// The run under way, if any.
    #[prop(into)]
    progress: Signal<Option<Progress>>,
    /// Whether the form's configuration is valid.
    #[prop(into)]
    can_run: Signal<bool>,
    /// Starts a run.
    submit: Callback<()>,
    /// Cancels the run.
    cancel: Callback<()>,
    /// Whether the results shown are someone else's (opened from a link).
    #[prop(into)]
    showing_shared: Signal<bool>,
) -> impl IntoView {
    view! {
        <Show
            when=move || progress.with(Option::is_some)
            fallback=move || view! {
                <button type="button" class="primary" data-testid="run"
                    disabled=move || !can_run.get() on:click=move |_| submit.run(())>
                    {move || t(if showing_shared.get() { key!("run.run_mine") } else { key!("run.run") })}
                </button>
            }
        >
            <button type="button" data-testid="cancel" on:click=move |_| cancel.run(())>{t(key!("run.cancel"))}</button>
        </Show>
    }
}

/// The progress bar while running, and the last notice (below the form,
/// in the section itself: a run started by "Run all" shows them before the
/// reader has reached the form).
#[component]
pub fn RunStatus(
    /// The run under way, if any.
    #[prop(into)]
    progress: Signal<Option<Progress>>,
    /// The last notice.
    #[prop(into)]
    notice: Signal<Option<Notice>>,
    /// What the progress counts: a catalog key of a phrase with `done` and
    /// `count`.
    unit: Key,
) -> impl IntoView {
    view! {
        {move || progress.get().map(|p| view! { <ProgressBar progress=p unit=unit /> })}
        {move || notice.get().map(|n| view! {
            <p class="notice" class:failed=n.failed role=if n.failed { "alert" } else { "status" }
                data-testid="notice">{tr(&n.text)}</p>
        })}
    }
}

/// The progress bar and what is being measured.
#[component]
fn ProgressBar(
    /// Where the run stands.
    progress: Progress,
    /// What `done` and `total` count: a catalog key of a phrase with `done`
    /// and `count`.
    unit: Key,
) -> impl IntoView {
    let fraction = progress.fraction();
    let pct = fraction * 100.0;
    let doing: Vec<Phrase> = [
        (key!("run.main_thread"), progress.main),
        (key!("run.worker"), progress.worker),
    ]
    .into_iter()
    .filter_map(|(thread, what)| {
        what.map(|w| {
            Phrase::new(key!("run.thread_doing"))
                .phrase("thread", Phrase::new(thread))
                .phrase("what", w)
        })
    })
    .collect();
    let ask = progress.ask.map(|a| {
        view! {
            <p class="ask" role="status" data-testid="progress-ask">{tr(&a)}</p>
        }
    });
    view! {
        {ask}
        <div class="progress" data-testid="progress" role="progressbar"
            aria-valuemin="0" aria-valuemax="100" aria-valuenow=waitlab_core::number::fixed(pct, 0)>
            <div class="fill" style:transform=format!("scaleX({})", waitlab_core::number::fixed(fraction, 3))></div>
        </div>
        <p class="progress-text">{tr(&Phrase::new(unit).count("done", progress.done).count("count", progress.total))}
            {(!doing.is_empty()).then(|| tr(&Phrase::new(key!("run.measuring")).arg("what", waitlab_core::text::Arg::List(doing))))}</p>
    }
}

/// An experiment's form: its fields (the children), Run/Cancel, a hint
/// and the validation message. Only this wrapper knows the configuration's
/// type: the form itself is compiled once for every experiment.
#[component]
pub fn RunForm<C: Clone + PartialEq + Send + Sync + 'static>(
    /// The experiment's reactive state.
    experiment: UseExperiment<C>,
    /// The parsed configuration, or why it is invalid.
    config: Memo<Result<C, Phrase>>,
    /// A hint beside the buttons (expected duration and the like).
    #[prop(into)]
    hint: Signal<Option<Phrase>>,
    /// The form's fields.
    children: Children,
) -> impl IntoView {
    let run = experiment.run;
    let submit = Callback::new(move |()| {
        if let Ok(c) = config.get_untracked() {
            run.run(c);
        }
    });
    let error = Signal::derive(move || config.with(|c| c.as_ref().err().cloned()));
    form(experiment.state(), submit, error, hint, children)
}

/// The form of `E`, whose configuration's fields core describes
/// ([`Form`]): a [`ConfigForm`] of its state, from its defaults.
pub fn config_form<E: OnPage>() -> impl IntoView
where
    E::Config: Form,
{
    let experiment = expect_context::<Experiments>().of::<E>();
    let defaults = E::Config::for_cores(expect_context::<UseEnvironment>().cores);
    view! { <ConfigForm experiment=experiment defaults=defaults /> }
}

/// The form of a configuration of whole-number fields ([`Form`]): a field
/// each, started from `defaults`, parsed as the reader types, and the
/// configuration's hint beside Run.
#[component]
pub fn ConfigForm<C: Form + Clone + PartialEq + Send + Sync>(
    /// The experiment's reactive state.
    experiment: UseExperiment<C>,
    /// The configuration the fields start from.
    defaults: C,
) -> impl IntoView {
    let values: Vec<RwSignal<String>> = C::FIELDS
        .iter()
        .map(|f| RwSignal::new((f.value)(&defaults).to_string()))
        .collect();
    let texts = values.clone();
    let config = Memo::new(move |_| {
        let texts: Vec<String> = texts.iter().map(|v| v.get()).collect();
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        C::from_fields(&texts).map_err(|e| e.phrase())
    });
    let fields = C::FIELDS
        .iter()
        .zip(values)
        .map(
            |(f, value)| view! { <Field label=f.label testid=f.testid value=value numeric=true /> },
        )
        .collect_view();
    view! {
        <RunForm experiment=experiment config=config
            hint=Signal::derive(move || config.get().ok().map(|c| c.hint()))>
            {fields}
        </RunForm>
    }
}

/// The attribute the embed's first screen (`www/embed.js`) sets on the
/// page's root when the reader pressed its Run: the form made first then
/// starts a run with its default configuration, once.
const RUN_AT_ONCE: &str = "data-run-at-once";

/// [`RunForm`] without the configuration's type: `submit` starts a run
/// with the form's configuration, `error` says why it is invalid.
fn form(
    state: RunState,
    submit: Callback<()>,
    error: Signal<Option<Phrase>>,
    hint: Signal<Option<Phrase>>,
    children: Children,
) -> impl IntoView {
    let RunState {
        progress,
        cancel,
        report,
        ..
    } = state;
    let showing_shared =
        Signal::derive(move || report.with(|r| r.as_ref().is_some_and(|r| r.from_link)));
    if waitlab_browser::page::take_root_flag(RUN_AT_ONCE) {
        // Once the form is on the page; the run's signals are not this
        // effect's dependencies.
        Effect::new(move |_| untrack(|| submit.run(())));
    }
    // Run is a plain button and Enter in a field runs too, both without
    // submitting the form: a frame sandboxed without `allow-forms`
    // (WordPress's) submits no form, nor fires its submit event.
    let can_run = Signal::derive(move || error.with(Option::is_none));
    let said = said_with_runs_texts(error);
    let on_key = move |e: web_sys::KeyboardEvent| {
        let in_field = e
            .target()
            .is_some_and(|t| wasm_bindgen::JsCast::has_type::<web_sys::HtmlInputElement>(&t));
        if e.key() == "Enter" && in_field {
            e.prevent_default();
            if can_run.get_untracked() && progress.with_untracked(Option::is_none) {
                submit.run(());
            }
        }
    };
    view! {
        <form class="controls" on:keydown=on_key on:submit=move |e| {
            e.prevent_default();
            submit.run(());
        }>
            {children()}
            <RunButtons progress=progress can_run=can_run submit=submit cancel=cancel
                showing_shared=showing_shared />
            <span class="hint">{move || hint.get().map(|h| tr(&h))}</span>
        </form>
        {move || said.get().map(|e| view! { <p class="error" role="alert" data-testid="config-error">{tr(&e)}</p> })}
    }
}

/// `error` once the words it needs are in: a form's messages are the
/// runs' texts (a reader who never types a wrong value never fetches
/// them), fetched when the first one is due; if they cannot be, why.
fn said_with_runs_texts(error: Signal<Option<Phrase>>) -> Signal<Option<Phrase>> {
    let fetched = RwSignal::new(None::<Result<(), Phrase>>);
    let asked = StoredValue::new(false);
    Effect::new(move |_| {
        if error.with(Option::is_some) && !asked.get_value() {
            asked.set_value(true);
            leptos::task::spawn_local(async move {
                fetched.try_set(Some(part_ready(Part::Runs).await));
            });
        }
    });
    Signal::derive(move || match fetched.get()? {
        Ok(()) => error.get(),
        Err(why) => error.with(Option::is_some).then_some(why),
    })
}

/// A results view being made: the experiment's part of a report, or
/// nothing if the report lacks it; or its chunk could not be fetched.
pub type RenderedResults = Pin<Box<dyn Future<Output = Result<Option<AnyView>, SplitLoaderError>>>>;

/// What makes an experiment's results view (the sections' views, which
/// the page provides: they load as a chunk of their own).
#[derive(Clone, Copy)]
pub struct ResultsView(pub fn(Experiment, Report) -> RenderedResults);

/// The results of an experiment's last run: its results view (nothing if
/// the report lacks this experiment), then its raw JSON. The view lands a
/// moment after the report (its code is fetched at the first one).
#[component]
pub fn Results(
    /// The experiment.
    experiment: Experiment,
    /// The last report.
    report: RwSignal<Option<Report>>,
) -> impl IntoView {
    let ResultsView(render) = expect_context::<ResultsView>();
    move || {
        report.get().map(|r| {
            chunked(
                render(experiment, r),
                key!("results.not_loaded_view"),
                |part| part.into_any(),
            )
        })
    }
}
