// Experiment 1's main-thread waits that last microseconds, timed in plain
// JavaScript. waitlab loads this file when a run first needs it, and calls
// it once per batch of samples: no wasm glue, no future and no Rust runs
// between a sample's two clock reads, so the figure is the browser's own,
// as `cargo xtask bench` checks against a bare twin (`bench_twins_*`).
"use strict";
globalThis.waitlabFastWaits = (() => {
  const channel = new MessageChannel();
  let arrived = null;
  channel.port1.onmessage = () => arrived();
  const waits = {
    resolved_promise: () => Promise.resolve(),
    message_channel: () =>
      new Promise((resolve) => {
        arrived = resolve;
        channel.port2.postMessage(null);
      }),
    scheduler_yield: () => scheduler.yield(),
    scheduler_post_task: () => scheduler.postTask(() => {}),
  };
  // Fills `out`, a Float64Array of pairs, with when each wait of the kind
  // `id` began and ended (performance.now(), ms); resolves when it is full.
  return async (id, out) => {
    const wait = waits[id];
    if (!wait) throw new TypeError(`no fast wait named ${id}`);
    for (let i = 0; i < out.length; i += 2) {
      const began = performance.now();
      await wait();
      out[i + 1] = performance.now();
      out[i] = began;
    }
  };
})();
