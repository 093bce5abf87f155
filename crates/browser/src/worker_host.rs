//! The page's side of the probe worker: start it, wait for "ready", hand it
//! shared memory, send jobs, read replies. Window only.
//!
//! Replies arrive on an unbounded channel, so a job awaits them as a stream.
//! Nothing waits forever: a worker that fails to load, throws or crashes
//! turns into an error message on the same channel at once, and one that
//! goes silent (never says ready, or stops answering) is given up on
//! [`GRACE_MS`] after a healthy one would have spoken: while loading, its
//! loader script says `loading` every [`LOADING_BEAT_MS`]; while working,
//! each job says how long it may be silent
//! ([`ToWorker::longest_silence_ms`]). Dropping a [`ProbeWorker`]
//! terminates the worker, which is how a run is cancelled.

use super::js_error_message;
use crate::trace;
use futures::StreamExt;
use futures::channel::mpsc;
use futures::future::{Either, select};
use waitlab_core::key;
use waitlab_core::protocol::{
    FromWorker, GRACE_MS, LOADING_BEAT_MS, PROTOCOL_VERSION, ProtocolError, ToWorker,
};
use waitlab_core::text::{Arg, Phrase};
use waitlab_core::trace::Thread;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;

/// The worker's loader script, relative to the page (copied by trunk).
pub const WORKER_URL: &str = "./worker_loader.js";
/// How long a worker may keep loading (saying `loading`) before the page
/// gives up, ms: a very slow network, not a broken worker.
const LOAD_LIMIT_MS: u32 = 30_000;

type Reply = Result<FromWorker, Phrase>;

/// Why no message came.
enum Unheard {
    /// The worker errored, crashed or sent something unreadable.
    Said(Phrase),
    /// Nothing came for this many ms.
    Silence(u32),
}
use Unheard::{Said, Silence};

/// A running probe worker.
pub struct ProbeWorker {
    worker: web_sys::Worker,
    /// The `blob:` address it was started from, in a page of an opaque
    /// origin ([`new_worker`]), freed with it.
    blob_url: Option<String>,
    replies: mpsc::UnboundedReceiver<Reply>,
    /// The longest silence of the jobs sent so far, ms.
    patience_ms: u32,
    /// Its lane on the run's timeline.
    thread: Thread,
    /// The lane its flows come from, and how far its clock is behind the
    /// page's (the pair's measured skew), ms.
    peer: Option<(Thread, f64)>,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

impl ProbeWorker {
    /// Starts a worker and waits until it says it is ready.
    ///
    /// A page of an opaque origin (a frame sandboxed without
    /// `allow-same-origin`, as WordPress frames an embed) may start no
    /// worker from an address of waitlab's origin, only from one of its
    /// own: a `blob:`, which keeps the frame's isolation, or where the
    /// browser starts none from a `blob:` there (WebKit), a `data:`
    /// address (a worker of an origin of its own, never isolated).
    pub async fn start() -> Result<ProbeWorker, Phrase> {
        let opaque = web_sys::window().is_some_and(|w| w.origin() == "null");
        if !opaque {
            return Self::start_from(Script::Url).await;
        }
        match Self::start_from(Script::Blob).await {
            Err(e) if e.key == key!("worker.failed_to_load") => {
                Self::start_from(Script::Data).await
            }
            started => started,
        }
    }

    /// [`start`](Self::start) from `script`.
    async fn start_from(script: Script) -> Result<ProbeWorker, Phrase> {
        let (worker, blob_url) = new_worker(script).map_err(|e| {
            Phrase::new(key!("worker.could_not_start")).data("detail", js_error_message(&e))
        })?;
        let (tx, replies) = mpsc::unbounded::<Reply>();
        let tx_error = tx.clone();
        let on_message = Closure::<dyn FnMut(_)>::new(move |e: web_sys::MessageEvent| {
            let data = e.data();
            let reply = match data.as_string() {
                Some(word) => FromWorker::from_loader(&word),
                None => match data.dyn_ref::<js_sys::Uint8Array>() {
                    Some(bytes) => FromWorker::decode(&bytes.to_vec()),
                    None => Err(ProtocolError("neither bytes nor the loader's word")),
                },
            }
            .map_err(|e| Phrase::new(key!("worker.unreadable")).code("detail", e.0));
            let _ = tx.unbounded_send(reply);
        });
        // A plain `Event` where the worker could not be started at all
        // (WebKit, from a `blob:` of an opaque origin), an `ErrorEvent`
        // with the message where its script threw.
        let on_error = Closure::<dyn FnMut(_)>::new(move |e: web_sys::Event| {
            e.prevent_default();
            let detail = js_sys::Reflect::get(&e, &"message".into())
                .ok()
                .and_then(|m| m.as_string())
                .unwrap_or_default();
            let crash = if detail.is_empty() {
                Phrase::new(key!("worker.failed_to_load"))
            } else {
                Phrase::new(key!("worker.crashed")).data("detail", detail)
            };
            let _ = tx_error.unbounded_send(Err(crash));
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        let mut this = ProbeWorker {
            worker,
            blob_url,
            replies,
            patience_ms: 0,
            thread: trace::next_worker(),
            peer: None,
            _on_message: on_message,
            _on_error: on_error,
        };
        let started = super::clock::now();
        loop {
            let quiet = LOADING_BEAT_MS + GRACE_MS;
            match this.receive(quiet).await {
                Ok(FromWorker::Loading)
                    if super::clock::now() - started < f64::from(LOAD_LIMIT_MS) => {}
                Ok(FromWorker::Loading) => {
                    return Err(Phrase::new(key!("worker.still_loading"))
                        .count("seconds", LOAD_LIMIT_MS / 1000));
                }
                Ok(FromWorker::Ready { protocol }) if protocol == PROTOCOL_VERSION => {
                    return Ok(this);
                }
                Ok(FromWorker::Ready { protocol }) => {
                    return Err(Phrase::new(key!("worker.protocol"))
                        .count("worker", protocol)
                        .count("page", PROTOCOL_VERSION));
                }
                Ok(FromWorker::Loaded) => {
                    return Err(Phrase::new(key!("worker.loaded_not_ready")));
                }
                Ok(other) => {
                    return Err(
                        Phrase::new(key!("worker.not_ready_first")).code("message", other.name())
                    );
                }
                Err(Silence(ms)) => {
                    return Err(Phrase::new(key!("worker.no_sign_of_life"))
                        .arg("seconds", Arg::Fixed(f64::from(ms) / 1000.0, 1)));
                }
                Err(Said(e)) => return Err(e),
            }
        }
    }

    /// Its lane on the run's timeline.
    pub fn thread(&self) -> Thread {
        self.thread
    }

    /// Says that the signals this worker receives come from `peer`, whose
    /// clock is `shift_ms` ahead of this worker's (the pair's skew).
    pub fn set_peer(&mut self, peer: Thread, shift_ms: f64) {
        self.peer = Some((peer, shift_ms));
    }

    /// Hands the worker the run's shared memory.
    pub fn share(&self, memory: &js_sys::Int32Array) -> Result<(), Phrase> {
        self.worker
            .post_message(&memory.buffer())
            .map_err(posting_failed)
    }

    /// Hands the worker one end of a `MessageChannel`.
    pub fn share_port(&self, port: &web_sys::MessagePort) -> Result<(), Phrase> {
        self.worker
            .post_message_with_transfer(port, &js_sys::Array::of1(port))
            .map_err(posting_failed)
    }

    /// Sends a job; the worker may now be silent as long as it says.
    pub fn send(&mut self, msg: &ToWorker) -> Result<(), Phrase> {
        self.patience_ms = self.patience_ms.max(msg.longest_silence_ms());
        let bytes = super::transferable(&msg.encode());
        self.worker
            .post_message_with_transfer(&bytes, &js_sys::Array::of1(&bytes.buffer()))
            .map_err(posting_failed)
    }

    /// The next reply to a job; an error if the worker crashed, went away
    /// or stayed silent longer than its jobs allow.
    pub async fn next(&mut self) -> Reply {
        loop {
            match self
                .receive(self.patience_ms.saturating_add(GRACE_MS))
                .await
            {
                Ok(FromWorker::Loading | FromWorker::Loaded) => {}
                Ok(FromWorker::Trace { records }) => {
                    let (peer, shift) = self.peer.map_or((None, 0.0), |(p, s)| (Some(p), s));
                    trace::add_worker(self.thread, peer, &records, shift);
                }
                Ok(reply) => return Ok(reply),
                Err(Silence(ms)) => {
                    return Err(Phrase::new(key!("worker.stopped_answering"))
                        .arg("seconds", Arg::Fixed(f64::from(ms) / 1000.0, 1)));
                }
                Err(Said(e)) => return Err(e),
            }
        }
    }

    /// The next message of any kind, or why there is none: an error the
    /// worker raised, or `quiet_ms` of silence.
    async fn receive(&mut self, quiet_ms: u32) -> Result<FromWorker, Unheard> {
        let silence = Box::pin(gloo_timers::future::TimeoutFuture::new(quiet_ms));
        match select(self.replies.next(), silence).await {
            Either::Left((Some(reply), _)) => reply.map_err(Said),
            Either::Left((None, _)) => Err(Said(Phrase::new(key!("worker.went_away")))),
            Either::Right(_) => Err(Silence(quiet_ms)),
        }
    }
}

/// A message that could not be posted to the worker.
fn posting_failed(e: wasm_bindgen::JsValue) -> Phrase {
    Phrase::new(key!("worker.post_failed")).data("detail", js_error_message(&e))
}

impl Drop for ProbeWorker {
    fn drop(&mut self) {
        self.worker.terminate();
        if let Some(url) = &self.blob_url {
            let _ = web_sys::Url::revoke_object_url(url);
        }
    }
}

/// Where a worker's script comes from.
#[derive(Debug, Clone, Copy)]
enum Script {
    /// The loader's address, beside the page.
    Url,
    /// A `blob:` of the page's own that loads the loader by its full
    /// address and says where the files beside it are
    /// (`self.waitlabBase`).
    Blob,
    /// The same line as a `data:` address.
    Data,
}

/// A new worker running the loader, from `script`, and the `blob:`
/// address it was started from, if one.
fn new_worker(script: Script) -> Result<(web_sys::Worker, Option<String>), wasm_bindgen::JsValue> {
    if let Script::Url = script {
        return Ok((web_sys::Worker::new(WORKER_URL)?, None));
    }
    let base = crate::location::beside_page("");
    let base = js_sys::JSON::stringify(&base.as_str().into())?;
    let source = format!(
        "self.waitlabBase = {base}; importScripts(new URL({WORKER_URL:?}, self.waitlabBase).href);",
        base = String::from(base)
    );
    if let Script::Data = script {
        let url = format!(
            "data:text/javascript,{}",
            String::from(js_sys::encode_uri_component(&source))
        );
        return Ok((web_sys::Worker::new(&url)?, None));
    }
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("text/javascript");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(
        &js_sys::Array::of1(&source.into()),
        &options,
    )?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let worker = web_sys::Worker::new(&url)?;
    Ok((worker, Some(url)))
}
