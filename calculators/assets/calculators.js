// Calculator widgets: bind forms, keep inputs in the URL, compute in one Pyodide worker.
// Every value from the URL or the user is treated as text, never as markup.
import "./update.js";
const HERE = new URL("./", import.meta.url);
const SITE_ROOT = new URL("../../", HERE);

let worker = null;
let ready = null;
let seq = 0;
const pending = new Map();
const progressListeners = new Set();

const BUSY_AFTER_MS = 150;

class Cancelled extends Error {}

/** End the worker (a long calculation is abandoned); the next call starts a fresh one. */
function restartWorker() {
  if (worker) worker.terminate();
  worker = null;
  ready = null;
  const error = new Cancelled("the calculation was cancelled");
  pending.forEach((entry) => entry.reject(error));
  pending.clear();
}

const CONTROL_WAIT_MS = 1000;

/** Register the service worker and wait (briefly) until it controls the page, so the
 * runtime's downloads pass through it and are kept for offline use as they stream. */
function serviceWorkerControl() {
  if (!("serviceWorker" in navigator) || !/^https?:$/.test(location.protocol)) {
    return Promise.resolve(false);
  }
  if (navigator.serviceWorker.controller) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (value) => { clearTimeout(timer); resolve(value); };
    const timer = setTimeout(() => done(false), CONTROL_WAIT_MS);
    navigator.serviceWorker.addEventListener("controllerchange", () => done(true), { once: true });
    registerServiceWorker().catch(() => done(false));
  });
}

/** After the first result: precache the pages; keep the runtime if it bypassed the worker. */
function afterRuntimeStarted(wasControlled) {
  if (!("serviceWorker" in navigator)) return;
  registerServiceWorker()
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => {
      if (!registration.active) return;
      registration.active.postMessage("precache");
      if (!wasControlled) registration.active.postMessage("keep-runtime");
    })
    .catch(() => {});
}

function startWorker(root) {
  if (ready) return ready;
  ready = serviceWorkerControl().then((controlled) => launchWorker(root, controlled));
  return ready;
}

function launchWorker(root, controlled) {
  const pyodide = new URL(`../pyodide/${root.dataset.pyodide}/`, HERE).href;
  const bundle = new URL(root.dataset.bundle, HERE).href;
  worker = new Worker(new URL("worker.js", import.meta.url), { type: "module" });
  worker.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "progress") {
      progressListeners.forEach((fn) => fn(message.text));
      return;
    }
    const entry = pending.get(message.id);
    if (!entry) return;
    pending.delete(message.id);
    if (message.failed) entry.reject(new Error(message.failed));
    else entry.resolve(message);
  };
  worker.onerror = (event) => {
    event.preventDefault();
    const error = new Error(event.message || "the calculation worker could not start");
    pending.forEach((entry) => entry.reject(error));
    pending.clear();
  };
  const started = send({ op: "init", pyodide, bundle, root: SITE_ROOT.href });
  started.then(() => afterRuntimeStarted(controlled), () => {});
  return started;
}

function send(message) {
  const id = ++seq;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage(JSON.stringify({ ...message, id }));
  });
}

async function call(root, op, inputs) {
  await startWorker(root);
  const message = await send({ op, name: root.dataset.calculator, inputs, uid: root.dataset.uid });
  return message.reply;
}

// ---- form state ---------------------------------------------------------------

function fields(root) {
  return [...root.querySelectorAll(".calc-field")];
}

function control(field) {
  return field.querySelector("input, select");
}

function readValue(field, overrides) {
  const name = field.dataset.field;
  if (name in overrides) return overrides[name];
  const el = control(field);
  const kind = field.dataset.kind;
  if (kind === "bool") return el.checked;
  const text = el.value.trim();
  if (text === "") return field.hasAttribute("data-optional") || kind === "choice" ? null : "";
  const whole = /^[-+]?\d+$/.test(text);
  if ((kind === "int" || (kind === "choice" && field.hasAttribute("data-numeric"))) && whole) {
    return parseInt(text, 10);
  }
  if (kind === "number" && /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) return Number(text);
  return text;
}

function updateVisibility(root) {
  const values = {};
  for (const field of fields(root)) {
    const cond = field.dataset.shownIf ? JSON.parse(field.dataset.shownIf) : null;
    if (cond) field.hidden = !cond[1].includes(values[cond[0]] ?? null);
    values[field.dataset.field] = field.hidden ? null : readValue(field, root._overrides);
  }
}

function collect(root) {
  updateVisibility(root);
  const inputs = {};
  for (const field of fields(root)) {
    if (field.hidden) continue;
    const value = readValue(field, root._overrides);
    if (value !== null) inputs[field.dataset.field] = value;
  }
  return inputs;
}

function prefix(root) {
  return `${root.dataset.uid}.`;
}

function writeUrl(root) {
  const url = new URL(window.location.href);
  for (const key of [...url.searchParams.keys()]) {
    if (key.startsWith(prefix(root))) url.searchParams.delete(key);
  }
  const inputs = collect(root);
  for (const [name, value] of Object.entries(inputs)) {
    url.searchParams.set(prefix(root) + name, String(value));
  }
  history.replaceState(history.state, "", url);
  return url;
}

function applyValues(root, values) {
  root._overrides = {};
  for (const field of fields(root)) {
    const name = field.dataset.field;
    const el = control(field);
    const value = values[name];
    if (field.dataset.kind === "bool") {
      // a field the values leave out (hidden by shown_if) goes back to its starting value
      el.checked = value === undefined ? el.defaultChecked : value === true || value === "true";
    } else if (el.tagName === "SELECT") {
      const text = value === undefined || value === null ? "" : String(value);
      if ([...el.options].some((o) => o.value === text)) el.value = text;
      else root._overrides[name] = text; // sent as received: the core names the problem
    } else {
      const text = value === undefined ? el.defaultValue : value === null ? "" : String(value);
      el.value = text;
      // A number box drops text it cannot hold: send what the link said, so the core
      // can name the problem instead of complaining about an empty value.
      if (el.value !== text) root._overrides[name] = text;
    }
  }
  updateVisibility(root);
}

function urlValues(root) {
  const params = new URLSearchParams(window.location.search);
  const values = {};
  let any = false;
  for (const [key, value] of params) {
    if (key.startsWith(prefix(root))) {
      values[key.slice(prefix(root).length)] = value.slice(0, 2000);
      any = true;
    }
  }
  return any ? values : null;
}

// ---- display ------------------------------------------------------------------

function setStatus(root, status, text) {
  root.dataset.status = status;
  const el = root.querySelector(".calc-status");
  if (el) el.textContent = text;
}

function clearErrors(root) {
  delete root.dataset.errorField;
  for (const el of root.querySelectorAll(".calc-error")) {
    el.hidden = true;
    el.textContent = "";
  }
  for (const el of root.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
}

function showError(root, error) {
  // A nested field ("attacker.4", "members.2.cqb") is shown next to its top-level input.
  const byName = (name) => root.querySelector(`.calc-field[data-field="${CSS.escape(name)}"]`);
  const field = byName(error.field) || byName(String(error.field).split(".")[0]);
  const target = field ? field.querySelector(".calc-error") : root.querySelector(".calc-form-error");
  const label = field && field.dataset.field === error.field ? "" : `${error.field}: `;
  target.textContent = label + error.message;
  target.hidden = false;
  if (field) control(field).setAttribute("aria-invalid", "true");
  root.dataset.errorField = error.field;
  root.querySelector(".calc-result").classList.add("calc-stale");
  setStatus(root, "error", "Check the highlighted input; the result below is from the last valid inputs.");
}

function showBusy(root, busy) {
  const button = root.querySelector('[data-action="cancel"]');
  if (busy && root.dataset.status !== "loading") {
    root.dataset.busy = "true";
    root.setAttribute("aria-busy", "true");
    if (button) button.hidden = false;
    setStatus(root, root.dataset.status, "Working it out…");
  } else if (!busy) {
    delete root.dataset.busy;
    root.removeAttribute("aria-busy");
    if (button) button.hidden = true;
  }
}

function runtimeFailed(root, err) {
  setStatus(root, "error",
    "Live calculation is unavailable: the Python runtime could not be loaded (" +
    String(err && err.message ? err.message : err) +
    "). The result shown was worked out when the page was built.");
  root.classList.add("calc-offline");
}

// ---- computing ----------------------------------------------------------------

async function compute(root) {
  if (root._busy) {
    root._dirty = true;
    return;
  }
  root._busy = true;
  root._dirty = false;
  const inputs = collect(root);
  let reply;
  const busyTimer = setTimeout(() => showBusy(root, true), BUSY_AFTER_MS);
  try {
    reply = await call(root, "run", inputs);
  } catch (err) {
    root._busy = false;
    clearTimeout(busyTimer);
    showBusy(root, false);
    if (err instanceof Cancelled) {
      root.querySelector(".calc-result").classList.add("calc-stale");
      setStatus(root, "error", "Calculation cancelled. Change an input to calculate again.");
    } else {
      runtimeFailed(root, err);
    }
    return;
  }
  root._busy = false;
  clearTimeout(busyTimer);
  showBusy(root, false);
  if (root._dirty) return compute(root);
  clearErrors(root);
  if (!reply.ok) {
    showError(root, reply.error);
  } else {
    const result = root.querySelector(".calc-result");
    result.innerHTML = reply.html; // built by calculators/render.py, which escapes every value
    result.classList.remove("calc-stale");
    setStatus(root, "ready", "Worked out live in your browser.");
  }
  root.dispatchEvent(new CustomEvent("calc:result", { detail: reply }));
}

function historyKey(root) {
  return `calc-history:${root.dataset.calculator}`;
}

function loadHistory(root) {
  try {
    const items = JSON.parse(localStorage.getItem(historyKey(root)) || "[]");
    return Array.isArray(items) ? items.filter((i) => typeof i === "string") : [];
  } catch {
    return [];
  }
}

function showHistory(root) {
  const list = root.querySelector(".calc-history ol");
  if (!list) return;
  const items = loadHistory(root);
  list.replaceChildren(...items.map((text) => {
    const li = document.createElement("li");
    li.textContent = text;
    return li;
  }));
  root.querySelector(".calc-history-count").textContent = String(items.length);
}

async function roll(root) {
  let reply;
  try {
    reply = await call(root, "roll", collect(root));
  } catch (err) {
    runtimeFailed(root, err);
    return;
  }
  clearErrors(root);
  if (!reply.ok) {
    showError(root, reply.error);
    return;
  }
  root.querySelector(".calc-roll-current").innerHTML = reply.html; // escaped by render.py
  const items = [reply.result.summary, ...loadHistory(root)].slice(0, 50);
  try {
    localStorage.setItem(historyKey(root), JSON.stringify(items));
  } catch {
    /* storage full or blocked: the history is only shown for this page view */
  }
  showHistory(root);
  root.querySelector(".calc-history").open = true;
}

function bind(root) {
  if (root._bound) return;
  root._bound = true;
  root._path = location.pathname;
  root._overrides = {};
  const initial = JSON.parse(root.dataset.initial);
  const fromUrl = urlValues(root);
  if (fromUrl) applyValues(root, { ...initial, ...fromUrl });
  const onChange = (event) => {
    // A widget of a page being left (instant navigation: the address changes before the
    // old page's inputs are removed, and a blur can still fire) must not touch the new page.
    if (!root.isConnected || location.pathname !== root._path) return;
    const field = event.target.closest(".calc-field");
    if (field) delete root._overrides[field.dataset.field];
    writeUrl(root);
    compute(root);
  };
  root.querySelector(".calc-form").addEventListener("input", onChange);
  root.querySelector(".calc-form").addEventListener("change", onChange);
  root.querySelector(".calc-form").addEventListener("submit", (e) => e.preventDefault());
  root.addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-action]");
    if (!button) return;
    const action = button.dataset.action;
    if (action === "roll") roll(root);
    if (action === "cancel") restartWorker();
    if (action === "reset") {
      applyValues(root, initial);
      writeUrl(root);
      compute(root);
    }
    if (action === "share") {
      const url = writeUrl(root);
      try {
        await navigator.clipboard.writeText(url.href);
        setStatus(root, root.dataset.status, "Link copied: it opens this calculator with these inputs.");
      } catch {
        setStatus(root, root.dataset.status, `Share this link: ${url.href}`);
      }
    }
    if (action === "clear-history") {
      localStorage.removeItem(historyKey(root));
      showHistory(root);
    }
  });
  showHistory(root);
  const listener = (text) => {
    if (root.dataset.status === "loading") setStatus(root, "loading", text);
  };
  progressListeners.add(listener);
  setStatus(root, "loading", "Starting live calculation…");
  compute(root).finally(() => progressListeners.delete(listener));
}

// ---- apps: tools with their own module (roster builder, trackers) -------------

/** The bridge an app module receives: the same worker and runtime as every widget. */
export const bridge = {
  /** api.run in the worker: resolves to {ok, result, explanation, display, html} or {ok:false, error}. */
  run: (root, name, inputs) => callNamed(root, "run", name, inputs),
  /** api.roll in the worker. */
  roll: (root, name, inputs) => callNamed(root, "roll", name, inputs),
  /** Show a status line; status is "prerendered" | "loading" | "ready" | "error". */
  setStatus: (root, status, text) => {
    root.dataset.status = status;
    const el = root.querySelector(".calc-status");
    if (el) el.textContent = text;
  },
  /** Put the standard "runtime unavailable" message on an app. */
  runtimeFailed: (root, err) => runtimeFailed(root, err),
};

async function callNamed(root, op, name, inputs) {
  await startWorker(root);
  const message = await send({ op, name, inputs, uid: root.dataset.uid || root.id });
  return message.reply;
}

async function mountApp(root) {
  if (root._bound) return;
  root._bound = true;
  try {
    const module = await import(new URL(root.dataset.module, SITE_ROOT).href);
    await module.mount(root, bridge);
  } catch (err) {
    runtimeFailed(root, err);
  }
}

function bindAll() {
  document.querySelectorAll(".calc[data-calculator]").forEach(bind);
  document.querySelectorAll(".calc-app[data-app]").forEach(mountApp);
}

let registration = null;

function registerServiceWorker() {
  if (!("serviceWorker" in navigator) || !/^https?:$/.test(location.protocol)) {
    return Promise.reject(new Error("no service worker here"));
  }
  registration = registration || navigator.serviceWorker.register(
    new URL("sw.js", SITE_ROOT).href, { scope: SITE_ROOT.href });
  return registration;
}

// On a page without a calculator: once the page has loaded and settled, register and
// precache the site for offline reading (no runtime is fetched).
window.addEventListener("load", () => setTimeout(() => {
  if (document.querySelector(".calc[data-calculator], .calc-app[data-app]")) return;
  registerServiceWorker()
    .then(() => navigator.serviceWorker.ready)
    .then((reg) => reg.active && reg.active.postMessage("precache"))
    .catch(() => { /* no offline copy; the site works online as before */ });
}, 3000), { once: true });

if (window.document$ && typeof window.document$.subscribe === "function") {
  window.document$.subscribe(bindAll);
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", bindAll);
} else {
  bindAll();
}
