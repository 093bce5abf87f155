// signal() runs on any page and in any worker; waitForFlag needs shared memory.
// The waiter sleeps until it is signalled: no timer, no polling loop.
export function signal() { // hand `port` to a worker to raise it from there
  const { port1, port2 } = new MessageChannel();
  const raised = new Promise((resolve) => { port1.onmessage = resolve; });
  return { wait: () => raised, raise: () => port2.postMessage(null), port: port2 };
}

// Shared memory: a cross-origin isolated page (COOP and COEP headers).
export async function waitForFlag(flags, index) {
  if (!globalThis.crossOriginIsolated || !globalThis.SharedArrayBuffer || !Atomics.waitAsync)
    throw new Error('needs a SharedArrayBuffer and Atomics.waitAsync: use signal() elsewhere');
  while (Atomics.load(flags, index) === 0) {
    const { async, value } = Atomics.waitAsync(flags, index, 0);
    if (async) await value;
  }
}

export function raiseFlag(flags, index) {
  Atomics.store(flags, index, 1);
  Atomics.notify(flags, index);
}
