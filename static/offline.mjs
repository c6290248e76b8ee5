// Offline after the first visit: registers the service worker (sw.js, beside
// index.html) once the whole app has loaded, so that the precache reads the
// files this visit has just put in the HTTP cache instead of downloading them
// a second time alongside the first load.  When a new build's worker is
// installed and waiting, it tells the page (a `wiggum:update` event, drawn by
// wiggum.web.views.lock_banner.UpdateBanner); the page's Reload calls
// wiggumBoot.applyUpdate() only when nothing is running (wiggum.ui.update).
//
// `localStorage["wiggum.sw"] = "off"` (or ?sw=off) skips the worker and
// unregisters one installed before: the page then behaves as without it.

export async function register(boot) {
  const sw = navigator.serviceWorker;
  if (!sw) return;
  const off =
    new URLSearchParams(location.search).get("sw") === "off" || localStorage.getItem("wiggum.sw") === "off";
  if (off) {
    for (const reg of await sw.getRegistrations()) await reg.unregister();
    return;
  }
  const reg = await sw.register(new URL("sw.js", boot.base), { scope: "./", updateViaCache: "none" });
  // A browser that blocks service workers (an automation setting, some
  // private modes) answers with no registration: the page works without one.
  if (!reg) return;
  const ready = () => {
    boot.update = "ready";
    document.documentElement.dataset.update = "ready";
    dispatchEvent(new CustomEvent("wiggum:update"));
  };
  // A worker that waits while another one controls this page is a new build;
  // the first worker of all activates at once and is no news.
  const watch = (worker) =>
    worker.addEventListener("statechange", () => {
      if (worker.state === "installed" && sw.controller) ready();
    });
  if (reg.waiting && sw.controller) ready();
  if (reg.installing) watch(reg.installing);
  reg.addEventListener("updatefound", () => watch(reg.installing));
  // Only the tab that asked reloads: another tab's Reload activates the new
  // worker too, and that tab may have Ralph running.
  let asked = false;
  sw.addEventListener("controllerchange", () => asked && location.reload());
  boot.applyUpdate = () => {
    asked = true;
    if (reg.waiting) reg.waiting.postMessage({ type: "SKIP_WAITING" });
    else location.reload();
  };
  // A tab left open learns of a new build when it is shown again.
  boot.checkUpdate = () => reg.update().catch(() => {});
  document.addEventListener("visibilitychange", () => document.hidden || boot.checkUpdate());
  boot.offline = reg;
}
