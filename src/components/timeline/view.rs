//! The timeline's view, in its own chunk: the drawing (core's
//! `trace::draw`, drawn again as the window moves), its controls (buttons,
//! keys, drag, pinch, Ctrl and a wheel), the read-out of the span under the
//! pointer or the keyboard's cursor, a legend, a table of what each thread
//! did (the text summary), the long animation frames the browser reported,
//! and the trace as a file or in Perfetto UI.

use crate::components::charts::layout_changes;
use crate::i18n::{count, ms, t, tr, with_catalog};
use leptos::prelude::*;
use std::sync::Arc;
use waitlab_browser::timeline::{self, Gesture, Gestures, Handoff};
use waitlab_browser::{clock, page, svg};
use waitlab_core::chart::drawn_width;
use waitlab_core::key;
use waitlab_core::text::Phrase;
use waitlab_core::trace::draw::{self, Layout, Window};
use waitlab_core::trace::{Kind, LongFrames, Trace, events};

/// The kinds a lane's spans can be, as the legend and the table list them.
const SPAN_KINDS: [Kind; 5] = [
    Kind::Holding,
    Kind::Free,
    Kind::Busy,
    Kind::Queued,
    Kind::LongTask,
];

/// How much a button or a key zooms.
const ZOOM: f64 = 0.5;
/// How far a button or a key pans, of the window's width.
const PAN: f64 = 0.2;

/// A trace laid out at a width.
struct Laid {
    width: f64,
    of: Arc<Trace>,
    layout: Layout,
}

/// The view of `trace`, whose file is named `file` and names its process
/// `source`.
pub(super) fn timeline(trace: Arc<Trace>, file: String, source: String) -> AnyView {
    let trace = RwSignal::new(trace);
    let bounds = Memo::new(move |_| trace.with(|t| Window::whole(t)));
    let window = RwSignal::new(bounds.get_untracked());
    let cursor_lane = RwSignal::new(0usize);
    let readout = RwSignal::new(String::new());
    let said = RwSignal::new(None::<String>);
    let frame = NodeRef::<leptos::html::Figure>::new();
    let layout = StoredValue::new_local(None::<Laid>);
    let gestures = StoredValue::new_local(None::<Gestures>);
    let first = StoredValue::new_local(None::<page::FirstLayout>);
    let laid_out = RwSignal::new(false);
    let changes = layout_changes();

    if timeline::reports_long_frames() {
        timeline::long_frames(move |frames| {
            trace.update(|t| {
                Arc::make_mut(t)
                    .add_long_frames(frames.into_iter().map(|f| (f.start, f.end, f.scripts)));
            });
        });
    }

    // Drawn at the frame's width whenever the window, the trace or the
    // page's layout changes.
    Effect::new(move |_| {
        changes.track();
        laid_out.track();
        let Some(el) = frame.get() else { return };
        let width = drawn_width(f64::from(el.client_width()));
        let w = window.get();
        trace.with(|t| {
            clock::mark("waitlab-timeline-start");
            // The lanes' rows are the trace's: laid out again only for
            // another width or trace, not as the window moves.
            let fresh = layout.with_value(|l| {
                l.as_ref()
                    .is_some_and(|l| l.width == width && Arc::ptr_eq(&l.of, t))
            });
            if !fresh {
                layout.set_value(Some(Laid {
                    width,
                    of: t.clone(),
                    layout: Layout::of(t, width),
                }));
            }
            let drawing = layout.with_value(|l| {
                let l = &l.as_ref().expect("laid out above").layout;
                with_catalog(|c| draw::draw(t, l, w, c).0)
            });
            if let Err(why) = svg::draw_first(&el, &drawing) {
                said.set(Some(why));
            }
            clock::measure_since("waitlab-timeline", "waitlab-timeline-start");
        });
    });
    let pan_px = move |dx: f64| {
        let plot = layout.with_value(|l| l.as_ref().map_or(1.0, |l| l.layout.plot_width()));
        window.update(|w| *w = w.pan(-dx / plot, bounds.get_untracked()));
    };
    let hover = move |x: f64, y: f64| {
        let text = layout.with_value(|l| {
            let l = l.as_ref()?;
            trace.with_untracked(|t| {
                let (lane, span) = l.layout.hit(t, window.get_untracked(), x, y)?;
                Some(with_catalog(|c| draw::describe(t, &t.lanes[lane], span, c)))
            })
        });
        if let Some(text) = text {
            readout.set(text);
        }
    };
    Effect::new(move |_| {
        let Some(el) = frame.get() else { return };
        first.set_value(Some(page::FirstLayout::new(&el, move || {
            laid_out.set(true)
        })));
        gestures.set_value(Some(Gestures::on(&el, move |g| match g {
            Gesture::Pan(dx) => pan_px(dx),
            Gesture::Zoom(factor, x) => {
                let at = layout.with_value(|l| l.as_ref().map_or(0.5, |l| l.layout.fraction(x)));
                window.update(|w| *w = w.zoom(factor, at, bounds.get_untracked()));
            }
            Gesture::Hover(x, y) => hover(x, y),
        })));
    });
    // The keyboard's cursor: the span nearest the window's middle in the
    // lane it is on.
    let read_cursor = move || {
        let text = trace.with_untracked(|t| {
            let lane = t.lanes.get(cursor_lane.get_untracked())?;
            let span = draw::nearest(lane, window.get_untracked().at(0.5))?;
            Some(with_catalog(|c| draw::describe(t, lane, span, c)))
        });
        readout.set(text.unwrap_or_else(|| t(key!("timeline.cursor_empty"))));
    };
    let step = move |f: fn(Window, Window) -> Window| {
        window.update(|w| *w = f(*w, bounds.get_untracked()));
        read_cursor();
    };
    let on_key = move |e: web_sys::KeyboardEvent| {
        let lanes = trace.with_untracked(|t| t.lanes.len());
        match e.key().as_str() {
            "+" | "=" => step(|w, b| w.zoom(ZOOM, 0.5, b)),
            "-" | "_" => step(|w, b| w.zoom(1.0 / ZOOM, 0.5, b)),
            "ArrowLeft" => step(|w, b| w.pan(-PAN, b)),
            "ArrowRight" => step(|w, b| w.pan(PAN, b)),
            "Home" | "0" => step(|_, b| b),
            "ArrowUp" => {
                cursor_lane.update(|l| *l = l.saturating_sub(1));
                read_cursor();
            }
            "ArrowDown" => {
                cursor_lane.update(|l| *l = (*l + 1).min(lanes.saturating_sub(1)));
                read_cursor();
            }
            _ => return,
        }
        e.prevent_default();
    };

    let source = StoredValue::new(source);
    let written = move || {
        trace.with_untracked(|t| source.with_value(|s| with_catalog(|c| events::write(t, c, s))))
    };
    let file = StoredValue::new(file);
    let download = move || {
        let json = written();
        said.set(page::download(&file.get_value(), "application/json", &json).err());
    };
    let perfetto = move |_| {
        let json = written();
        let title = file.get_value();
        let gave_up = move || {
            download();
            said.try_set(Some(t(key!("timeline.perfetto_silent"))));
        };
        match timeline::open_in_perfetto(&json, &title, gave_up) {
            Handoff::Posting => said.set(Some(t(key!("timeline.perfetto_posting")))),
            Handoff::OpenedOnly => {
                download();
                said.set(Some(t(key!("timeline.perfetto_isolated"))));
            }
            Handoff::Blocked => {
                download();
                said.set(Some(t(key!("timeline.perfetto_blocked"))));
            }
        }
    };

    let button = move |testid: &'static str,
                       label: &'static str,
                       says: String,
                       f: fn(Window, Window) -> Window| {
        view! {
            <button type="button" data-testid=testid title=says.clone() aria-label=says
                on:click=move |_| step(f)>{label}</button>
        }
    };
    let item = |class: String, label: String| {
        view! { <li><span class=format!("swatch {class}") aria-hidden="true"></span>{label}</li> }
    };
    let legend = SPAN_KINDS
        .into_iter()
        .chain([Kind::Frame])
        .map(|k| item(format!("tl-{}", k.id()), tr(&k.label())))
        .chain([item("tl-gap".into(), t(key!("timeline.gap")))])
        .chain([item("tl-flow".into(), tr(&Kind::Flow.label()))])
        .collect_view();
    let summary = move || trace.with(|t| summary_table(t));
    let long_frames = move || {
        trace.with(|trace| match trace.long_frames {
            LongFrames::Observed => {
                let n = trace
                    .lanes
                    .iter()
                    .flat_map(|l| &l.spans)
                    .filter(|s| s.kind == Kind::LongTask)
                    .count();
                if n == 0 {
                    t(key!("timeline.long_frames_none"))
                } else {
                    tr(&Phrase::new(key!("timeline.long_frames_seen")).count("count", n as u64))
                }
            }
            LongFrames::NotReported if timeline::reports_long_frames() => {
                t(key!("timeline.long_frames_pending"))
            }
            LongFrames::NotReported => t(key!("timeline.long_frames_absent")),
        })
    };
    let dropped = move || {
        trace.with(|t| {
            (t.dropped > 0).then(|| {
                view! {
                    <p class="notice" data-testid="timeline-dropped">
                        {tr(&Phrase::new(key!("timeline.dropped")).count("count", t.dropped))}
                    </p>
                }
            })
        })
    };
    view! {
        <div class="tl" data-testid="timeline-view">
            <div class="tl-tools">
                {button("timeline-zoom-in", "+", t(key!("timeline.zoom_in")), |w, b| w.zoom(ZOOM, 0.5, b))}
                {button("timeline-zoom-out", "−", t(key!("timeline.zoom_out")), |w, b| w.zoom(1.0 / ZOOM, 0.5, b))}
                {button("timeline-earlier", "←", t(key!("timeline.earlier")), |w, b| w.pan(-PAN, b))}
                {button("timeline-later", "→", t(key!("timeline.later")), |w, b| w.pan(PAN, b))}
                {button("timeline-whole", "⤢", t(key!("timeline.whole")), |_, b| b)}
                <span class="tl-files">
                    <button type="button" data-testid="timeline-download" on:click=move |_| download()>
                        {t(key!("timeline.download"))}
                    </button>
                    <button type="button" data-testid="timeline-perfetto" on:click=perfetto>
                        {t(key!("timeline.perfetto"))}
                    </button>
                </span>
            </div>
            <p class="hint" id="timeline-keys">{t(key!("timeline.keys"))}</p>
            <figure class="tl-canvas" data-chart="timeline" data-testid="timeline-canvas" node_ref=frame
                tabindex="0" role="group" aria-label=t(key!("timeline.summary")) aria-describedby="timeline-keys"
                on:keydown=on_key on:focus=move |_| read_cursor()></figure>
            <p class="readout" data-testid="timeline-readout" aria-live="polite">{move || readout.get()}</p>
            <p class="tl-window" data-testid="timeline-window">
                {move || {
                    let w = window.get();
                    tr(&Phrase::new(key!("timeline.window")).ms("start", w.start_ms).ms("end", w.end_ms))
                }}
            </p>
            <ul class="legend tl-legend">{legend}</ul>
            {summary}
            <p class="hint" data-testid="timeline-long-frames">{long_frames}</p>
            {dropped}
            {move || said.get().map(|s| view! { <p class="hint" role="status" data-testid="timeline-said">{s}</p> })}
        </div>
    }
    .into_any()
}

/// What each thread did: its spans and the time it spent in each kind,
/// the drawing's text equivalent.
fn summary_table(trace: &Trace) -> AnyView {
    let rows = trace
        .totals()
        .into_iter()
        .map(|(lane, totals)| {
            // Each figure names its column, which a phone shows beside
            // it (a row there is a card).
            let cells = SPAN_KINDS
                .iter()
                .map(|k| {
                    view! { <td class="num" data-label=tr(&k.label())>{ms(totals[k.index()])}</td> }
                })
                .collect_view();
            view! {
                <tr>
                    <th scope="row">{with_catalog(|c| lane.name(c))}</th>
                    <td class="num" data-label=t(key!("timeline.spans"))>{count(lane.spans.len() as u64)}</td>
                    {cells}
                </tr>
            }
        })
        .collect_view();
    let heads = SPAN_KINDS
        .iter()
        .map(|k| view! { <th class="num">{tr(&k.label())}</th> })
        .collect_view();
    // Scrolled sideways on a narrow screen: the keyboard can scroll it too.
    view! {
        <div class="table-wrap" tabindex="0" role="region" aria-label=t(key!("timeline.table"))>
            <table class="results tl-summary" data-testid="timeline-summary">
                <caption>{t(key!("timeline.table"))}</caption>
                <thead><tr>
                    <th>{t(key!("timeline.thread"))}</th>
                    <th class="num">{t(key!("timeline.spans"))}</th>
                    {heads}
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
    .into_any()
}
