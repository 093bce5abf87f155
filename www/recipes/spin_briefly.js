// In a worker: spin only while the wait is shorter than a wake-up, then block
// until the setter's Atomics.notify.
export function waitForFlag(flags, index, spins) {
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
