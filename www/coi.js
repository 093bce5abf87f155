// waitlab on hosts that cannot send the cross-origin isolation headers
// (GitHub Pages and the like): install coi-sw.js, which adds them to every
// response of this origin, and reload once so the page loads through it.
// Where service workers are unavailable, or it did not help, the page runs
// without shared memory; why is left in window.waitlabCoiProblem as a code
// ("needs_https", "no_service_worker", "not_registered",
// "still_not_isolated", "register_failed:<the browser's message>"), which
// the page words in its banner, and a "waitlab:coi" event fires. An embed never reloads
// itself: its isolation is the parent page's choice.
(() => {
  if (window.crossOriginIsolated || window.top !== window) return;
  const giveUp = (why) => {
    window.waitlabCoiProblem = why;
    window.dispatchEvent(new Event("waitlab:coi"));
  };
  if (!window.isSecureContext) return giveUp("needs_https");
  if (!navigator.serviceWorker) return giveUp("no_service_worker");
  const tried = "waitlab-coi-reloaded";
  const reloaded = sessionStorage.getItem(tried);
  navigator.serviceWorker.register("coi-sw.js").then(
    (registration) => {
      if (reloaded || navigator.serviceWorker.controller)
        return giveUp("still_not_isolated");
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
})();
