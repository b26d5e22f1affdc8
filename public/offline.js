/* Installable and offline (issue 37, docs/decisions.md § Offline): registers the service
   worker (sw.js beside index.html; its scope is the bundle's prefix, e.g. /kontor/) and
   tells the app when a new release is waiting ("kontor-update-ready"). The app shows "A new
   version is ready — reload" and calls kontorApplyUpdate(): the waiting worker takes over
   and the page reloads once, so a page never runs chunks of two releases. Signing out calls
   kontorWipeOffline(): every stored API answer is deleted. A file, not an inline script:
   the Content-Security-Policy allows none. */
(function () {
  var waiting = null;
  var applying = false;
  window.kontorUpdateReady = function () {
    return !!(waiting && waiting.waiting);
  };
  window.kontorApplyUpdate = function () {
    applying = true;
    if (waiting && waiting.waiting) waiting.waiting.postMessage("kontor-skip-waiting");
    else location.reload();
  };
  window.kontorWipeOffline = function () {
    if (!window.caches) return Promise.resolve();
    return caches.keys().then(function (names) {
      return Promise.all(
        names
          .filter(function (n) { return n.indexOf("kontor-api-") === 0; })
          .map(function (n) { return caches.delete(n); })
      );
    });
  };
  if (!("serviceWorker" in navigator)) return;
  function announce(registration) {
    waiting = registration;
    window.dispatchEvent(new Event("kontor-update-ready"));
  }
  navigator.serviceWorker.addEventListener("controllerchange", function () {
    if (applying) {
      applying = false;
      location.reload();
    }
  });
  window.addEventListener("load", function () {
    navigator.serviceWorker
      .register(new URL("sw.js", document.baseURI).href)
      .then(function (registration) {
        function watch(worker) {
          worker.addEventListener("statechange", function () {
            if (worker.state === "installed" && navigator.serviceWorker.controller) {
              announce(registration);
            }
          });
        }
        if (registration.waiting && navigator.serviceWorker.controller) announce(registration);
        if (registration.installing) watch(registration.installing);
        registration.addEventListener("updatefound", function () {
          if (registration.installing) watch(registration.installing);
        });
        function check() {
          registration.update().catch(function () {});
        }
        setInterval(check, 30 * 60 * 1000);
        document.addEventListener("visibilitychange", function () {
          if (document.visibilityState === "visible") check();
        });
      })
      .catch(function () {
        /* a debug build has no sw.js: the app works without it */
      });
  });
})();
