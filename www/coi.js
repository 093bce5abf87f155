// waitlab on hosts that cannot send the cross-origin isolation headers
// (GitHub Pages and the like): install coi-sw.js, which adds them to every
// response of this origin, and reload once so the page loads through it.
// Where service workers are unavailable, or it did not help, nothing more
// happens and the page runs without shared memory. An embed never reloads
// itself: its isolation is the parent page's choice.
(() => {
  if (window.crossOriginIsolated || !window.isSecureContext || !navigator.serviceWorker) return;
  if (window.top !== window) return;
  const tried = "waitlab-coi-reloaded";
  navigator.serviceWorker.register("coi-sw.js").then(
    (registration) => {
      if (navigator.serviceWorker.controller || sessionStorage.getItem(tried)) return;
      const reload = () => {
        sessionStorage.setItem(tried, "1");
        location.reload();
      };
      const worker = registration.installing || registration.waiting || registration.active;
      if (!worker) return;
      if (worker.state === "activated") reload();
      else worker.addEventListener("statechange", () => worker.state === "activated" && reload());
    },
    () => {}
  );
})();
