// waitlab on hosts that cannot send the cross-origin isolation headers
// (GitHub Pages and the like): install coi-sw.js, which adds them to every
// response of this origin, and reload once so the page loads through it.
// Where service workers are unavailable, or it did not help, the page runs
// without shared memory; why is left in window.waitlabCoiProblem (and a
// "waitlab:coi" event fires) for the page's banner. An embed never reloads
// itself: its isolation is the parent page's choice.
(() => {
  if (window.crossOriginIsolated || window.top !== window) return;
  const giveUp = (why) => {
    window.waitlabCoiProblem = why;
    window.dispatchEvent(new Event("waitlab:coi"));
  };
  if (!window.isSecureContext) return giveUp("service workers need https (or localhost)");
  if (!navigator.serviceWorker) return giveUp("this browser offers no service workers here");
  const tried = "waitlab-coi-reloaded";
  const reloaded = sessionStorage.getItem(tried);
  navigator.serviceWorker.register("coi-sw.js").then(
    (registration) => {
      if (reloaded || navigator.serviceWorker.controller)
        return giveUp("the page loaded through its service worker and is still not isolated");
      const worker = registration && (registration.installing || registration.waiting || registration.active);
      if (!worker) return giveUp("the browser did not register the service worker");
      const reload = () => {
        sessionStorage.setItem(tried, "1");
        location.reload();
      };
      if (worker.state === "activated") reload();
      else worker.addEventListener("statechange", () => worker.state === "activated" && reload());
    },
    (error) => giveUp(`the service worker could not be registered (${error && error.message ? error.message : error})`)
  );
})();
