// Wiggum's service worker: the app opens offline after the first visit.
//
// build.py writes sw.js from this template (BUILD and FILES below), beside
// index.html, so its scope is the site's folder (a GitHub Pages subpath
// included) and every build gives a byte-different sw.js, which is how the
// browser learns that there is a new version.
//
// What it does:
// - install: put every file of this build (FILES, relative to this script) in
//   a cache named after the build.  The page registers the worker only once the
//   whole app has loaded, so these requests are answered by the HTTP cache the
//   first visit just filled (immutable, content-hashed names), not sent again;
//   what that visit did not need is downloaded now, in the background: the
//   files loaded on first use, and the wheels when a first visit over a slow
//   link took their xz files (the boot module's choice; a cached visit takes
//   the wheels).
// - fetch: a page navigation in scope gets the cached index.html (whatever its
//   query: ?wheels=xz, an OAuth callback's ?code=); a file of the build comes
//   from the cache (static/preview.html in the preview's frame too).  Anything
//   else is not touched at all: no respondWith, so provider, GitHub and
//   local-server requests go to the network exactly as without a worker, and
//   no answer of theirs is ever stored.
// - a new build installs beside the running one and WAITS: the page shows
//   "A new version is ready — Reload", and only the page's own Reload (which
//   checks that neither Ralph nor a reply is running) sends SKIP_WAITING.
"use strict";

const BUILD = "__BUILD__";
const FILES = __FILES__;
const CACHE = "wiggum-" + BUILD;
const PREFIX = "wiggum-";

const scope = new URL("./", self.location.href);
const INDEX = new URL("index.html", scope).href;
const OWN = new Set(FILES.map((f) => new URL(f, scope).href));

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      // "no-cache" only for the unversioned files: the hashed ones may come from
      // the HTTP cache, where the first visit has just put them.
      Promise.all(
        FILES.map((f) => {
          const url = new URL(f, scope).href;
          const hashed = /\/static\/vendor\/(?!manifest\.json$)/.test(url);
          return cache.add(new Request(url, { cache: hashed ? "default" : "no-cache" }));
        }),
      ),
    ),
  );
});

self.addEventListener("activate", (event) => {
  // Older builds' caches go once this one is in charge; a tab still showing an
  // old build reads a file it lacks from the network.
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k))),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "SKIP_WAITING") self.skipWaiting();
  if (event.data && event.data.type === "BUILD") event.source?.postMessage({ type: "BUILD", build: BUILD });
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== scope.origin) return; // providers, GitHub, local servers: untouched
  let key = null;
  const path = url.pathname;
  url.search = "";
  url.hash = "";
  if (req.mode === "navigate" && (path === scope.pathname || path === scope.pathname + "index.html")) {
    key = INDEX;
  } else if (OWN.has(url.href)) {
    key = url.href; // a file of the build, the preview's and viewer's frames included
  }
  if (key === null) return;
  event.respondWith(
    caches.open(CACHE).then((cache) =>
      cache.match(key).then((hit) => hit || fetch(req)),
    ),
  );
});
