// Runs on any page and in any worker.
// A channel: the consumer awaits the next item and the producer's send wakes
// it. Hand port1 to a worker to produce there.
export function channel() {
  const { port1, port2 } = new MessageChannel();
  const items = [], waiting = [];
  port2.onmessage = (e) => (waiting.length ? waiting.shift()(e.data) : items.push(e.data));
  return {
    send: (item) => port1.postMessage(item),
    receive: () => items.length ? Promise.resolve(items.shift())
      : new Promise((resolve) => waiting.push(resolve)),
    close: () => port1.close(),
  };
}
