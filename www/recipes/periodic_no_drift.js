// Runs on any page and in any worker.
// Ticks on a schedule: each timer aims at the next tick's time, so work
// does not push later ticks back (a late tick runs at once and catches up).
export function every(interval, work, signal) {
  const start = performance.now();
  let tick = 0;
  const next = () => {
    if (signal?.aborted) return;
    work(tick);
    tick += 1;
    // Round up: setTimeout drops a delay's fraction, and would fire early.
    setTimeout(next, Math.max(0, Math.ceil(start + tick * interval - performance.now())));
  };
  next();
}
