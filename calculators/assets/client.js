// @ts-check
// The page's side of the calculation worker: starts it, sends requests, watches it.
// One worker for the whole visit (instant navigation keeps it). A start that fails is
// never kept: the next request, Retry or the browser coming back online starts afresh.
import { SITE_ROOT, scopedKey } from "./site.js";
import { PAGE_BUILD } from "./update.js";

/** @typedef {import("./protocol.js").ToWorker} ToWorker */
/** @typedef {import("./protocol.js").FromWorker} FromWorker */
/** @typedef {import("./protocol.js").StartedReply} StartedReply */
/** @typedef {import("./protocol.js").FailureKind} FailureKind */
/** @typedef {import("./protocol.js").Reply} Reply */

/** The user stopped a calculation (Cancel): the worker was ended on purpose. */
export class Cancelled extends Error {}

/** The runtime could not start, or stopped: ``kind`` picks the plain message shown. */
export class RuntimeFailure extends Error {
  /** @param {FailureKind | "stalled" | "hung"} kind @param {string} detail */
  constructor(kind, detail) {
    super(detail);
    this.kind = kind;
  }
}

/** Limits (ms); tests may lower them with `globalThis.TCR_RUNTIME_LIMITS`. */
function limits() {
  const own = /** @type {any} */ (globalThis).TCR_RUNTIME_LIMITS || {};
  return {
    stall: Number(own.stall) || 20_000, // no download progress for this long: give up
    starting: Number(own.starting) || 240_000, // files in but Python not started
    hang: Number(own.hang) || 60_000, // one calculation (every calculator is bounded)
  };
}

/** What the page can show about the runtime; widgets subscribe with {@link onRuntime}. */
export const runtime = {
  /** @type {"idle" | "loading" | "ready" | "failed"} */
  status: "idle",
  /** @type {"download" | "start"} */
  phase: "download",
  loaded: 0,
  total: 0,
  /** @type {RuntimeFailure | null} */
  failure: null,
  /** @type {"snapshot" | "shipped" | "cold" | null} */
  path: null,
  /** @type {Record<string, number>} ms from the worker's start to each start-up step */
  timings: {},
};

/** @typedef {"progress" | "ready" | "failed" | "crashed"} RuntimeEvent */
/** @type {Set<(event: RuntimeEvent) => void>} */
const listeners = new Set();

/** Call ``fn`` on every runtime event; returns the unsubscribe function. */
export function onRuntime(/** @type {(event: RuntimeEvent) => void} */ fn) {
  listeners.add(fn);
  return () => { listeners.delete(fn); };
}

/** @param {RuntimeEvent} event */
function emit(event) {
  const html = document.documentElement.dataset;
  html.runtime = runtime.status;
  if (runtime.path) html.runtimeStart = runtime.path;
  listeners.forEach((fn) => fn(event));
}

/** @type {{pyodide: string, bundle: string, snapshot: string, bytes: number} | null} */
let source = null;
/** @type {() => Promise<unknown>} what a start does before the worker starts */
let beforeStart = () => Promise.resolve();

/** Set what a start does first (registering the service worker). */
export function startAfter(/** @type {() => Promise<unknown>} */ fn) {
  beforeStart = fn;
}

/** Where the runtime lives, from the first widget's data attributes (same on every page). */
export function configure(/** @type {HTMLElement} */ el) {
  if (source || !el.dataset.pyodide || !el.dataset.bundle) return;
  source = { pyodide: el.dataset.pyodide, bundle: el.dataset.bundle, snapshot: el.dataset.snapshot || "",
    bytes: Number(el.dataset.runtimeBytes) || 0 };
}

/** @type {Worker | null} */
let worker = null;
/** @type {Promise<StartedReply> | null} */
let ready = null;
let seq = 0;
/** @typedef {{resolve: (m: any) => void, reject: (e: Error) => void, timed: boolean, timer?: number,
 *   partial?: (reply: Reply) => void}} Pending */
/** @type {Map<number, Pending>} */
const pending = new Map();

/** Resolves once the page has loaded and the main thread is idle: a start the page's head
 * did not begin waits for it (pages.py RUNTIME_HEAD starts the worker before the page has
 * loaded, on a first visit too, at its first paint: its downloads are most of a first
 * visit's wait on a slow link). */
const pageIdle = new Promise((resolve) => {
  const idle = () => ("requestIdleCallback" in window ? requestIdleCallback(resolve, { timeout: 2000 }) : setTimeout(resolve, 0));
  if (document.readyState === "complete") idle();
  else window.addEventListener("load", idle, { once: true });
});

/** What the head of a page with calculators needs to start the runtime at once on a
 * return visit (see {@link adoptEarlyWorker}), kept while this build's snapshot is. */
const EARLY = scopedKey("runtime-early");

/** Where this build's snapshot is kept (null where there is no Cache Storage). */
function snapshotPlace() {
  if (!source || typeof caches === "undefined") return null;
  const bundleName = source.bundle.slice(source.bundle.lastIndexOf("/") + 1);
  return { cache: scopedKey("runtime-snapshot"), key: new URL(`_snapshot/${source.pyodide}/${bundleName}`, SITE_ROOT).href };
}

/** The site's first-visit snapshot, beside the bundle it was made from (the build names it:
 * calculators/layout.py snapshot_name), or null where the page names none. */
function shippedSnapshot(/** @type {URL} */ here) {
  if (!source || !source.snapshot) return null;
  return new URL(source.snapshot, here).href;
}

/** The worker's script, and the start message for this page's runtime. */
function startMessage() {
  if (!source) return null;
  const here = new URL("./", import.meta.url);
  /** @type {import("./protocol.js").InitRequest} */
  const init = {
    op: "init", id: 0, pyodide: new URL(`../pyodide/${source.pyodide}/`, here).href,
    bundle: new URL(source.bundle, here).href, root: SITE_ROOT.href, snapshot: snapshotPlace(),
    shipped: shippedSnapshot(here), runtimeCache: typeof caches === "undefined" ? null : scopedKey("files"),
  };
  return { script: new URL("worker.js", import.meta.url).href, init };
}

/** Keep (or, with false, forget) what a return visit needs to start at once: only while
 * this build's snapshot is kept, so that an early start never downloads anything. */
function keepEarlyStart(/** @type {boolean} */ keep) {
  try {
    // the build this JavaScript (and so the worker's script) came from
    const start = keep && PAGE_BUILD ? startMessage() : null;
    if (start && start.init.snapshot) localStorage.setItem(EARLY, JSON.stringify({ build: PAGE_BUILD, ...start }));
    else localStorage.removeItem(EARLY);
  } catch {
    /* storage blocked: every start waits for the page */
  }
}

/** @typedef {{worker: Worker | null, launch: () => void, cancelled: boolean, returning: boolean,
 *   script: string, init: object, failed: boolean}} EarlyWorker */

/** The worker the head of the page started or is about to start (pages.py RUNTIME_HEAD: an
 * inline script, before anything else loads; on a return visit from what
 * {@link keepEarlyStart} kept, at once; on a first visit from what the build wrote on its
 * meta tag, at the page's first paint), started now if it was waiting; or null. Taken
 * once; one that failed or was started differently from this page's runtime is ended (or
 * never started), and the normal start runs. */
function adoptEarlyWorker() {
  const own = /** @type {any} */ (window);
  /** @type {EarlyWorker | undefined} */
  const early = own.__tcrEarlyWorker;
  delete own.__tcrEarlyWorker;
  if (!early) return null;
  const start = startMessage();
  if (early.failed || !start || early.script !== start.script ||
      JSON.stringify(early.init) !== JSON.stringify(start.init)) {
    early.cancelled = true;
    early.worker?.terminate();
    return null;
  }
  early.launch();
  if (!early.worker) return null;
  document.documentElement.dataset.runtimeEarly = "yes";
  // a return visit's files are kept (its progress so far went unheard): starting, not
  // downloading, until it says otherwise; a first visit's are downloading
  runtime.phase = early.returning ? "start" : "download";
  return early.worker;
}

/** Start the runtime (once; after the page is idle, unless the page's head started it;
 * nothing waits for the service worker to take control); resolves when Python is ready.
 * A failure is not kept. */
export function start() {
  if (ready) return ready;
  runtime.status = "loading";
  runtime.phase = "download";
  runtime.loaded = runtime.total = 0;
  runtime.failure = null;
  emit("progress");
  // a worker the page's head started early is under way: nothing to wait for
  const started = "__tcrEarlyWorker" in window;
  const attempt = (started ? Promise.resolve() : pageIdle).then(() => beforeStart()).then(launch, launch);
  ready = attempt;
  attempt.catch((err) => {
    if (ready === attempt) ready = null;
    if (err instanceof Cancelled) return;
    runtime.status = "failed";
    runtime.failure = err instanceof RuntimeFailure ? err : new RuntimeFailure("broken", String(err));
    emit("failed");
  });
  return attempt;
}

function launch() {
  const start = startMessage();
  if (!start) return Promise.reject(new RuntimeFailure("broken", "no calculator on this page"));
  // the early worker already has this start message: a second one is answered when the
  // same start ends (the worker starts once)
  const w = adoptEarlyWorker() || new Worker(start.script, { type: "module" });
  worker = w;
  w.onmessage = (event) => receive(w, event.data);
  w.onerror = (event) => {
    event.preventDefault();
    const kind = runtime.status === "ready" ? "crashed" : navigator.onLine ? "broken" : "offline";
    replace(w, new RuntimeFailure(kind, event.message || "the worker failed"));
  };
  watch(w);
  return /** @type {Promise<StartedReply>} */ (request(w, start.init, false)).then((started) => {
    clearTimeout(watchdog);
    runtime.status = "ready";
    runtime.path = started.path;
    runtime.timings = started.timings;
    // keep the snapshot this start makes once the calculators have been quiet a moment
    if (started.snapshotReady) {
      lastCall = performance.now();
      whenQuiet(() => saveSnapshot(w));
    }
    // from the snapshot: the next visit can start as early (written afresh, in case what
    // was kept no longer matched); else none was kept, or it was dropped: not until saved
    keepEarlyStart(started.path === "snapshot");
    emit("ready");
    return started;
  }, (err) => {
    // a worker whose start failed is never reused: the next start gets a new one
    clearTimeout(watchdog);
    w.terminate();
    if (worker === w) worker = null;
    throw err;
  });
}

let watchdog = 0;

/** Give up on a start that makes no progress: no bytes for `stall` ms while downloading. */
function watch(/** @type {Worker} */ w) {
  clearTimeout(watchdog);
  if (worker !== w || runtime.status !== "loading") return;
  const downloading = runtime.phase === "download";
  watchdog = window.setTimeout(() => {
    replace(w, new RuntimeFailure(downloading ? "stalled" : "broken",
      downloading ? "no download progress" : "Python did not start"));
  }, downloading ? limits().stall : limits().starting);
}

/** @param {Worker} w @param {FromWorker} message */
function receive(w, message) {
  if (worker !== w) return;
  if (message.kind === "progress") {
    runtime.phase = message.phase;
    runtime.loaded = message.loaded;
    // a compressed download's decoded size is unknown to the worker: the build's own figure
    runtime.total = message.total || (message.phase === "download" && source ? source.bytes : 0);
    watch(w);
    emit("progress");
    return;
  }
  const entry = pending.get(message.id);
  if (!entry) return;
  if (message.kind === "begun" || message.kind === "partial") {
    // a calculation that runs past the hang limit (every calculator is bounded; a whole
    // fight being refined sends an answer every few slices) means the worker is stuck:
    // it is replaced
    if (entry.timed) {
      clearTimeout(entry.timer);
      entry.timer = window.setTimeout(
        () => replace(w, new RuntimeFailure("hung", "a calculation did not finish")), limits().hang);
    }
    if (message.kind === "partial") entry.partial?.(message.reply);
    return;
  }
  pending.delete(message.id);
  clearTimeout(entry.timer);
  if (message.kind === "failed") {
    console.warn(`calculator runtime: ${message.failed}: ${message.detail}`);
    const failure = new RuntimeFailure(message.failed, message.detail);
    if (message.failed === "crashed") replace(w, failure);
    else entry.reject(failure);
  } else {
    entry.resolve(message);
  }
}

/**
 * Send one request; resolves with the worker's answer. ``timed``: a calculation, which
 * replaces the worker when it runs longer than the hang limit (timed from the moment the
 * worker begins it: waiting behind other calculations on a slow device never counts).
 * @param {Worker} w @param {ToWorker} message @param {boolean} timed
 * @param {((reply: Reply) => void) | undefined} [partial]  each newer answer of a whole fight
 */
function request(w, message, timed, partial = undefined) {
  const id = ++seq;
  return new Promise((resolve, reject) => {
    /** @type {Pending} */
    const entry = { resolve, reject, timed, partial };
    pending.set(id, entry);
    w.postMessage({ ...message, id });
  });
}

/** End a worker that failed; every waiting request gets ``failure``. A worker that was
 * live is started again at once, so the next change finds it ready. */
function replace(/** @type {Worker} */ w, /** @type {Error} */ failure) {
  if (worker !== w) return;
  const wasReady = runtime.status === "ready";
  w.terminate();
  worker = null;
  ready = null;
  clearTimeout(watchdog);
  pending.forEach((entry) => { clearTimeout(entry.timer); entry.reject(failure); });
  pending.clear();
  if (failure instanceof Cancelled) {
    runtime.status = "idle";
    emit("progress");
    return;
  }
  if (wasReady) {
    runtime.status = "idle";
    emit("crashed");
    start().catch(() => {});
  }
  // a start that failed: its rejected promise reaches start(), which reports it
}

/** Stop the running calculation (the worker is ended); the next request starts a fresh one. */
export function cancel() {
  if (worker) replace(worker, new Cancelled("the calculation was cancelled"));
}

/** Try again after a failed start (the Retry button, the browser coming back online). */
export function retry() {
  if (runtime.status === "failed" || runtime.status === "idle") start().catch(() => {});
}

window.addEventListener("online", () => { if (runtime.status === "failed") retry(); });

/**
 * ``api.run`` / ``api.roll`` in the worker, starting it if needed.
 * @param {"run" | "roll" | "compare"} op @param {string} name @param {unknown} inputs @param {string} uid
 * @param {((reply: Reply) => void) | undefined} [partial]  run: a whole fight's answers as
 *   they sharpen, each given here; the promise resolves with the settled (or stopped) one
 * @returns {Promise<Reply>}
 */
export async function call(op, name, inputs, uid, partial = undefined) {
  return refiningRequest(uid, { op, id: 0, name, inputs, uid, refine: Boolean(partial) }, partial);
}

/** A Stop asked for while its widget's request was still waiting to be sent (the worker
 * starting, or a start under way): kept by widget id and sent right after the request, so
 * that the worker never gets a Stop before the fight it stops (and refines that fight to
 * its end while the widget's newer inputs wait). One ticket per request. */
/** @type {Map<string, {stop: boolean}>} */
const unsent = new Map();

/** Send a request of widget ``uid`` once the worker is ready, and a Stop asked for meanwhile
 * right after it. @param {string} uid @param {ToWorker} message
 * @param {((reply: Reply) => void) | undefined} partial @returns {Promise<Reply>} */
async function refiningRequest(uid, message, partial) {
  lastCall = performance.now();
  const ticket = { stop: false };
  unsent.set(uid, ticket);
  try {
    await start();
  } finally {
    if (unsent.get(uid) === ticket) unsent.delete(uid);
  }
  const w = /** @type {Worker} */ (worker);
  const answered = request(w, message, true, partial);
  if (ticket.stop && partial) w.postMessage({ op: "stop", id: 0, uid });
  const reply = (await answered).reply;
  lastCall = performance.now();
  return reply;
}

/** Stop refining widget ``uid``'s whole fight: its call answers at once with the last
 * answer, marked ``stopped`` (nothing happens when none is being refined). A request of the
 * widget's not yet sent is stopped as soon as it is. */
export function stopRefining(/** @type {string} */ uid) {
  const waiting = unsent.get(uid);
  if (waiting) waiting.stop = true;
  if (worker && runtime.status === "ready") worker.postMessage({ op: "stop", id: 0, uid });
}

/** Go on refining widget ``uid``'s stopped fight; resolves like {@link call} (null when
 * the worker kept none: ask again). */
export async function keepRefining(/** @type {string} */ uid, /** @type {(reply: Reply) => void} */ partial) {
  return refiningRequest(uid, { op: "resume", id: 0, uid }, partial);
}

/** Background work waits until no calculation was asked for or answered this long. */
const QUIET_MS = 1000;
/** ...but never longer than this (a reader who edits without a pause for a minute). */
const QUIET_MAX_MS = 60_000;
let lastCall = 0;

/** Run ``fn`` once the calculators have been quiet for a second and the page is idle:
 * background work (keeping the snapshot, the offline copy) never slows a reader's edits. */
export function whenQuiet(/** @type {() => void} */ fn) {
  const until = performance.now() + QUIET_MAX_MS;
  const check = () => {
    const wait = Math.min(lastCall + QUIET_MS, until) - performance.now();
    if (wait > 0) {
      setTimeout(check, wait);
    } else if ("requestIdleCallback" in window) {
      window.requestIdleCallback(fn, { timeout: 5000 });
    } else {
      fn();
    }
  };
  check();
}

/** Ask the worker to keep its start-up snapshot (the next visit starts from it). */
function saveSnapshot(/** @type {Worker} */ w) {
  if (worker !== w) return;
  request(w, { op: "save-snapshot", id: 0 }, false).then((reply) => {
    document.documentElement.dataset.runtimeSnapshot = reply.saved ? "saved" : `not saved: ${reply.reason}`;
    if (reply.saved) keepEarlyStart(true);
  }, () => {});
}

/** The live worker (tests use it to check crash recovery). */
export function currentWorker() {
  return worker;
}
