// The head of every page with a calculator or an app runs this inline, before anything
// else loads (pages.py RUNTIME_HEAD; a classic script, covered by the page's CSP hashes).
(() => {
  // 1. The calculation worker starts before the page has loaded: its downloads (Pyodide,
  // the site's snapshot) are most of a first visit's wait on a slow link, and a return
  // visit whose browser keeps this build's snapshot downloads nothing (it starts at once).
  // A return visit sends the start message the last start kept (client.js keepEarlyStart);
  // a first visit the one client.js startMessage would write, from what the build put on
  // the meta tag (pages.py RUNTIME_HEAD: the worker's script from the site's root, the
  // Pyodide version, the bundle's name). The calculators take the worker over when they
  // bind (client.js adoptEarlyWorker, which starts it if it is still waiting for the first
  // paint), or end it if its start message differs from theirs.
  try {
    const meta = document.querySelector('meta[name="tcr-runtime"]');
    const root = new URL(meta.content, location.href);
    let kept = null;
    try { kept = JSON.parse(localStorage.getItem(`tcr:${root.pathname}:runtime-early`) || "null"); } catch { /* storage blocked */ }
    const build = document.querySelector('meta[name="tcr-build"]');
    const first = () => {
      const { worker, pyodide, python: bundle, snapshot: shipped } = meta.dataset;
      if (!worker || !pyodide || !bundle) return null;
      const script = new URL(worker, root);
      const here = new URL("./", script);
      const snapshot = typeof caches === "undefined" ? null
        : { cache: `tcr:${root.pathname}:runtime-snapshot`, key: new URL(`_snapshot/${pyodide}/${bundle}`, root).href };
      return { script: script.href, init: { op: "init", id: 0, pyodide: new URL(`../pyodide/${pyodide}/`, here).href,
        bundle: new URL(bundle, here).href, root: root.href, snapshot,
        shipped: shipped ? new URL(shipped, here).href : null,
        runtimeCache: typeof caches === "undefined" ? null : `tcr:${root.pathname}:files` } };
    };
    const returning = kept && build && kept.build === build.content;
    const start = returning ? kept : first();
    if (start && !document.documentElement.dataset.runtime) {
      const early = { worker: null, launch: null, cancelled: false, returning: Boolean(returning),
        script: start.script, init: start.init, failed: false };
      const launch = () => {
        if (early.worker || early.cancelled) return;
        early.worker = new Worker(start.script, { type: "module" });
        early.worker.onerror = () => { early.failed = true; };
        early.worker.postMessage(start.init);
      };
      early.launch = launch;
      window.__tcrEarlyWorker = early;
      // A return visit downloads nothing: at once. A first visit's downloads would share
      // the link with the stylesheets the page needs to paint: they begin in the frame of
      // its first paint (the browser runs no frame before those are in), or at its load
      // where no frame runs (a tab in the background). Not at the paint's report: that
      // waits for the main thread, which on a slow phone parses the page's HTML for a
      // second more (a phone's first visit was that much longer).
      if (returning) launch();
      else {
        addEventListener("load", launch, { once: true });
        requestAnimationFrame(launch);
      }
    }
  } catch { /* the page starts the worker when its calculators bind */ }

  // 2. The theme's search worker builds its index (about a second of processor time) as
  // the page loads, beside the calculation worker's start. Here it starts once the
  // calculators are live (or have failed), at the reader's first key, tap or focus (a
  // search opened meanwhile gets its worker at once), or after 10 s at the latest; until
  // then the theme talks to a stand-in that keeps its messages and handlers.
  const Native = window.Worker;
  let free = false;
  const waiting = [];
  const release = () => {
    if (free) return;
    free = true;
    waiting.splice(0).forEach((start) => start());
  };
  for (const type of ["pointerdown", "keydown", "focusin"]) addEventListener(type, release, { capture: true, once: true });
  setTimeout(release, Number((window.TCR_RUNTIME_LIMITS || {}).search) || 10000); // tests may lengthen it
  const html = document.documentElement;
  new MutationObserver((_, watcher) => {
    if (html.dataset.runtime !== "ready" && html.dataset.runtime !== "failed") return;
    watcher.disconnect();
    // a task of its own: handing the theme's worker its index (a copy of the whole search
    // index) added to the long task in which the calculators went live
    setTimeout(release, 0);
  }).observe(html, { attributes: true, attributeFilter: ["data-runtime"] });
  const SEARCH = /\/workers\/search\.[^/]*\.js(?:[?#].*)?$/;
  // a listener is one per type, function and capture flag, as the DOM counts them
  const capture = (options) => (typeof options === "boolean" ? options : Boolean(options && options.capture));
  function SearchAware(url, options) {
    if (free || !SEARCH.test(String(url))) return new Native(url, options);
    let real = null;
    let ended = false;
    const messages = [];
    let listeners = [];
    const handlers = {};
    const stand = {
      postMessage(...message) { if (real) real.postMessage(...message); else messages.push(message); },
      addEventListener(...listener) { if (real) real.addEventListener(...listener); else listeners.push(listener); },
      removeEventListener(type, fn, options) {
        if (real) real.removeEventListener(type, fn, options);
        else listeners = listeners.filter(([t, f, o]) => t !== type || f !== fn || capture(o) !== capture(options));
      },
      terminate() { ended = true; if (real) real.terminate(); },
    };
    for (const name of ["onmessage", "onerror", "onmessageerror"]) {
      Object.defineProperty(stand, name, {
        get: () => (real ? real[name] : handlers[name] || null),
        set: (fn) => { if (real) real[name] = fn; else handlers[name] = fn; },
      });
    }
    waiting.push(() => {
      if (ended) return;
      real = new Native(url, options);
      for (const [name, fn] of Object.entries(handlers)) real[name] = fn;
      for (const listener of listeners) real.addEventListener(...listener);
      for (const message of messages) real.postMessage(...message);
    });
    return stand;
  }
  SearchAware.prototype = Native.prototype;
  window.Worker = SearchAware;
})();
