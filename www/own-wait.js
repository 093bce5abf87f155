// waitlab: the sandbox where a reader's own way of waiting runs.
//
// This page is served with `Content-Security-Policy: sandbox
// allow-scripts` (an opaque origin, however it is opened or framed) and
// `connect-src 'none'`; it refuses to run anything unless its origin is
// opaque. The page that frames it posts the reader's code; the code runs
// in a worker this page starts (never here, so a loop that never ends
// blocks only that worker, which the page tears down with the frame),
// and its times go back as numbers, in one chain of calls, a part at each
// count the page asks for. Nothing is evaluated: the code is part of the
// worker's script.
(function () {
  "use strict";
  var MOST_CODE = 8000;
  var MOST_CALLS = 100000;
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
  var worker = null;
  var source = function (code) {
    return (
      '"use strict";\n' +
      "const wait = (\n" + code + "\n);\n" +
      'if (typeof wait !== "function") throw new TypeError("the code is not a function of the wait in ms");\n' +
      "let step = Infinity;\n" +
      "for (let i = 0, last = performance.now(); i < 20000 && step > 0.001; i++) {\n" +
      "  const now = performance.now();\n" +
      "  if (now > last) { step = Math.min(step, now - last); last = now; }\n" +
      "}\n" +
      'postMessage({ kind: "ready", step: step });\n' +
      // One chain of calls, as a built-in cell's (a timer's nesting
      // level is the chain's); at each count the page checks at, the
      // times since the last, posted after the call that ends them.
      "onmessage = async (e) => {\n" +
      "  const n = e.data.n, ms = e.data.ms, checks = e.data.checks;\n" +
      "  const out = new Float64Array(n);\n" +
      "  let next = 0, from = 0;\n" +
      "  try {\n" +
      "    for (let i = 0; i < n; i++) {\n" +
      "      const t0 = performance.now();\n" +
      "      await wait(ms);\n" +
      "      out[i] = performance.now() - t0;\n" +
      "      if (i + 1 === checks[next]) {\n" +
      '        postMessage({ kind: "samples", samples: Array.from(out.subarray(from, i + 1)) });\n' +
      "        from = i + 1;\n" +
      "        next++;\n" +
      "      }\n" +
      "    }\n" +
      "  } catch (err) {\n" +
      '    postMessage({ kind: "error", message: String(err && err.message !== undefined ? err.message : err) });\n' +
      "  }\n" +
      "};\n"
    );
  };
  var start = function (code, kind) {
    var src = source(code);
    var url = null;
    var made;
    if (kind === "blob") {
      url = URL.createObjectURL(new Blob([src], { type: "text/javascript" }));
      made = new Worker(url);
    } else {
      made = new Worker("data:text/javascript," + encodeURIComponent(src));
    }
    var started = false;
    made.onmessage = function (e) {
      var m = e.data;
      if (m && m.kind === "ready") started = true;
      say(m);
    };
    made.onerror = function (e) {
      e.preventDefault();
      if (!started && !e.message && kind === "blob") {
        // WebKit starts no blob: worker in an opaque origin: a data:
        // one instead.
        made.terminate();
        worker = start(code, "data");
        return;
      }
      say({ kind: "error", message: e.message || "the code could not start" });
    };
    return made;
  };
  window.addEventListener("message", function (e) {
    if (e.source !== parent) return;
    var m = e.data;
    if (!m || typeof m !== "object") return;
    if (m.kind === "start" && typeof m.code === "string" && m.code.length <= MOST_CODE && !worker) {
      try {
        worker = start(m.code, "blob");
      } catch (err) {
        say({ kind: "error", message: String(err && err.message || err) });
      }
    } else if (m.kind === "run" && worker && Number.isInteger(m.n) && m.n > 0 && m.n <= MOST_CALLS &&
               typeof m.ms === "number" && isFinite(m.ms) && m.ms >= 0 && counts(m.checks, m.n)) {
      worker.postMessage({ n: m.n, ms: m.ms, checks: m.checks.slice() });
    }
  });
  say({ kind: "loaded" });
})();
