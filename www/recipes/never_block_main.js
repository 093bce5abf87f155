// The page never blocks: a wait that must block runs in a dedicated worker.
export function sleepInWorker(ms) {
  const worker = new Worker(import.meta.url, { type: 'module' });
  return new Promise((resolve, reject) => {
    worker.onmessage = (e) => resolve(e.data); // 'timed-out'
    worker.onerror = (e) => reject(new Error(e.message));
    worker.postMessage(ms);
  }).finally(() => worker.terminate());
}
if (typeof WorkerGlobalScope !== 'undefined') { // this file, as the worker
  // Shared memory needs a cross-origin isolated page.
  const word = new Int32Array(new SharedArrayBuffer(4));
  onmessage = (e) => postMessage(Atomics.wait(word, 0, 0, e.data));
}
