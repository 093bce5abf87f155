// Runs on a cross-origin isolated page: its worker blocks on shared memory.
// The page never blocks: a wait that must block runs in a dedicated worker.
export function sleepInWorker(ms) {
  if (!globalThis.crossOriginIsolated || !globalThis.SharedArrayBuffer) return Promise.reject(
    new Error('needs a SharedArrayBuffer, which only a cross-origin isolated page has'));
  const worker = new Worker(import.meta.url, { type: 'module' });
  return new Promise((resolve, reject) => {
    worker.onmessage = (e) => resolve(e.data); // 'timed-out'
    worker.onerror = (e) => reject(new Error(e.message));
    worker.postMessage(ms);
  }).finally(() => worker.terminate());
}
if (typeof WorkerGlobalScope !== 'undefined') { // this file, as the worker
  const word = new Int32Array(new SharedArrayBuffer(4));
  onmessage = (e) => postMessage(Atomics.wait(word, 0, 0, e.data));
}
