// waitlab on hosts that cannot send the cross-origin isolation headers
// (GitHub Pages and the like): install coi-sw.js, which adds them to every
// response of this origin, and reload once so the page loads through it.
// Where service workers are unavailable, or it did not help, the page runs
// without shared memory; why is left in window.waitlabCoiProblem as a code
// ("needs_https", "no_service_worker", "not_registered",
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
