// @ts-check
// Calculator widgets and apps: the entry module every page loads.
// client.js talks to the worker, offline.js handles the offline copy, installed.js
// remembers the page for the app on a phone's home screen. widget.js binds a widget (with
// form.js, which keeps the inputs, and the rest of what a widget shows): a page with a
// widget or an app loads it with the page (widgetpage.js hands it over before
// DOMContentLoaded); one reached by instant navigation has it imported here; a rules page
// moves none of it. Apps (roster, tracker) are modules of their own.
import "./update.js";
import { rememberPage } from "./installed.js";
import { call, configure, currentWorker, onRuntime, runtime, startAfter, stopRefining } from "./client.js";
import { addSaveButton, afterRuntimeStarted, onQuietPage, serviceWorkerControl } from "./offline.js";
import { SITE_ROOT } from "./site.js";
import { watchTopPill } from "./toppill.js";

/** The widgets' module, once a page with a widget or an app has loaded it. */
/** @type {Promise<typeof import("./widget.js")> | null} */
let loadingWidgets = null;
/** @type {typeof import("./widget.js") | null} */
let widgets = null;
function loadWidgets() {
  loadingWidgets ||= widgets ? Promise.resolve(widgets) : import("./widget.js").then((module) => (widgets = module));
  return loadingWidgets;
}

/** widgetpage.js: the widgets' module, loaded with the page (so bindAll need not import it). */
export function useWidgets(/** @type {typeof import("./widget.js")} */ module) {
  widgets = module;
}

/** The widgets' module, for an app (mounted only once it is loaded). */
function ui() {
  if (!widgets) throw new Error("the widgets' module is not loaded");
  return widgets;
}

/** The bridge an app module receives: the same worker and runtime as every widget. */
export const bridge = {
  /** api.run in the worker: resolves to {ok, result, explanation, display, html} or {ok:false, error}. */
  run: (/** @type {HTMLElement} */ root, /** @type {string} */ name, /** @type {unknown} */ inputs) =>
    call("run", name, inputs, root.dataset.uid || root.id),
  /** A whole fight's answers as they sharpen: ``partial`` gets each newer one; resolves to
   * the settled one (for any other calculator, the one answer, as run). */
  refine: (/** @type {HTMLElement} */ root, /** @type {string} */ name, /** @type {unknown} */ inputs,
    /** @type {(reply: import("./protocol.js").Reply) => void} */ partial) =>
    call("run", name, inputs, root.dataset.uid || root.id, partial),
  /** Stop refining the fight ``refine`` asked for (its promise resolves at once with the
   * last answer, marked ``stopped``, or null before the first); a Stop asked before the
   * request reached the worker stops it as soon as it does. */
  stop: (/** @type {HTMLElement} */ root) => stopRefining(root.dataset.uid || root.id),
  /** api.roll in the worker. */
  roll: async (/** @type {HTMLElement} */ root, /** @type {string} */ name, /** @type {unknown} */ inputs) => {
    const reply = await call("roll", name, inputs, root.dataset.uid || root.id);
    if (reply.ok && reply.log) (await import("./sessionlog.js")).record(reply.log); // the session log keeps every roll
    return reply;
  },
  /** Show a status line; status is "prerendered" | "loading" | "ready" | "error". */
  setStatus: (/** @type {HTMLElement} */ root, /** @type {string} */ status, /** @type {string} */ text) =>
    ui().setStatus(root, status, text),
  /** Put the standard "runtime unavailable" message (with Retry) on an app. */
  runtimeFailed: (/** @type {HTMLElement} */ root, /** @type {unknown} */ err) => ui().runtimeFailed(root, err),
  /** The app's start-up failed for want of the runtime: show it as runtimeFailed does, and
   * run ``again`` (the start-up) once the runtime is back (Retry, or the browser online). */
  startUpFailed: (/** @type {HTMLElement} */ root, /** @type {unknown} */ err,
    /** @type {() => unknown} */ again) => {
    ui().runtimeFailed(root, err);
    restarts.set(root, again);
  },
  /** The runtime's state (status, download progress, which start ran). */
  runtime,
  /** The live worker, or null (tests use it to check crash recovery). */
  worker: currentWorker,
};

/** @type {Set<HTMLElement>} */
const apps = new Set();
/** @type {Map<HTMLElement, () => unknown>} apps whose start-up waits for the runtime */
const restarts = new Map();

// The runtime's files go through the service worker, which keeps them as they stream.
startAfter(serviceWorkerControl);

/** Where an app's module is: the template names it (the build rewrites the name to the
 * module's content-hashed file). */
function appModuleUrl(/** @type {HTMLElement} */ root) {
  return new URL(root.dataset.module || "", SITE_ROOT).href;
}

async function mountApp(/** @type {HTMLElement & {_bound?: boolean}} */ root) {
  if (root._bound) return;
  root._bound = true;
  // the address the app was opened with: a link's data in it (a shared roster) is read
  // from here, since Material's anchor tracking may rewrite the "#" part before the app
  // reads it (scrolling while the runtime loads clears it)
  root.dataset.openedAt = window.location.href;
  configure(root);
  apps.add(root);
  try {
    const module = await import(appModuleUrl(root));
    await module.mount(root, bridge);
  } catch (err) {
    console.warn("calculator app:", err);
    ui().runtimeFailed(root, err);
  }
}

onRuntime((event) => {
  if (!widgets) return; // no app on this page yet
  const { hideProgress, runtimeFailed, setStatus, showLoading } = widgets;
  // an app waiting to start shows the runtime's state as a widget does
  for (const root of restarts.keys()) {
    if (!root.isConnected) restarts.delete(root);
    else if (event === "progress" && runtime.status === "loading") showLoading(root);
    else if (event === "failed") runtimeFailed(root, runtime.failure);
  }
  if (event === "ready" && runtime.path) {
    for (const root of [...apps]) {
      const again = restarts.get(root);
      restarts.delete(root);
      if (!root.isConnected) apps.delete(root);
      else if (again) {
        root.classList.remove("calc-offline");
        hideProgress(root);
        Promise.resolve(again()).catch((err) => runtimeFailed(root, err));
      } else if (root.classList.contains("calc-offline")) {
        root.classList.remove("calc-offline");
        setStatus(root, "ready", "Live again: the rules engine is running.");
      }
    }
  }
});

let kept = false;
onRuntime((event) => {
  if (event === "ready" && !kept) {
    kept = true;
    afterRuntimeStarted();
  }
});

function bindAll() {
  rememberPage();
  const calculators = document.querySelectorAll(".calc[data-calculator]");
  const found = document.querySelectorAll(".calc-app[data-app]");
  const bindFound = (/** @type {typeof import("./widget.js")} */ { bind }) => {
    calculators.forEach((el) => bind(/** @type {any} */ (el)));
    found.forEach((el) => mountApp(/** @type {HTMLElement} */ (el)));
  };
  // a page loaded with widgets has the module already (bound before its load event);
  // binding waits for a microtask as it does for a page swapped in by instant navigation,
  // whose address is set after the theme announces the new page
  if (calculators.length || found.length) {
    loadWidgets().then(bindFound, (err) => {
      // offline, on a page whose widget scripts were never saved: the prerendered
      // results stay, and say why nothing more happens
      console.warn("calculators:", err);
      for (const el of /** @type {HTMLElement[]} */ ([...calculators, ...found])) {
        el.dataset.status = "error";
        const status = el.querySelector(".calc-status");
        if (status) status.textContent = "The calculator's scripts could not be loaded (offline?). Reload the page to try again.";
      }
    });
  }
  addSaveButton();
  watchTopPill();
}

// A page without a calculator, once loaded and settled: the service worker, nothing more.
window.addEventListener("load", () => setTimeout(() => {
  if (document.querySelector(".calc[data-calculator], .calc-app[data-app]")) return;
  onQuietPage();
}, 3000), { once: true });

const material = /** @type {any} */ (window).document$;
if (material && typeof material.subscribe === "function") {
  material.subscribe(bindAll);
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", bindAll);
} else {
  bindAll();
}
