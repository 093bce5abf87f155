// Runs in a worker, on any page.
// A hidden page's timers run once a second at best and its frames stop;
// a worker's timers keep time. Run this in a worker: each timer aims at
// the clock's next due time, and every tick is posted to the page, which
// counts what is due from the clock, never from the ticks that came.
// Page: new Worker('ticker.js', { type: 'module' }).onmessage = (e) => work(e.data);
export function tickInWorker(interval, post = postMessage) {
  const start = performance.now();
  let tick = 0;
  const next = () => {
    tick += 1;
    post(tick);
    setTimeout(next, Math.max(0, Math.ceil(start + (tick + 1) * interval - performance.now())));
  };
  setTimeout(next, interval);
}
