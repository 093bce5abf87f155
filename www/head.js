// waitlab's first script on both pages (index.html and the embed's), run
// before anything is drawn: cross-origin isolation, then the reader's
// language and colour scheme. A file, not an inline script, so that the
// pages' Content-Security-Policy allows scripts from the origin alone.
//
// waitlab on hosts that cannot send the cross-origin isolation headers
// (GitHub Pages and the like): install coi-sw.js, which adds them to every
// response of this origin, and reload once so the page loads through it.
// Where service workers are unavailable, or it did not help, the page runs
// without shared memory; why is left in window.waitlabCoiProblem as a code
// ("needs_https", "sandboxed", "no_service_worker", "not_registered",
// "still_not_isolated", "register_failed:<the browser's message>",
// "frame_not_isolatable"), which the page words in its banner and an
// embed on its first screen, and a "waitlab:coi" event fires.
//
// A frame (an embed in a blog post) can be isolated by its own response's
// Document-Isolation-Policy, whatever the page around it sends, where the
// browser supports that. So a frame that is not isolated first asks its
// host whether it sent that header (a HEAD request for itself): if it did,
// the browser is what cannot isolate a frame ("frame_not_isolatable"),
// and reloading would not help; if not, the service worker adds it.
(() => {
  if (window.crossOriginIsolated) return;
  const giveUp = (why) => {
    window.waitlabCoiProblem = why;
    window.dispatchEvent(new Event("waitlab:coi"));
  };
  const throughServiceWorker = () => {
    // A sandboxed frame (an opaque origin) may register no service worker.
    if (window.origin === "null") return giveUp("sandboxed");
    if (!window.isSecureContext) return giveUp("needs_https");
    if (!navigator.serviceWorker) return giveUp("no_service_worker");
    const tried = "waitlab-coi-reloaded";
    let reloaded = null;
    try {
      reloaded = sessionStorage.getItem(tried);
    } catch (e) {
      return giveUp(`register_failed:${e && e.message ? e.message : e}`);
    }
    navigator.serviceWorker.register("coi-sw.js").then(
      (registration) => {
        if (reloaded || navigator.serviceWorker.controller) return giveUp("still_not_isolated");
        const worker = registration && (registration.installing || registration.waiting || registration.active);
        if (!worker) return giveUp("not_registered");
        const reload = () => {
          sessionStorage.setItem(tried, "1");
          location.reload();
        };
        if (worker.state === "activated") reload();
        else worker.addEventListener("statechange", () => worker.state === "activated" && reload());
      },
      (error) => giveUp(`register_failed:${error && error.message ? error.message : error}`)
    );
  };
  if (window.top === window) return throughServiceWorker();
  fetch(location.href, { method: "HEAD", cache: "no-store" }).then(
    (response) =>
      response.headers.has("document-isolation-policy") ? giveUp("frame_not_isolatable") : throughServiceWorker(),
    throughServiceWorker
  );
})();

// The reader's language, before anything is drawn: ?lang=, else the
// first of the browser's languages the page has, else English. The
// app reads it from <html lang>. The page's texts in it start loading
// now (window.waitlabFetched, by address: the app takes the response
// instead of fetching again; the embed's first screen and the shell read
// a copy of it). A reader of another language sees the shell's layout
// without its English words until they are in, then its own words in it
// (each element names its key in data-t). An embed shows no shell.
(() => {
  const have = ["en", "de", "ru", "pt", "ja", "es"];
  const of = (tag) => have.find((l) => (tag || "").trim().toLowerCase().split(/[-_]/)[0] === l);
  const query = new URLSearchParams(location.search);
  const lang = of(query.get("lang")) || (navigator.languages || [navigator.language]).map(of).find(Boolean) || "en";
  const html = document.documentElement;
  html.lang = lang;
  if (lang !== "en") html.classList.add("shell-neutral");
  if (query.has("embed")) html.classList.add("shell-off");
  const address = `i18n/${lang}.json`;
  const response = fetch(address);
  window.waitlabFetched = { [address]: response };
  // A copy of the texts for the scripts before the app (which reads the
  // response itself, and says why it failed).
  const texts = response.then((r) => (r.ok ? r.clone().json() : Promise.reject(new Error(`HTTP ${r.status}`))));
  texts.catch(() => {});
  window.waitlabTexts = texts;
  if (lang !== "en" && !query.has("embed")) {
    const write = (words) => {
      const all = document.querySelectorAll("#shell [data-t]");
      if (![...all].every((e) => typeof words[e.dataset.t] === "string")) return;
      for (const e of all) e.textContent = words[e.dataset.t];
      if (typeof words["page.title"] === "string") document.title = words["page.title"];
      html.classList.remove("shell-neutral");
    };
    texts.then((words) => {
      if (document.readyState !== "loading") write(words);
      else document.addEventListener("readystatechange", () => write(words), { once: true });
    }, () => {});
  }
  // The colour scheme: the reader's choice (kept where storage is
  // allowed), else the browser's preference, followed as it changes.
  const dark = matchMedia("(prefers-color-scheme: dark)");
  const kept = "waitlab-scheme";
  const stored = () => { try { return localStorage.getItem(kept); } catch { return null; } };
  window.waitlabScheme = (choice) => {
    if (choice) try { choice === "auto" ? localStorage.removeItem(kept) : localStorage.setItem(kept, choice); } catch {}
    const asked = choice || stored();
    const c = asked === "light" || asked === "dark" ? asked : "auto";
    html.dataset.schemeChoice = c;
    html.dataset.scheme = c === "auto" ? (dark.matches ? "dark" : "light") : c;
  };
  dark.addEventListener("change", () => window.waitlabScheme());
  window.waitlabScheme();
})();
