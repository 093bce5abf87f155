// Runs in a worker of a cross-origin isolated page: it blocks on shared memory.
// Spin only while the wait is shorter than a wake-up, then block until the
// setter's Atomics.notify.
export function waitForFlag(flags, index, spins) {
  if (!globalThis.crossOriginIsolated || !globalThis.SharedArrayBuffer) throw new Error(
    'needs a SharedArrayBuffer, which only a cross-origin isolated page has');
  for (let i = 0; i < spins; i++) {
    if (Atomics.load(flags, index) !== 0) return 'spun';
  }
  while (Atomics.load(flags, index) === 0) Atomics.wait(flags, index, 0);
  return 'blocked';
}

export function raiseFlag(flags, index) {
  Atomics.store(flags, index, 1);
  Atomics.notify(flags, index);
}
