/* Kontor's service worker (issue 37, docs/decisions.md § Offline). The release build
   writes the real file (scripts/service_worker.py): __VERSION__ becomes the release's
   content hash and __SHELL__ the list of the bundle's files (index.html, loader, main
   module, CSS, every route chunk — hashed names), relative to this file, so it works under
   any prefix.

   - Install: the release's files go into the cache "kontor-shell-<version>". The new worker
     then waits: pages of the old release keep the old cache (never a chunk of two
     releases) until the person reloads through "A new version is ready" (offline.js).
   - Activate: caches of other releases are deleted.
   - Page loads (navigations) go to the network; without one, the cached index.html.
   - The bundle's files come from the release's cache, else the network.
   - GET answers of the API sent with an API key are stored per key (a cache named by the
     key's SHA-256, so another person never reads them) and answered from there when the
     network fails, with the header X-Kontor-Stored-At (milliseconds since 1970) that makes
     the app show "Offline — as of 14:32". At most API_ENTRIES answers per key; signing out
     deletes them all (offline.js). Writes never touch a cache.
*/
"use strict";
const VERSION = "__VERSION__";
const SHELL = __SHELL__;
const SHELL_CACHE = "kontor-shell-" + VERSION;
const API_CACHE_PREFIX = "kontor-api-";
const API_ENTRIES = 300;
// Listing a store's keys costs the browser work per answer stored (12–20 % of a browser
// test's CPU when done after every store; docs/decisions.md § Offline): a store is trimmed
// on this worker's first answer into it and then every TRIM_EVERY answers, down to
// API_ENTRIES - TRIM_EVERY, so it never holds more than API_ENTRIES.
const TRIM_EVERY = 25;
const storesSinceTrim = new Map();
const scope = self.registration.scope;
const shellUrls = new Set(SHELL.map((p) => new URL(p, scope).href));

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.addAll([...shellUrls])));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((n) => n.startsWith("kontor-shell-") && n !== SHELL_CACHE)
            .map((n) => caches.delete(n)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("message", (event) => {
  if (event.data === "kontor-skip-waiting") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.pathname.includes("/api/v1/")) {
    if (request.headers.has("Authorization")) event.respondWith(apiAnswer(request));
    return;
  }
  if (!request.url.startsWith(scope)) return;
  if (request.mode === "navigate") {
    event.respondWith(
      fetch(request).catch(() =>
        caches
          .open(SHELL_CACHE)
          .then((cache) => cache.match(new URL("index.html", scope).href))
          .then((hit) => hit || Response.error()),
      ),
    );
    return;
  }
  const plain = url.origin + url.pathname;
  if (shellUrls.has(plain)) {
    event.respondWith(
      caches
        .open(SHELL_CACHE)
        .then((cache) => cache.match(plain))
        .then((hit) => hit || fetch(request)),
    );
  }
});

async function apiCacheName(authorization) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(authorization));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return API_CACHE_PREFIX + hex;
}

async function apiAnswer(request) {
  const name = await apiCacheName(request.headers.get("Authorization"));
  let response;
  try {
    response = await fetch(request);
  } catch (offline) {
    const cache = await caches.open(name);
    const hit = await cache.match(request, { ignoreVary: true });
    if (hit) return hit;
    throw offline;
  }
  const type = response.headers.get("Content-Type") || "";
  if (response.ok && (type.startsWith("application/json") || type.startsWith("application/pdf"))) {
    const copy = response.clone();
    // Stored after the answer went to the page; a failure to store loses nothing.
    copy
      .blob()
      .then(async (body) => {
        const headers = new Headers(copy.headers);
        headers.set("X-Kontor-Stored-At", String(Date.now()));
        const cache = await caches.open(name);
        await cache.delete(request, { ignoreVary: true });
        await cache.put(request, new Response(body, { status: copy.status, headers }));
        const stored = storesSinceTrim.get(name);
        if (stored !== undefined && stored + 1 < TRIM_EVERY) {
          storesSinceTrim.set(name, stored + 1);
          return;
        }
        storesSinceTrim.set(name, 0);
        const keys = await cache.keys();
        const keep = API_ENTRIES - TRIM_EVERY;
        for (const old of keys.slice(0, Math.max(0, keys.length - keep))) {
          await cache.delete(old);
        }
      })
      .catch(() => {});
  }
  return response;
}
