// The waiter sleeps until it is notified: no timer, no polling loop. Any
// thread, the page too, can await it; only a worker may Atomics.wait.
export async function waitForFlag(flags, index) {
  while (Atomics.load(flags, index) === 0) {
    const { async, value } = Atomics.waitAsync(flags, index, 0);
    if (async) await value;
  }
}

export function raiseFlag(flags, index) {
  Atomics.store(flags, index, 1);
  Atomics.notify(flags, index);
}
