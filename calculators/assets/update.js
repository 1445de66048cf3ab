// @ts-check
// A new build of the site: say so, offer a reload, and never run this page's JavaScript
// against a page or a Python bundle of another build.
//
// Every page carries its build id (<meta name="tcr-build">, and data-build on each widget:
// written by calculators/build.py). Two things can bring another build into a page
// that is open: Material's instant navigation swapping in a page fetched after a deploy,
// and a new service worker taking control. In both cases the page shows "A new version
// is available" with a Reload button; widgets of the other build keep the result they
// were built with and are not bound to this (older) JavaScript.
// Imported by calculators.js before it binds anything, so its document$ subscriber runs
// first on every page swap.

const meta = /** @type {HTMLMetaElement | null} */ (document.querySelector('meta[name="tcr-build"]'));
/** The build this page and its JavaScript came from. */
export const PAGE_BUILD = meta ? meta.content : "";

const other = (/** @type {string | undefined} */ build) => Boolean(build && PAGE_BUILD && build !== PAGE_BUILD);
/** @type {HTMLDivElement | null} */
let banner = null;

/** Show (once) the "new version" notice with its Reload button. */
export function offerReload() {
  if (banner) return;
  banner = document.createElement("div");
  banner.className = "tcr-update";
  banner.setAttribute("role", "status");
  Object.assign(banner.style, {
    position: "fixed", insetInline: "1rem", bottom: "1rem", zIndex: "10", display: "flex",
    gap: "1rem", alignItems: "center", justifyContent: "space-between", padding: ".6rem 1rem",
    maxWidth: "34rem", marginInline: "auto", borderRadius: ".2rem",
    background: "var(--md-default-fg-color, #222)", color: "var(--md-default-bg-color, #fff)",
  });
  const text = document.createElement("span");
  text.textContent = "A new version is available.";
  const button = document.createElement("button");
  button.type = "button";
  button.className = "md-button md-button--primary";
  button.textContent = "Reload";
  button.addEventListener("click", () => {
    button.disabled = true;
    reloadOnceSettled();
  });
  banner.append(text, button);
  document.body.append(banner);
}

/** The longest the Reload button waits for a new service worker to finish taking over. */
const SETTLE_MS = 5000;

/** Reload, but not while this site's newest service worker is still installing or
 * activating: a reload begun while the new worker activates (claiming this tab, clearing
 * the old build's files) was now and then left hanging in Chromium, never committed.
 * Waits at most SETTLE_MS, then reloads anyway. */
async function reloadOnceSettled() {
  try {
    const registration = "serviceWorker" in navigator ? await navigator.serviceWorker.getRegistration() : null;
    const worker = registration && (registration.installing || registration.waiting || registration.active);
    const settled = (/** @type {ServiceWorker} */ w) => w.state === "activated" || w.state === "redundant";
    if (worker && !settled(worker)) {
      await new Promise((resolve) => {
        const check = () => { if (settled(worker)) resolve(undefined); };
        worker.addEventListener("statechange", check);
        setTimeout(resolve, SETTLE_MS);
      });
    }
  } catch { /* no registration to ask: reload at once */ }
  location.reload();
}

function checkForUpdate() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.getRegistration()
    .then((registration) => registration && registration.update())
    .catch(() => { /* offline: checked again on the next page */ });
}

/** Widgets of another build (a page swapped in after a deploy) keep their built result. */
function holdOtherBuilds() {
  const held = [.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-build]"))]
    .filter((el) => other(el.dataset.build));
  for (const root of held) {
    for (const name of ["calculator", "app"]) {
      if (name in root.dataset) {
        root.dataset[`held${name[0].toUpperCase()}${name.slice(1)}`] = root.dataset[name];
        delete root.dataset[name];
      }
    }
    root.dataset.status = "outdated";
    const status = root.querySelector(".calc-status");
    if (status) {
      status.textContent = "A new version of the site is available: reload the page to " +
        "calculate live. The result shown was worked out when the page was built.";
    }
  }
  if (held.length) {
    offerReload();
    checkForUpdate();
  }
}

const material = /** @type {any} */ (window).document$;
if (material && typeof material.subscribe === "function") {
  let first = true;
  material.subscribe(() => {
    holdOtherBuilds();
    if (!first) checkForUpdate(); // a reader moving through the site learns of a deploy
    first = false;
  });
} else {
  holdOtherBuilds();
}

if ("serviceWorker" in navigator) {
  // A service worker of another build has just taken control (it says so when it
  // activates, or when asked after a change of controller).
  navigator.serviceWorker.addEventListener("message", (event) => {
    const data = event.data;
    if (data && data.type === "build" && (data.activated || data.asked) && other(data.build)) offerReload();
  });
  let hadController = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    const controller = navigator.serviceWorker.controller;
    if (hadController && controller) controller.postMessage("build?");
    hadController = true;
  });
  navigator.serviceWorker.startMessages();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") checkForUpdate();
  });
}
