// Runs on any page and in any worker.
// `await` of something already done goes on in the same task: input,
// rendering and other tasks still wait. To let them run, await a new task:
export function yieldTask() {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });
}
