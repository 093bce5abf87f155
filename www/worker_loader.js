// Starts waitlab's probe worker: loads the wasm-bindgen glue that trunk
// built (no-modules target), then the wasm. The worker says "ready" itself.
importScripts("./worker.js");
wasm_bindgen({ module_or_path: "./worker_bg.wasm" });
