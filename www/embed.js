// The embed's first screen (embed.html). A blog post's reader sees the
// experiment's heading, its explanation and a Run button, in the reader's
// language, drawn from the page's part of the catalog (a copy of what the
// head's script is already fetching, window.waitlabTexts, which the app
// reads next) before a byte of the app has been fetched. The app loads when the reader asks for it: Run
// loads it and starts a run with the default settings (the app's first
// form starts one when the page's root has `data-run-at-once`); "Change
// the settings" loads it and shows the form. The app removes this screen
// (it has the shell's id) as it mounts.
//
// An embed that carries shared runs (a fragment) or names no experiment
// this page knows starts the app at once: it shows those runs, or says
// what is wrong. So does one whose texts cannot be fetched: the app then
// says that.
//
// `cargo xtask post-build` writes what this needs into the page, as JSON
// in #waitlab-embed: the app's glue and wasm, the height message's type,
// the catalog keys of the words, and each experiment's badge, heading key,
// first explanation's key and, for each state of shared memory, whether it
// runs and what its note says (phrases: a key, and for each placeholder
// code, a phrase or a list of phrases). Text goes in as text, never as HTML.
//
// Before Run, the screen says whether this embed will have shared memory
// and, if not, why (the browser, its host, or no SharedArrayBuffer at all)
// and which rows that costs; an experiment that cannot run without it
// offers the full page instead of Run.
//
// A sandboxed frame (WordPress frames embeds it does not know with
// sandbox="allow-scripts") has an opaque origin: this script is then a
// cross-origin one, whose import() resolves against about:blank, so the
// app's URLs are made absolute here (and served with CORS headers). Its
// host appends "#?secret=…" to the address: that is no shared run. With
// that secret the page also speaks WordPress's embed protocol, for the
// whole life of the page (the app's screen too): it answers the host's
// "ready" with its height, as it posts every height (`location.rs`), and
// asks the host to open its links (a sandboxed frame may open no window).
(() => {
  const boot = JSON.parse(document.getElementById("waitlab-embed").textContent);
  const root = document.documentElement;
  const query = new URLSearchParams(location.search);
  const experiment = boot.experiments[query.get("embed")];
  // The fragment's runs, and the host's secret after them (core's
  // link::host_secret reads it the same way).
  const [, runs, secret] = /^#?(.*?)(?:#?\?secret=([A-Za-z0-9]+))?$/.exec(location.hash);
  const absolute = (url) => new URL(url, location.href).href;
  // The content's height: the root's box, not its scrollHeight, which is
  // never less than the frame's own height and so could only grow.
  const tellHeight = () => {
    const height = Math.ceil(root.getBoundingClientRect().height);
    parent.postMessage({ type: boot.height, height }, "*");
    if (secret) parent.postMessage({ message: "height", value: height, secret }, "*");
  };
  if (secret && parent !== window) {
    addEventListener("message", (e) => {
      if (e.source === parent && e.data && e.data.message === "ready" && e.data.secret === secret) tellHeight();
    });
    // Only where the frame may not open a window itself: its origin is
    // opaque (sandboxed).
    if (window.origin === "null") document.addEventListener("click", (e) => {
      const link = e.target instanceof Element && e.target.closest("a[href]");
      if (!link || link.target !== "_blank" || new URL(link.href).host !== location.host) return;
      e.preventDefault();
      parent.postMessage({ message: "link", value: link.href, secret }, "*");
    });
  }

  let loading = null;
  const start = (runAtOnce) => {
    if (runAtOnce) root.setAttribute("data-run-at-once", "");
    loading ??= import(absolute(boot.app)).then((glue) => glue.default({ module_or_path: absolute(boot.wasm) }));
    return loading.catch((e) => {
      loading = null;
      root.removeAttribute("data-run-at-once");
      throw e;
    });
  };
  // Without words to say it in: English, as the app's own last resort.
  const fatal = (e) => {
    const p = document.createElement("p");
    p.className = "error";
    p.setAttribute("role", "alert");
    p.textContent = `waitlab could not load: ${e && e.message ? e.message : e}`;
    document.body.append(p);
  };
  if (!experiment || runs) {
    start(false).catch(fatal);
    return;
  }

  const el = (tag, props, ...children) => {
    const e = Object.assign(document.createElement(tag), props);
    e.append(...children);
    return e;
  };
  const draw = (texts) => {
    // A word of this screen by its role in `boot.keys`, or a text by its
    // catalog key.
    const t = (name) => {
      const key = boot.keys[name] || name;
      const text = texts[key];
      if (typeof text !== "string") throw new Error(`no text for ${key}`);
      return text;
    };
    const [badge, heading, explanation, sharedMemory] = experiment;
    // A phrase from the page's data, its placeholders filled in: code as
    // it is, a phrase rendered, a list of phrases joined.
    const render = (phrase) =>
      t(phrase.key).replace(/\{(\w+)\}/g, (whole, name) => {
        const arg = phrase.args[name];
        if (arg === undefined) return whole;
        if (typeof arg === "string") return arg;
        return Array.isArray(arg) ? arg.map(render).join(t("separator")) : render(arg);
      });
    const run = el("button", { type: "button", className: "primary" }, t("run"));
    const settings = el("button", { type: "button" }, t("settings"));
    const status = el("span", { className: "hint" }, t("hint"));
    status.setAttribute("role", "status");
    // The full page, at this experiment, in the reader's language.
    const full = new URL(`./?lang=${root.lang}#${query.get("embed")}`, location.href).href;
    const open = el("a", { href: full, target: "_blank", rel: "noopener" }, t("open"));
    const note = el("p", { className: "embed-note" });
    note.setAttribute("role", "status");
    note.hidden = true;
    const instead = el("a", { href: full, target: "_blank", rel: "noopener", className: "button primary" }, t("open"));
    instead.hidden = true;
    note.dataset.testid = "facade-shared";
    instead.dataset.testid = "facade-open-instead";
    run.dataset.testid = "facade-run";
    settings.dataset.testid = "facade-settings";
    status.dataset.testid = "facade-status";
    open.dataset.testid = "open-in-waitlab";
    const screen = el(
      "div",
      { id: "shell", className: "embed" },
      el("div", { className: "embed-bar" }, el("strong", {}, "waitlab"), open),
      el(
        "section",
        { className: "card experiment" },
        el("h2", {}, el("span", { className: "num-badge" }, badge), " ", t(heading)),
        el("div", { className: "explain" }, el("p", {}, t(explanation))),
        note,
        el("div", { className: "controls" }, run, settings, instead, status),
      ),
    );
    screen.dataset.testid = "embed-facade";
    // Shared memory, as the app will detect it (core's
    // shared_memory::Off::detect): isolated with or without a
    // SharedArrayBuffer, or not isolated, and then whether head.js found
    // the browser unable to isolate this frame; until head.js has said,
    // nothing is claimed.
    const state = () => {
      if (window.crossOriginIsolated) return typeof SharedArrayBuffer === "function" ? "on" : "no_sab";
      const why = window.waitlabCoiProblem;
      if (why === undefined) return null;
      return why === "frame_not_isolatable" ? "frame" : "host";
    };
    const say = () => {
      const now = state();
      if (!now) return;
      const [runs, phrases] = sharedMemory[now];
      note.textContent = phrases.map(render).join(" ");
      note.dataset.state = now;
      note.hidden = false;
      run.hidden = settings.hidden = status.hidden = !runs;
      instead.hidden = runs || now === "no_sab";
    };
    say();
    window.addEventListener("waitlab:coi", say);
    const press = (runAtOnce) => {
      run.disabled = settings.disabled = true;
      status.className = "hint";
      status.textContent = t("loading");
      start(runAtOnce).catch((e) => {
        run.disabled = settings.disabled = false;
        status.className = "error";
        status.textContent = t("failed").replace("{detail}", e && e.message ? e.message : String(e));
      });
    };
    run.addEventListener("click", () => press(true));
    settings.addEventListener("click", () => press(false));
    // The app starts downloading as the pointer or the focus reaches a
    // button, a moment before the press.
    let warm = false;
    const warmUp = () => {
      if (warm) return;
      warm = true;
      document.head.append(
        el("link", { rel: "modulepreload", href: absolute(boot.app), crossOrigin: "anonymous" }),
        el("link", { rel: "preload", as: "fetch", type: "application/wasm", href: absolute(boot.wasm), crossOrigin: "anonymous" }),
      );
    };
    for (const button of [run, settings]) {
      button.addEventListener("pointerenter", warmUp);
      button.addEventListener("focus", warmUp);
    }
    document.body.prepend(screen);
    // The embedding page sizes the iframe to this screen, as it will to
    // the app's. Only a framed screen has anyone to tell, and only until
    // the app, which tells it the same way, has replaced it.
    if (parent === window) return;
    const tellIfShown = () => screen.isConnected && tellHeight();
    // On every resize, measured on the next frame, not in the observer's
    // callback (see ResizeListener in crates/browser/src/page.rs).
    let asked = false;
    const sizes = new ResizeObserver(() => {
      if (!screen.isConnected) return sizes.disconnect();
      if (asked) return;
      asked = true;
      requestAnimationFrame(() => {
        asked = false;
        tellIfShown();
      });
    });
    sizes.observe(screen);
    // A host may keep the frame out of sight until it hears a height
    // (WordPress clips it to 1 px), and Chromium gives a frame clipped
    // away no animation frame and no ResizeObserver callback: so the
    // height is also told at once, on load and a second after it, none
    // of which needs the frame painted.
    const later = () => setTimeout(tellIfShown, 1000);
    tellHeight();
    if (document.readyState === "complete") later();
    else addEventListener("load", () => (tellIfShown(), later()), { once: true });
  };
  window.waitlabTexts
    .then(draw)
    .catch(() => start(false).catch(fatal));
})();
