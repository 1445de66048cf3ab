// @ts-check
// Offline copy of the site, through the service worker (sw.js at the site root).
// The whole site is saved only once the runtime is kept anyway (a calculator was used
// here), or when the reader asks ("Save for offline" in the footer); never by itself
// over a Save-Data connection. A rules page alone downloads only itself.
import { whenQuiet } from "./client.js";
import { SITE_ROOT, scopedKey } from "./site.js";

const RUNTIME_KEPT = scopedKey("runtime-kept");

/** @type {Promise<ServiceWorkerRegistration> | null} */
let registration = null;

function canUse() {
  return "serviceWorker" in navigator && /^https?:$/.test(location.protocol);
}

/** Register the service worker (once). */
export function registerServiceWorker() {
  if (!canUse()) return Promise.reject(new Error("no service worker here"));
  registration = registration || navigator.serviceWorker.register(
    new URL("sw.js", SITE_ROOT).href, { scope: SITE_ROOT.href });
  return registration;
}

/** The runtime's last start went through the service worker (which keeps it as it streams). */
let runtimeThroughServiceWorker = false;

/** Register the service worker; resolves at once with whether it controls the page.
 * When it does (every visit after the first), the runtime's files pass through it and are
 * kept as they stream. On a first visit nothing waits for it: the runtime downloads
 * directly, and once it has started (afterRuntimeStarted) the service worker keeps the
 * files, which the browser's HTTP cache then answers (one download). */
export function serviceWorkerControl() {
  if (!canUse()) return Promise.resolve(false);
  registerServiceWorker().catch(() => {});
  runtimeThroughServiceWorker = Boolean(navigator.serviceWorker.controller);
  return Promise.resolve(runtimeThroughServiceWorker);
}


function saveData() {
  return Boolean(/** @type {any} */ (navigator).connection?.saveData);
}

/** This page and every file of the site it loaded, with the two Material reads on every
 * page load (the search index, the sitemap): what the page needs to open offline. And the
 * home page, where the app on a phone's home screen starts (launch_head.js then sends it
 * on to the page read last). */
function visited() {
  const here = new URL(location.href);
  here.hash = "";
  const loaded = performance.getEntriesByType("resource").map((entry) => entry.name);
  return {
    type: "keep-visited",
    urls: [here.href, SITE_ROOT.href, new URL("search/search_index.json", SITE_ROOT).href,
      new URL("sitemap.xml", SITE_ROOT).href, ...loaded]
      .filter((url) => url.startsWith(SITE_ROOT.href)),
  };
}

/** This page has started (its calculators are live and quiet, or it has none): the service
 * worker's saving in the background, which gives way to a page while it starts, may go on. */
const SETTLED = "settled";

/** @param {(string | object)[]} messages sent to the active service worker, in order */
function tell(messages) {
  return registerServiceWorker()
    .then(() => navigator.serviceWorker.ready)
    .then((reg) => {
      if (!reg.active) return false;
      for (const message of messages) reg.active.postMessage(message);
      return true;
    });
}

/** After the first live result: keep the runtime for the next visit, then the pages. */
export function afterRuntimeStarted() {
  if (!canUse()) return;
  try {
    localStorage.setItem(RUNTIME_KEPT, "1");
  } catch {
    /* storage blocked: the pages are simply not saved by themselves */
  }
  // a runtime that came through the service worker is kept already; otherwise keep it now
  const keep = [SETTLED, visited(), ...(runtimeThroughServiceWorker ? [] : ["keep-runtime"])];
  // once the calculators are quiet: the downloads and hashing never compete with edits
  whenQuiet(() => { tell(saveData() ? keep : [...keep, "precache"]).catch(() => {}); });
}

/** A page without a calculator: register (cheap), and save the site only if the runtime
 * is already kept in this browser. */
export function onQuietPage() {
  if (!canUse()) return;
  let kept;
  try {
    kept = localStorage.getItem(RUNTIME_KEPT) === "1";
  } catch {
    kept = false;
  }
  tell(kept && !saveData() ? [SETTLED, visited(), "precache"] : [SETTLED, visited()]).catch(() => {});
}

/** The footer's "Save for offline" button (added once per page). */
export function addSaveButton() {
  if (!canUse() || document.querySelector(".tcr-save-offline")) return;
  const place = document.querySelector(".md-footer-meta__inner");
  if (!place) return;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "md-button tcr-save-offline";
  button.textContent = "Save for offline";
  const note = document.createElement("span");
  note.className = "tcr-save-offline-note";
  note.setAttribute("role", "status");
  button.addEventListener("click", () => {
    button.disabled = true;
    note.textContent = "Saving this site and its calculators for offline use…";
    tell([SETTLED, "keep-runtime", "precache"]).then((ok) => {
      note.textContent = ok ? "Saving in the background: the site will work offline once it is done."
        : "This browser cannot keep an offline copy.";
    }, () => { note.textContent = "This browser cannot keep an offline copy."; button.disabled = false; });
  });
  place.append(button, note);
}
