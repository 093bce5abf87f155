// waitlab's service worker: serves this origin's responses with the
// cross-origin isolation headers a static host could not set, so the page
// gets SharedArrayBuffer and the fine clock: COOP and COEP for a page in a
// tab of its own, Document-Isolation-Policy for an embed in a page that is
// not isolated (where the browser supports it). Registered by head.js.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.cache === "only-if-cached" && request.mode !== "same-origin") return;
  if (new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    fetch(request).then((response) => {
      if (response.status === 0) return response;
      const headers = new Headers(response.headers);
      headers.set("Cross-Origin-Opener-Policy", "same-origin");
      headers.set("Cross-Origin-Embedder-Policy", "require-corp");
      headers.set("Cross-Origin-Resource-Policy", "cross-origin");
      headers.set("Document-Isolation-Policy", "isolate-and-require-corp");
      return new Response(response.body, {
        status: response.status,
        statusText: response.statusText,
        headers,
      });
    })
  );
});
