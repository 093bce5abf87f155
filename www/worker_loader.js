// Starts waitlab's probe worker: loads the wasm-bindgen glue that trunk
// built (no-modules target), then the wasm. The worker says "ready" itself.
//
// So that the page can tell a slow start from a dead worker, this script
// says "loading" at once and every 250 ms until the wasm has started, then
// "loaded" (a healthy worker said "ready" before that). A wasm that fails
// to load is thrown again as an uncaught error, which the page receives as
// the worker's error event, with the reason, at once.
const say = (word) => postMessage(word);
say("loading");
const beat = setInterval(() => say("loading"), 250);
// Its files are beside it, or, started from a blob: address (a page of
// an opaque origin, see new_worker in crates/browser/src/worker_host.rs),
// beside the address it was given.
const base = self.waitlabBase || location.href;
importScripts(new URL("./worker.js", base).href);
wasm_bindgen({ module_or_path: new URL("./worker_bg.wasm", base).href }).then(
  () => {
    clearInterval(beat);
    say("loaded");
  },
  (error) => {
    clearInterval(beat);
    setTimeout(() => {
      throw error;
    });
  }
);
