// Runs on any page and in any worker.
// At most `slots` jobs at once: a job awaits a slot, and a release hands
// it straight to the next waiter (no polling of a counter).
export function semaphore(slots) {
  const waiting = [];
  const release = () => (waiting.length ? waiting.shift()() : slots++);
  return async function run(job) {
    if (slots > 0) slots--;
    else await new Promise((resolve) => waiting.push(resolve));
    try { return await job(); } finally { release(); }
  };
}
