//! The page's side of the sandbox where a reader's own way of waiting
//! runs (`www/own-wait.html`): a frame of an opaque origin
//! (`sandbox="allow-scripts"`, and the page's own policy says the same)
//! whose script starts a worker with the reader's code and answers a
//! chain of timed calls with numbers, part by part. Only messages from that frame are
//! read, each through [`Reply::read`]; every answer has a time limit; and
//! dropping a [`Sandbox`] removes the frame, and with it the worker,
//! whatever the code is doing. Window only.

use futures::StreamExt;
use futures::channel::mpsc;
use futures::future::{Either, select};
use js_sys::Reflect;
use std::cell::Cell;
use std::rc::Rc;
use waitlab_core::experiments::own_way::{OtherTasks, TASK_PROBES};
use waitlab_core::key;
use waitlab_core::own_wait::{Kind, Reply, START_LIMIT_MS, part_limit_ms};
use waitlab_core::text::{Arg, Phrase};
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// The sandbox's page, beside the app's.
const PAGE: &str = "own-wait.html";

/// A running sandbox with the reader's code started in it.
pub struct Sandbox {
    frame: web_sys::HtmlIFrameElement,
    replies: mpsc::UnboundedReceiver<Reply>,
    /// The calls of the part awaited, which a reply must hold.
    asked: Rc<Cell<Option<u32>>>,
    /// Whether other tasks ran while a timed wait waited, once said.
    other_tasks: Option<OtherTasks>,
    on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        if let Some(window) = web_sys::window() {
            let _ = window.remove_event_listener_with_callback(
                "message",
                self.on_message.as_ref().unchecked_ref(),
            );
        }
        self.frame.remove();
    }
}

/// A field of a message's data.
fn field(data: &JsValue, name: &str) -> JsValue {
    Reflect::get(data, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

/// What a message from the sandbox says, if it is one of its shapes;
/// `asked`: the calls of the part awaited.
fn read(data: &JsValue, asked: Option<u32>) -> Option<Reply> {
    if field(data, "waitlab").as_string().as_deref() != Some("own-wait") {
        return None;
    }
    let kind = field(data, "kind").as_string()?;
    let samples = field(data, "samples");
    let samples = js_sys::Array::is_array(&samples).then(|| {
        js_sys::Array::from(&samples)
            .iter()
            .take(asked.unwrap_or(0) as usize + 1)
            .map(|v| v.as_f64().unwrap_or(f64::NAN))
            .collect()
    });
    let message = field(data, "message").as_string();
    let tasks = field(data, "ranIn")
        .as_f64()
        .zip(field(data, "of").as_f64());
    Reply::read(
        &kind,
        field(data, "step").as_f64(),
        samples,
        message,
        tasks,
        asked,
    )
}

impl Sandbox {
    /// Frames the sandbox in `host` and starts `code` of `kind` in it: the
    /// sandbox and its clock's step, ms; or why not, within
    /// [`START_LIMIT_MS`].
    pub async fn start(
        host: &web_sys::Element,
        code: &str,
        kind: Kind,
    ) -> Result<(Sandbox, f64), Phrase> {
        let window = web_sys::window().ok_or_else(|| Phrase::new(key!("own_way.no_sandbox")))?;
        let document = window
            .document()
            .ok_or_else(|| Phrase::new(key!("own_way.no_sandbox")))?;
        let frame: web_sys::HtmlIFrameElement = document
            .create_element("iframe")
            .map_err(|_| Phrase::new(key!("own_way.no_sandbox")))?
            .unchecked_into();
        let _ = frame.set_attribute("sandbox", "allow-scripts");
        let _ = frame.set_attribute("class", "own-wait-frame");
        let _ = frame.set_attribute("title", "waitlab sandbox");
        let _ = frame.set_attribute("aria-hidden", "true");
        frame.set_src(PAGE);
        let (tx, replies) = mpsc::unbounded();
        let asked = Rc::new(Cell::new(None::<u32>));
        let loaded = Rc::new(Cell::new(false));
        let source = frame.clone();
        let on_message = {
            let (asked, loaded) = (asked.clone(), loaded.clone());
            Closure::<dyn FnMut(_)>::new(move |e: web_sys::MessageEvent| {
                let from_frame = match (e.source(), source.content_window()) {
                    (Some(s), Some(w)) => js_sys::Object::is(&s, &w),
                    _ => false,
                };
                if !from_frame {
                    return;
                }
                let data = e.data();
                if field(&data, "kind").as_string().as_deref() == Some("loaded") {
                    loaded.set(true);
                }
                if let Some(reply) = read(&data, asked.get()) {
                    let _ = tx.unbounded_send(reply);
                }
            })
        };
        window
            .add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref())
            .map_err(|_| Phrase::new(key!("own_way.no_sandbox")))?;
        host.append_child(&frame)
            .map_err(|_| Phrase::new(key!("own_way.no_sandbox")))?;
        let mut sandbox = Sandbox {
            frame,
            replies,
            asked,
            other_tasks: None,
            on_message,
        };
        // Its page says "loaded"; then it is sent the code, which says
        // "ready" once it is a function in a running worker.
        let start = async {
            while !loaded.get() {
                gloo_timers::future::TimeoutFuture::new(10).await;
            }
            sandbox.post(&[
                ("kind", "start".into()),
                ("code", code.into()),
                ("way", kind.id().into()),
            ]);
            sandbox.replies.next().await
        };
        let limit = gloo_timers::future::TimeoutFuture::new(START_LIMIT_MS);
        let reply = match select(Box::pin(start), limit).await {
            Either::Left((reply, _)) => reply,
            Either::Right(_) => return Err(timed_out(START_LIMIT_MS)),
        };
        match reply {
            Some(Reply::Ready { step_ms }) => Ok((sandbox, step_ms)),
            Some(Reply::Failed(message)) => Err(failed(message)),
            _ => Err(Phrase::new(key!("own_way.no_sandbox"))),
        }
    }

    /// Starts `max` calls of the code (a chain asking for `ms` each; or
    /// rounds whose setter waits up to `ms`), which answers with its
    /// times at each count of `checks` (the last `max`): read them with
    /// [`Sandbox::part`].
    pub fn run(&mut self, max: u32, ms: f64, checks: &[u32]) {
        let counts: js_sys::Array = checks.iter().map(|&c| JsValue::from(c)).collect();
        self.post(&[
            ("kind", "run".into()),
            ("n", max.into()),
            ("ms", ms.into()),
            ("checks", counts.into()),
        ]);
    }

    /// The next `n` times of the chain, ms; or why not, within
    /// [`part_limit_ms`] (and the probes' calls before the first part:
    /// [`TASK_PROBES`] more).
    pub async fn part(&mut self, n: u32, ms: f64) -> Result<Vec<f64>, Phrase> {
        self.asked.set(Some(n));
        let limit_ms = part_limit_ms(n + TASK_PROBES, ms);
        let mut limit = gloo_timers::future::TimeoutFuture::new(limit_ms);
        loop {
            match select(self.replies.next(), &mut limit).await {
                Either::Left((Some(Reply::Samples(samples)), _)) => return Ok(samples),
                Either::Left((Some(Reply::OtherTasks(tasks)), _)) => {
                    self.other_tasks = Some(tasks);
                }
                Either::Left((Some(Reply::Failed(message)), _)) => return Err(failed(message)),
                Either::Left(_) => return Err(Phrase::new(key!("own_way.no_sandbox"))),
                Either::Right(_) => return Err(timed_out(limit_ms)),
            }
        }
    }

    /// Whether other tasks ran while a timed wait waited, as its calls
    /// before the timed ones said (`None` for a pair).
    pub fn other_tasks(&self) -> Option<OtherTasks> {
        self.other_tasks
    }

    /// Posts an object of `fields` to the frame (an opaque origin: to any).
    fn post(&self, fields: &[(&str, JsValue)]) {
        let message = js_sys::Object::new();
        for (name, value) in fields {
            let _ = Reflect::set(&message, &JsValue::from_str(name), value);
        }
        if let Some(window) = self.frame.content_window() {
            let _ = window.post_message(&message, "*");
        }
    }
}

/// The code failed, in its own words (shown as text); without any (a
/// worker that never started, as Firefox words it), most often code that
/// does not parse.
fn failed(message: String) -> Phrase {
    if message.trim().is_empty() {
        return Phrase::new(key!("own_way.not_started"));
    }
    Phrase::new(key!("own_way.failed")).data("message", message)
}

/// No answer within `limit_ms`: the sandbox is torn down.
fn timed_out(limit_ms: u32) -> Phrase {
    Phrase::new(key!("own_way.timed_out"))
        .arg("seconds", Arg::Fixed(f64::from(limit_ms) / 1000.0, 0))
}
