// The recipes' checks, run in the page by `recipes.rs`: each JavaScript
// recipe of `www/recipes/` imported as the site serves it and made to do
// what its lesson promises. Only lower bounds and relations measured side
// by side, never an absolute time a loaded machine could break. Returns
// one row per lesson: { lesson, ok, skipped, detail }.
async function checkRecipes(lessons, servedWorker) {
  const recipe = (id) => import(new URL(`/recipes/${id}.js`, location.href).href);
  // One clock step (the largest of a few), the tolerance of every bound.
  let step = 0.001;
  for (let i = 0; i < 20; i++) {
    const a = performance.now();
    let b = a;
    while (b === a) b = performance.now();
    step = Math.max(step, b - a);
  }
  // A bound on a difference of two readings: one step where the clock is
  // isolated; two where it is not, since a coarse clock is also jittered
  // (Firefox: each reading within a step either way; a schedule's ticks
  // were seen "2 ms early" on a 1 ms clock with every timer late).
  const tol = globalThis.crossOriginIsolated ? step : 2 * step;
  const shared = typeof SharedArrayBuffer === 'function' && globalThis.crossOriginIsolated;
  const flags = () => new Int32Array(new SharedArrayBuffer(4));
  const timer = (ms) => new Promise((r) => setTimeout(r, ms));
  const busy = (ms) => { const end = performance.now() + ms; while (performance.now() < end); };
  const check = (cond, detail) => { if (!cond) throw new Error(detail); };
  // A recipe that needs what the page lacks fails at once (before a
  // timer of 0 ms could fire), its message's first words naming it.
  const failsAtOnce = async (call, needs) => {
    let said;
    try {
      said = await Promise.race([call().then(() => 'it worked'), timer(0).then(() => 'no answer at once')]);
    } catch (e) {
      said = e?.message ?? String(e);
    }
    check(String(said).startsWith(needs), `expected "${needs}…" at once, got: ${said}`);
    return `failed at once: ${said}`;
  };
  const within = (promise, ms, what) => Promise.race([
    promise, timer(ms).then(() => { throw new Error(`${what}: no answer within ${ms} ms`); }),
  ]);
  const checks = {
    async timed_wait_minimum() {
      const { sleep, sleepUntil } = await recipe('timed_wait_minimum');
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        await sleep(10);
        const took = performance.now() - t0;
        check(took >= 10 - tol, `sleep(10) took ${took} ms`);
      }
      const deadline = performance.now() + 15;
      const late = await sleepUntil(deadline);
      check(late >= 0 && performance.now() >= deadline, `sleepUntil woke ${late} ms late`);
    },
    async await_done_no_yield() {
      const { yieldTask } = await recipe('await_done_no_yield');
      let ran = false;
      const { port1, port2 } = new MessageChannel();
      port1.onmessage = () => { ran = true; port1.close(); };
      port2.postMessage(null);
      for (let i = 0; i < 1000; i++) await Promise.resolve();
      check(!ran, 'a task ran during 1,000 awaits of a resolved promise');
      let yields = 0;
      while (!ran && yields < 100) { await yieldTask(); yields++; }
      check(ran, 'the queued task did not run in 100 yields');
    },
    async sleep_vs_delay() {
      const { batch } = await recipe('sleep_vs_delay');
      const t0 = performance.now();
      await batch(50, 20);
      const took = performance.now() - t0;
      check(took >= 20 - tol, `the batch took ${took} ms, less than one wait`);
      check(took < (50 * 20) / 2, `50 waits of 20 ms took ${took} ms: they did not overlap`);
    },
    async never_block_main() {
      const { sleepInWorker } = await recipe('never_block_main');
      if (!shared) return failsAtOnce(() => sleepInWorker(50), 'needs a SharedArrayBuffer');
      let ticks = 0;
      let on = true;
      const tick = () => { if (on) { ticks++; setTimeout(tick, 10); } };
      tick();
      const t0 = performance.now();
      const result = await within(sleepInWorker(300), 10000, 'sleepInWorker');
      const took = performance.now() - t0;
      on = false;
      check(result === 'timed-out', `Atomics.wait said ${result}`);
      check(took >= 300 - tol, `the worker slept ${took} ms`);
      check(ticks >= 5, `the main thread ticked ${ticks} times while the worker slept`);
    },
    async spin_briefly() {
      const { waitForFlag: spin } = await recipe('spin_briefly');
      if (!shared) {
        return failsAtOnce(async () => spin(new Int32Array(1), 0, 10), 'needs a SharedArrayBuffer');
      }
      const worker = servedWorker(
        "import { waitForFlag } from '/recipes/spin_briefly.js';" +
        'onmessage = (e) => postMessage([waitForFlag(e.data.flags, 0, e.data.spins), performance.timeOrigin + performance.now()]);',
      );
      const ask = (data) => new Promise((resolve, reject) => {
        worker.onmessage = (e) => resolve(e.data);
        worker.onerror = (e) => reject(new Error(e.message));
        worker.postMessage(data);
      });
      try {
        const set = flags();
        Atomics.store(set, 0, 1);
        const [first] = await within(ask({ flags: set, spins: 1000 }), 10000, 'a set flag');
        check(first === 'spun', `a flag already set: ${first}`);
        const { raiseFlag } = await recipe('spin_briefly');
        const later = flags();
        const answer = within(ask({ flags: later, spins: 100 }), 10000, 'a flag raised later');
        await timer(50);
        const raised = performance.timeOrigin + performance.now();
        raiseFlag(later, 0);
        const [how, at] = await answer;
        check(how === 'blocked', `a flag raised after 50 ms: ${how}`);
        check(at >= raised - 1, 'the worker answered before the flag was raised');
      } finally {
        worker.terminate();
      }
    },
    async signal_dont_poll() {
      const { signal, waitForFlag, raiseFlag } = await recipe('signal_dont_poll');
      // The signal for any page: raised on the page, then from a worker
      // that was handed its port.
      for (const from of ['page', 'worker']) {
        const sg = signal();
        let woke = false;
        const waiting = sg.wait().then(() => { woke = true; });
        await timer(30);
        check(!woke, `${from}: the waiter woke before the signal`);
        const worker = from === 'worker' ? servedWorker('onmessage = (e) => e.data.postMessage(null);') : null;
        try {
          if (worker) worker.postMessage(sg.port, [sg.port]); else sg.raise();
          await within(waiting, 5000, `${from}: the signalled waiter`);
        } finally {
          worker?.terminate();
        }
        check(woke, `${from}: the waiter did not wake`);
      }
      if (!shared || typeof Atomics.waitAsync !== 'function') {
        return failsAtOnce(() => waitForFlag(new Int32Array(1), 0), 'needs a SharedArrayBuffer');
      }
      const f = flags();
      let woke = false;
      const waiting = waitForFlag(f, 0).then(() => { woke = true; });
      await timer(30);
      check(!woke, 'the waiter woke before the signal');
      raiseFlag(f, 0);
      await within(waiting, 5000, 'the signalled waiter');
      check(woke, 'the waiter did not wake');
    },
    async cancel_through_wait() {
      const { delay } = await recipe('cancel_through_wait');
      const t0 = performance.now();
      await delay(10);
      check(performance.now() - t0 >= 10 - tol, 'delay(10) ended early');
      const ctl = new AbortController();
      const t1 = performance.now();
      setTimeout(() => ctl.abort(new Error('stop')), 30);
      let reason = null;
      await delay(5000, ctl.signal).catch((e) => { reason = e; });
      const stuck = performance.now() - t1;
      check(reason?.message === 'stop', `the delay ended with ${reason}`);
      check(stuck < 2500, `an abort after 30 ms ended a 5 s delay after ${stuck} ms`);
      let early = null;
      await delay(10, AbortSignal.abort(new Error('before'))).catch((e) => { early = e; });
      check(early?.message === 'before', 'an aborted signal did not end the delay at once');
    },
    async periodic_no_drift() {
      const { every } = await recipe('periodic_no_drift');
      const interval = 10, work = 4, ticks = 20;
      // The schedule starts where `every` reads the clock, at or after
      // this reading (the first tick's own time may come later: WebKitGTK
      // once began it 0.4 ms after, and every tick then seemed early).
      const origin = performance.now();
      const scheduled = await new Promise((resolve) => {
        const ctl = new AbortController();
        const starts = [];
        every(interval, () => {
          starts.push(performance.now());
          if (starts.length === ticks) { ctl.abort(); resolve(starts); } else busy(work);
        }, ctl.signal);
      });
      // The same work in a loop that waits the interval after it.
      const looped = [];
      while (looped.length < ticks) {
        looped.push(performance.now());
        if (looped.length < ticks) { busy(work); await timer(interval); }
      }
      const late = (starts, from) => starts.map((t, k) => t - (from + k * interval));
      const [onSchedule, afterWork] = [late(scheduled, origin), late(looped, looped[0])];
      // Each tick is aimed by a reading too: one more step of jitter.
      const aimed = globalThis.crossOriginIsolated ? tol : tol + step;
      check(onSchedule.every((l) => l >= -aimed), `a tick came early: ${onSchedule}`);
      const last = ticks - 1;
      // Each turn of the loop adds its work (a busy wait the clock may end
      // a step early) to its lateness.
      check(afterWork[last] >= last * (work - step) - tol, `the delay loop drifted ${afterWork[last]} ms`);
      check(onSchedule[last] < afterWork[last] / 2,
        `the schedule's last tick was ${onSchedule[last]} ms late, the loop's ${afterWork[last]} ms`);
    },
    async limit_with_semaphore() {
      const { semaphore } = await recipe('limit_with_semaphore');
      const run = semaphore(3);
      let active = 0, most = 0;
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => run(async () => {
        active++;
        most = Math.max(most, active);
        await timer(5 + (i * 7) % 11);
        active--;
        return i;
      })));
      check(most === 3, `${most} jobs ran at once, not 3`);
      check(results.every((r, i) => r === i), `results ${results}`);
    },
    async hand_off_channel() {
      const { channel } = await recipe('hand_off_channel');
      const ch = channel();
      const first = within(ch.receive(), 5000, 'a receive before the send');
      for (let i = 0; i < 100; i++) ch.send(i);
      const got = [await first];
      while (got.length < 100) got.push(await within(ch.receive(), 5000, 'a receive'));
      ch.close();
      check(got.every((v, i) => v === i), `items came as ${got}`);
    },
    async keep_time_hidden() {
      await recipe('keep_time_hidden');
      const interval = 10;
      // The worker's clock starts after this reading: no tick is due
      // before origin + k intervals, and none may come earlier.
      const origin = performance.now();
      const worker = servedWorker(
        "import { tickInWorker } from '/recipes/keep_time_hidden.js'; tickInWorker(10);",
      );
      const came = [];
      try {
        await within(new Promise((resolve, reject) => {
          worker.onerror = (e) => reject(new Error(e.message));
          worker.onmessage = (e) => {
            came.push([e.data, performance.now()]);
            if (came.length === 15) resolve();
          };
        }), 10000, 'fifteen ticks');
      } finally {
        worker.terminate();
      }
      check(came.every(([tick], i) => tick === i + 1), `ticks came as ${came.map(([t]) => t)}`);
      const early = came.filter(([tick, at]) => at < origin + tick * interval - tol);
      check(early.length === 0, `ticks came early: ${JSON.stringify(early)}`);
    },
  };
  const rows = [];
  for (const lesson of lessons) {
    try {
      const said = await within(checks[lesson](), 30000, lesson);
      rows.push({ lesson, ok: true, skipped: typeof said === 'string' && said.startsWith('skipped'), detail: said ?? '' });
    } catch (e) {
      rows.push({ lesson, ok: false, skipped: false, detail: `${e}\n${e?.stack ?? ''}` });
    }
  }
  return rows;
}
