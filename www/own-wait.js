// waitlab: the sandbox where a reader's own way of waiting runs.
//
// This page is served with `Content-Security-Policy: sandbox
// allow-scripts` (an opaque origin, however it is opened or framed) and
// `connect-src 'none'`; it refuses to run anything unless its origin is
// opaque. The page that frames it posts the reader's code; the code runs
// in workers this page starts (never here, so a loop that never ends
// blocks only a worker, which the page tears down with the frame), and
// its times go back as numbers, a part at each count the page asks for.
// Nothing is evaluated: the code is part of the workers' script.
//
// Two kinds of code: experiment 1's timed wait, an async function of the
// wait in ms called in one chain; experiment 4's pair, an object of a
// `wait` (called in a waiter's worker) and a `wake` (in a setter's), each
// given its end of a MessageChannel between the two.
(function () {
  "use strict";
  var MOST_CODE = 8000;
  var MOST_CALLS = 100000;
  // Untimed calls of a timed wait, each with a task beside it (core's
  // `own_way::TASK_PROBES`).
  var PROBES = 5;
  // Rising whole counts, the last the calls asked for.
  var counts = function (checks, n) {
    return Array.isArray(checks) && checks.length > 0 && checks.length <= n &&
      checks.every(function (c, i) { return Number.isInteger(c) && c > (i ? checks[i - 1] : 0) && c <= n; }) &&
      checks[checks.length - 1] === n;
  };
  var say = function (message) {
    parent.postMessage(Object.assign({ waitlab: "own-wait" }, message), "*");
  };
  if (window.origin !== "null") {
    // Opened or framed without its sandbox (a server that did not send
    // this page's policy): run nothing.
    document.addEventListener("DOMContentLoaded", function () {
      document.body.textContent =
        "waitlab runs a reader's code only in a sandbox; this page was not given one.";
    });
    return;
  }
  // Every worker: the step of its clock, then "ready"; how it says an
  // error; the times since the last check, posted at each check.
  var COMMON =
    "let step = Infinity;\n" +
    "for (let i = 0, last = performance.now(); i < 20000 && step > 0.001; i++) {\n" +
    "  const now = performance.now();\n" +
    "  if (now > last) { step = Math.min(step, now - last); last = now; }\n" +
    "}\n" +
    'postMessage({ kind: "ready", step: step });\n' +
    'const failed = (err) => postMessage({ kind: "error", message: String(err && err.message !== undefined ? err.message : err) });\n' +
    "const checked = (out, checks) => {\n" +
    "  let next = 0, from = 0;\n" +
    "  return (i) => {\n" +
    "    if (i + 1 !== checks[next]) return;\n" +
    '    postMessage({ kind: "samples", samples: Array.from(out.subarray(from, i + 1)) });\n' +
    "    from = i + 1;\n" +
    "    next++;\n" +
    "  };\n" +
    "};\n";
  var SOURCES = {
    // One chain of calls, as a built-in cell's (a timer's nesting level
    // is the chain's). Before it, PROBES calls, untimed, each with a
    // task queued just before it: whether that task ran before the call
    // ended tells whether the code held its thread while it waited (a
    // busy wait does; a timer or a message does not). Two tasks are
    // queued, a message and a timer of 0 ms: a wait on a message lets the
    // first run, a wait on a timer the second, in timers' order (a loaded
    // WebKitGTK ran the message only after a 10 ms timer, once). They ask
    // for at least 10 ms, on a channel that has carried a message
    // already. The chain then starts in a task of its own, at nesting
    // level 0.
    timed: function (code) {
      return (
        '"use strict";\n' +
        "const wait = (\n" + code + "\n);\n" +
        'if (typeof wait !== "function") throw new TypeError("the code is not a function of the wait in ms");\n' +
        COMMON +
        "const probe = async (ms) => {\n" +
        "  const { port1, port2 } = new MessageChannel();\n" +
        "  let got = false, ranIn = 0;\n" +
        "  port1.onmessage = () => { got = true; };\n" +
        "  port2.postMessage(0);\n" +
        "  while (!got) await new Promise((r) => setTimeout(r, 0));\n" +
        "  for (let k = 0; k < " + PROBES + "; k++) {\n" +
        "    let timed = false;\n" +
        "    got = false;\n" +
        "    port2.postMessage(0);\n" +
        "    const beside = setTimeout(() => { timed = true; }, 0);\n" +
        "    await wait(Math.max(ms, 10));\n" +
        "    if (got || timed) ranIn++;\n" +
        "    clearTimeout(beside);\n" +
        "    while (!got) await new Promise((r) => setTimeout(r, 0));\n" +
        "  }\n" +
        '  postMessage({ kind: "tasks", ranIn: ranIn, of: ' + PROBES + " });\n" +
        "  await new Promise((r) => { port1.onmessage = r; port2.postMessage(0); });\n" +
        "  port1.close();\n" +
        "};\n" +
        "onmessage = async (e) => {\n" +
        "  const n = e.data.n, ms = e.data.ms;\n" +
        "  const out = new Float64Array(n);\n" +
        "  const check = checked(out, e.data.checks);\n" +
        "  try {\n" +
        "    await probe(ms);\n" +
        "    for (let i = 0; i < n; i++) {\n" +
        "      const t0 = performance.now();\n" +
        "      await wait(ms);\n" +
        "      out[i] = performance.now() - t0;\n" +
        "      check(i);\n" +
        "    }\n" +
        "  } catch (err) {\n" +
        "    failed(err);\n" +
        "  }\n" +
        "};\n"
      );
    },
    // Rounds as the built-in experiment's: the waiter arms the reader's
    // wait and tells the setter, which busy-waits a random 0 to ms ms
    // (xorshift), stamps, calls the reader's wake and sends the stamp;
    // the time is from that stamp to the waiter's wake-up, on the one
    // time base of `timeOrigin + now()`, never below zero. Two workers'
    // clocks differ: before the rounds, 31 pings on the control port give
    // the offset of the one with the shortest round trip (as NTP does),
    // and each time is corrected by it, as the built-in ways' are.
    wake: function (code) {
      return (
        '"use strict";\n' +
        "const pair = (\n" + code + "\n);\n" +
        'if (!pair || typeof pair.wait !== "function" || typeof pair.wake !== "function")\n' +
        '  throw new TypeError("the code is not an object of a wait and a wake function");\n' +
        COMMON +
        "const now = () => performance.timeOrigin + performance.now();\n" +
        "const setter = (port, ctrl, ms) => {\n" +
        "  let x = 0x5eed;\n" +
        "  ctrl.onmessage = (e) => {\n" +
        "    if (e.data && e.data.ping) { const got = now(); ctrl.postMessage({ pong: [got, now()] }); return; }\n" +
        "    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;\n" +
        "    const end = performance.now() + ((x >>> 0) % 1001) / 1000 * ms;\n" +
        "    while (performance.now() < end) {}\n" +
        "    const set = now();\n" +
        "    try { pair.wake(port); } catch (err) { failed(err); return; }\n" +
        "    ctrl.postMessage(set);\n" +
        "  };\n" +
        "};\n" +
        "const offsetOf = (ctrl) => new Promise((done) => {\n" +
        "  let k = 0, sent = 0, best = Infinity, offset = 0;\n" +
        "  const ping = () => { sent = now(); ctrl.postMessage({ ping: true }); };\n" +
        "  ctrl.onmessage = (e) => {\n" +
        "    const back = now(), b = e.data.pong, trip = back - sent - (b[1] - b[0]);\n" +
        "    if (trip < best) { best = trip; offset = (b[0] - sent + (b[1] - back)) / 2; }\n" +
        "    if (++k === 31) done(offset); else ping();\n" +
        "  };\n" +
        "  ping();\n" +
        "});\n" +
        "const waiter = async (port, ctrl, n, checks) => {\n" +
        "  const offset = await offsetOf(ctrl);\n" +
        "  const out = new Float64Array(n);\n" +
        "  const check = checked(out, checks);\n" +
        "  const stamps = [];\n" +
        "  let told = null;\n" +
        "  ctrl.onmessage = (e) => { if (told) { const t = told; told = null; t(e.data); } else stamps.push(e.data); };\n" +
        "  const stamp = () => (stamps.length ? stamps.shift() : new Promise((r) => { told = r; }));\n" +
        "  try {\n" +
        "    for (let i = 0; i < n; i++) {\n" +
        "      const woken = pair.wait(port);\n" +
        "      ctrl.postMessage(0);\n" +
        "      await woken;\n" +
        "      const at = now();\n" +
        "      out[i] = Math.max(0, at - (await stamp()) + offset);\n" +
        "      check(i);\n" +
        "    }\n" +
        "  } catch (err) {\n" +
        "    failed(err);\n" +
        "  }\n" +
        "};\n" +
        "onmessage = (e) => {\n" +
        "  const m = e.data;\n" +
        '  if (m.role === "setter") setter(m.port, m.ctrl, m.ms);\n' +
        "  else waiter(m.port, m.ctrl, m.n, m.checks);\n" +
        "};\n"
      );
    },
  };
  // The kind of code started, and its workers (the waiter first).
  var way = null;
  var slots = [];
  // Starts a worker of `src` in `slot`, its messages to `heard`. WebKit
  // starts no blob: worker in an opaque origin: a data: one instead.
  var make = function (src, heard, slot, kind) {
    var made = kind === "data"
      ? new Worker("data:text/javascript," + encodeURIComponent(src))
      : new Worker(URL.createObjectURL(new Blob([src], { type: "text/javascript" })));
    slot.worker = made;
    var started = false;
    made.onmessage = function (e) {
      if (e.data && e.data.kind === "ready") started = true;
      heard(e.data);
    };
    made.onerror = function (e) {
      e.preventDefault();
      if (!started && !e.message && kind !== "data") {
        made.terminate();
        make(src, heard, slot, "data");
        return;
      }
      // Firefox words no error of a worker in an opaque origin: the page
      // says what an unworded one most often is.
      say({ kind: "error", message: e.message || "" });
    };
  };
  // Starts `code` of `kind`: "ready" once every worker is, with the
  // coarsest of their clocks' steps; a setter's times are no one's.
  var begin = function (code, kind) {
    var src = SOURCES[kind](code);
    var roles = kind === "wake" ? ["waiter", "setter"] : ["timed"];
    var ready = 0;
    var step = 0;
    way = kind;
    slots = roles.map(function (role) {
      var slot = { worker: null };
      make(src, function (m) {
        if (!m || typeof m !== "object") return;
        if (m.kind === "ready") {
          step = Math.max(step, Number(m.step));
          ready += 1;
          if (ready === roles.length) say({ kind: "ready", step: step });
        } else if (m.kind === "error" || (m.kind === "samples" && role !== "setter")) {
          say({ kind: m.kind, samples: m.samples, message: m.message });
        } else if (m.kind === "tasks" && role === "timed") {
          say({ kind: "tasks", ranIn: m.ranIn, of: m.of });
        }
      }, slot, "blob");
      return slot;
    });
  };
  var run = function (n, ms, checks) {
    if (way === "timed") {
      slots[0].worker.postMessage({ n: n, ms: ms, checks: checks });
      return;
    }
    var user = new MessageChannel();
    var ctrl = new MessageChannel();
    slots[1].worker.postMessage({ role: "setter", port: user.port2, ctrl: ctrl.port2, ms: ms },
      [user.port2, ctrl.port2]);
    slots[0].worker.postMessage({ role: "waiter", port: user.port1, ctrl: ctrl.port1, n: n, checks: checks },
      [user.port1, ctrl.port1]);
  };
  window.addEventListener("message", function (e) {
    if (e.source !== parent) return;
    var m = e.data;
    if (!m || typeof m !== "object") return;
    if (m.kind === "start" && typeof m.code === "string" && m.code.length <= MOST_CODE &&
        Object.prototype.hasOwnProperty.call(SOURCES, m.way) && !way) {
      try {
        begin(m.code, m.way);
      } catch (err) {
        say({ kind: "error", message: String(err && err.message || err) });
      }
    } else if (m.kind === "run" && way && Number.isInteger(m.n) && m.n > 0 && m.n <= MOST_CALLS &&
               typeof m.ms === "number" && isFinite(m.ms) && m.ms >= 0 && counts(m.checks, m.n)) {
      run(m.n, m.ms, m.checks.slice());
    }
  });
  say({ kind: "loaded" });
})();
