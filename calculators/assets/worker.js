// @ts-check
// One Web Worker hosts Pyodide and the rules core for the whole visit.
// The messages it takes and sends are declared in protocol.js.
//
// Start-up: the runtime's files are fetched at once (progress is reported as they stream)
// and the WebAssembly compiles as it arrives (on a first visit it arrives packed, and is
// unpacked here as it comes: precompile).
// Warm start: a memory snapshot of a previous start (Python with the rules already
// imported), kept in Cache Storage under this build's Pyodide version and bundle hash,
// is restored instead of starting Python from scratch. Anything wrong with it (stale,
// damaged, refused) drops it and the normal start runs; that start makes a new snapshot
// as it ends, which the page asks us to keep once its calculators are quiet.
// First visit: with no snapshot kept yet, the site's own (made by the build in Node from
// the same bundle, calculators/make_snapshot.mjs) is downloaded and restored, and kept
// as this browser's; if it cannot be had or is refused, the normal start runs.
// A start from a snapshot downloads neither the standard library's zip nor the bundle
// (the snapshot holds every module a request imports: calculators/lean.py); should an
// import ever find nothing, both are fetched then (tcrLoadRuntimeFiles).

/** @typedef {import("./protocol.js").ToWorker} ToWorker */
/** @typedef {import("./protocol.js").FromWorker} FromWorker */
/** @typedef {import("./protocol.js").StartConfig} StartConfig */
/** @typedef {import("./protocol.js").SnapshotPlace} SnapshotPlace */
/** @typedef {import("./protocol.js").FailureKind} FailureKind */

const scope = /** @type {{postMessage(m: FromWorker): void, fetch: typeof fetch,
  onmessage: ((e: MessageEvent<ToWorker>) => void) | null}} */ (/** @type {unknown} */ (self));

/** The bundle is imported from the zip itself (zipimport): no unpacking. */
const BUNDLE_ZIP = "/home/pyodide/rules-bundle.zip";
const CHECKSUM_HEADER = "x-tcr-checksum";
/** A runtime file that did not arrive whole. */
class LoadFailure extends Error {
  /** @param {FailureKind} kind @param {string} detail */
  constructor(kind, detail) {
    super(detail);
    this.kind = kind;
  }
}

/** @param {FromWorker} message */
function post(message) {
  scope.postMessage(message);
}

/** ms from the worker's start to each start-up step (reported with the start) */
/** @type {Record<string, number>} */
const timings = {};
function mark(/** @type {string} */ name) {
  timings[name] = Math.round(performance.now());
}

// ---- downloads, with progress ---------------------------------------------------

/** @type {Map<string, {loaded: number, total: number, done: boolean}>} */
const files = new Map();
let lastReport = 0;
/** @type {(err: LoadFailure) => void} */
let downloadFailed = () => {};
/** Rejects when any runtime file fails (Pyodide itself waits forever on a failed .wasm). */
const downloadFailure = new Promise((_, reject) => { downloadFailed = reject; });
downloadFailure.catch(() => {});

function report(force = false) {
  const now = Date.now();
  if (!force && now - lastReport < 100) return;
  lastReport = now;
  let loaded = 0;
  let total = 0;
  let done = true;
  let known = true;
  for (const file of files.values()) {
    loaded += file.total ? Math.min(file.loaded, file.total) : file.loaded;
    total += file.total || file.loaded;
    done &&= file.done;
    known &&= file.done || file.total > 0;
  }
  if (!known) total = 0; // a total that grows as files answer would jump about
  post({ kind: "progress", phase: done ? "start" : "download", loaded: Math.round(loaded), total });
}

/** {file name: [its bytes, its bytes as a host that compresses it sends them]} for the
 * runtime's files, written in by the build (calculators/build.py); null in a bare copy. */
/** @type {Record<string, [number, number]> | null} */
const SIZES = /*@RUNTIME_SIZES@*/null;

/** {file name: {packed: the name of the file packed (Zstandard), hash: the file's content
 * hash, as the service worker's manifest lists it}} for the runtime's files a first visit
 * downloads packed (the WebAssembly), written in by the build (calculators/bundle.py
 * packed_runtime_files); null in a bare copy, which downloads every file as it is. */
/** @type {Record<string, {packed: string, hash: string}> | null} */
const PACKED = /*@PACKED_RUNTIME@*/null;

/** A response's length in bytes moved (its total; 0 when unknown) and how many bytes moved
 * for each byte its stream gives: a compressed response's stream gives decoded bytes, which
 * count at the ratio the build measured, so that the progress counts what really moves. */
function measure(/** @type {string} */ url, /** @type {Response} */ response) {
  const length = Number(response.headers.get("content-length")) || 0;
  const encoding = (response.headers.get("content-encoding") || "identity").toLowerCase();
  if (encoding === "identity") return { total: length, scale: 1 };
  const sizes = SIZES && SIZES[url.slice(url.lastIndexOf("/") + 1)];
  if (!sizes) return { total: 0, scale: 1 }; // decoded bytes: the page knows their total
  return { total: length || sizes[1], scale: sizes[1] / sizes[0] };
}

/** A response's length in the bytes its stream gives, when that is what moves. */
function knownTotal(/** @type {Response} */ response) {
  return measure("", response).total;
}

/** Count a response's bytes as they stream (on a copy: the original stays untouched, so
 * WebAssembly compiles it as it arrives and the browser can keep its compiled code). */
function track(/** @type {string} */ url, /** @type {Response} */ response) {
  const file = files.get(url) || { loaded: 0, total: 0, done: false };
  files.set(url, file);
  if (!response.ok) {
    const failure = new LoadFailure("http", `HTTP ${response.status} for ${url}`);
    downloadFailed(failure);
    throw failure;
  }
  const { total, scale } = measure(url, response);
  file.total = total;
  report(true);
  const body = response.clone().body;
  if (!body) {
    file.done = true;
    return response;
  }
  const reader = body.getReader();
  (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        file.loaded += value.byteLength * scale;
        report();
      }
    } catch (err) {
      downloadFailed(new LoadFailure("truncated", `${url} ended early (${err})`));
      return;
    }
    if (file.total) file.loaded = file.total;
    file.done = true;
    report(true);
  })();
  return response;
}

const nativeFetch = scope.fetch.bind(self);
/** @type {Map<string, Promise<Response>>} */
const early = new Map();

/** @param {string} url */
function fetchTracked(url) {
  files.set(url, files.get(url) || { loaded: 0, total: 0, done: false });
  return nativeFetch(url).then((response) => track(url, response), (err) => {
    const failure = new LoadFailure("offline", `${url}: ${err}`);
    downloadFailed(failure);
    throw failure;
  });
}

/** Fetch a file now; Pyodide's own request for it gets this response. */
function prefetch(/** @type {string} */ url) {
  const response = fetchTracked(url);
  response.catch(() => {});
  early.set(url, response);
}

// Pyodide fetches its files with the global fetch: hand it the prefetched responses.
scope.fetch = /** @type {typeof fetch} */ ((input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input), self.location.href).href;
  const ready = early.get(url);
  if (ready) {
    early.delete(url);
    return ready;
  }
  if (url === wasmUrl) return Promise.resolve(new Response(null)); // compiled already (precompile)
  if (url === noStdlibUrl) return Promise.resolve(new Response(EMPTY_ZIP));
  if (url.startsWith("blob:") || url.startsWith("data:")) return nativeFetch(input, init);
  return fetchTracked(url);
});

// ---- snapshots --------------------------------------------------------------------

/** A 64-bit checksum of the whole snapshot and its length (two FNV-style lanes over its
 * 32-bit words): it catches damage to any part of it. Not SHA-256: it is only a check
 * against accidental damage, and it sits on the warm start's path (about 20 ms for 31 MB
 * here, against 70-300 ms for crypto.subtle's SHA-256 of the same bytes). */
function checksum(/** @type {Uint8Array} */ bytes) {
  if (bytes.byteOffset % 4) bytes = bytes.slice(); // 32-bit words need an aligned start
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 2);
  let a = 0x811c9dc5 | 0;
  let b = 0x9747b28c | 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    a = Math.imul(a ^ w, 16777619);
    b = Math.imul(b ^ w, 0x5bd1e995) ^ (b >>> 15);
  }
  for (let i = words.length << 2; i < bytes.length; i++) a = Math.imul(a ^ bytes[i], 16777619);
  const hex = (/** @type {number} */ n) => (n >>> 0).toString(16).padStart(8, "0");
  return `${hex(a)}${hex(b)}-${bytes.length}`;
}

/** A kept snapshot whose bytes do not match the checksum stored with them. */
class Damaged extends Error {}

/**
 * This build's snapshot; other builds' snapshots are deleted. ``bytes`` resolves once the
 * bytes are checked whole against their stored checksum (rejects with {@link Damaged}):
 * Pyodide loads its JavaScript meanwhile, and the restore waits for the check.
 * @param {SnapshotPlace} place
 * @returns {Promise<{bytes: Promise<Uint8Array> | null, dropped?: string}>}
 */
async function readSnapshot(place) {
  try {
    const cache = await caches.open(place.cache);
    const response = await cache.match(place.key);
    if (!response) return { bytes: null, dropped: await dropStale(cache, place.key) ? "stale" : undefined };
    dropStale(cache, place.key); // another build's snapshot, if any, goes off the start's path
    const expected = response.headers.get(CHECKSUM_HEADER);
    const bytes = response.arrayBuffer().then(async (buffer) => {
      const view = new Uint8Array(buffer);
      mark("snapshotRead");
      if (expected !== checksum(view)) throw new Damaged("damaged");
      mark("snapshotChecked");
      return view;
    });
    bytes.catch(() => {});
    return { bytes };
  } catch (err) {
    return { bytes: null, dropped: `unreadable (${err})` };
  }
}

/** Delete every snapshot in ``cache`` but ``key`` (another build's); true if any was. */
async function dropStale(/** @type {Cache} */ cache, /** @type {string} */ key) {
  let dropped = false;
  try {
    for (const request of await cache.keys()) {
      if (request.url !== key) dropped = await cache.delete(request) || dropped;
    }
  } catch {
    /* tried again at the next start */
  }
  return dropped;
}

async function dropSnapshot(/** @type {SnapshotPlace} */ place) {
  try {
    await (await caches.open(place.cache)).delete(place.key);
  } catch {
    /* nothing kept, nothing to drop */
  }
}

/** The snapshot made at the end of a normal start (Python idle, every module imported,
 * memory as it was when Python started: a snapshot of a grown memory cannot be restored,
 * pyodide/pyodide#6254); kept in Cache Storage when the page asks. */
/** @type {Uint8Array | null} */
let made = null;
/** @type {SnapshotPlace | null} */
let place = null;

/** Keep the snapshot made at the start in Cache Storage (the page asks once its
 * calculators are quiet: see client.js whenQuiet).
 * @returns {Promise<{saved: boolean, reason?: string}>} */
async function saveSnapshot() {
  const bytes = made;
  made = null;
  if (!bytes || !place) return { saved: false, reason: "no snapshot for this start" };
  try {
    const estimate = await navigator.storage?.estimate?.();
    if (estimate && estimate.quota !== undefined && estimate.usage !== undefined &&
        estimate.quota - estimate.usage < 2 * bytes.length) {
      return { saved: false, reason: "not enough storage" };
    }
    const headers = { "content-type": "application/octet-stream", [CHECKSUM_HEADER]: checksum(bytes) };
    await (await caches.open(place.cache)).put(place.key, new Response(/** @type {BodyInit} */ (bytes), { headers }));
    return { saved: true };
  } catch (err) {
    await dropSnapshot(place);
    return { saved: false, reason: String(err && /** @type {Error} */ (err).name) };
  }
}

/** The decoder of the files the build packs (Zstandard: unpack.js; 8 KB), asked for with the
 * first such download and only then: a return visit that keeps its runtime never loads it. */
/** @type {Promise<typeof import("./unpack.js")> | null} */
let decoder = null;

/**
 * Download a file the build packed, counted for the progress (its packed bytes: those that
 * move), and unpack it as it arrives.
 * @param {string} url
 * @param {(part: Uint8Array) => void} [unpacked]  given each part as it is unpacked (unpack.js)
 * @returns {Promise<Uint8Array>} rejects with a LoadFailure: "offline" or "http" when it cannot
 * be had, "truncated" when it ends early, "broken" when its bytes do not unpack
 */
async function fetchPacked(url, unpacked) {
  const file = { loaded: 0, total: 0, done: false };
  files.set(url, file);
  if (!decoder) {
    decoder = import("./unpack.js"); // asked for beside the file
    decoder.catch(() => {});
  }
  let response;
  try {
    response = await nativeFetch(url);
  } catch (err) {
    throw new LoadFailure("offline", `${url}: ${err}`);
  }
  if (!response.ok || !response.body) throw new LoadFailure("http", `HTTP ${response.status} for ${url}`);
  file.total = knownTotal(response);
  const body = response.body.getReader();
  // the download has ended (its last byte read, or its connection failed): a frame that
  // fails to unpack then was cut off; before then, its bytes are damaged
  let ended = false;
  const reader = {
    read: () => body.read().then((read) => {
      ended ||= read.done;
      return read;
    }, (err) => {
      ended = true;
      throw err;
    }),
  };
  let unpackFrame;
  try {
    ({ unpackFrame } = await decoder);
  } catch (err) {
    body.cancel().catch(() => {});
    throw new LoadFailure("offline", `the decoder for ${url}: ${err}`);
  }
  try {
    const bytes = await unpackFrame(reader, url, (read) => {
      file.loaded += read;
      report();
    }, unpacked);
    file.done = true;
    report(true);
    return bytes;
  } catch (err) {
    body.cancel().catch(() => {});
    if (ended) throw new LoadFailure("truncated", `${url} ended early (${err})`);
    throw new LoadFailure("broken", `${url} did not unpack (${err})`);
  }
}

/** The site's first-visit snapshot, downloaded and unpacked block by block as it arrives.
 * Its failure (a download cut short, bytes that do not unpack) is not the start's: the
 * normal start runs instead. */
async function fetchShipped(/** @type {string} */ url) {
  try {
    const bytes = await fetchPacked(url);
    mark("shippedRead");
    return bytes;
  } catch (err) {
    files.delete(url); // its bytes no longer count: the progress is the normal start's
    report(true);
    throw new Error(/** @type {Error} */ (err).message, { cause: err }); // not a LoadFailure: not the start's
  }
}

// ---- the WebAssembly, compiled as it downloads -----------------------------------

/** Pyodide's WebAssembly module, compiled from the moment the worker starts (while the
 * snapshot is read and Pyodide's JavaScript loads); Pyodide's own instantiation takes it
 * (once or, after a refused snapshot, twice: a module is instantiated any number of times). */
/** @type {Promise<WebAssembly.Module> | null} */
let wasmModule = null;
let wasmUrl = "";
/** Streaming compilation is there (every current engine has it; the fallback fetches ahead). */
const streaming = typeof WebAssembly.compileStreaming === "function" &&
  typeof WebAssembly.instantiateStreaming === "function";
const nativeInstantiateStreaming = streaming ? WebAssembly.instantiateStreaming.bind(WebAssembly) : null;
if (nativeInstantiateStreaming) {
  WebAssembly.instantiateStreaming = async (source, imports) => {
    if (!wasmModule) return nativeInstantiateStreaming(source, imports);
    const module = await wasmModule;
    const instance = await WebAssembly.instantiate(module, imports);
    mark("instantiated");
    fitMemory(instance);
    unmask(instance);
    return { module, instance };
  };
}

/** Bytes of memory the snapshot being restored holds (0 on a normal start). */
let restoring = 0;
/** The site's snapshot being restored: its memory's first part is stored XORed with a
 * new instance's (calculators/make_snapshot.mjs); null otherwise. */
/** @type {Uint8Array | null} */
let masked = null;

/** XOR the site's snapshot back with the new instance's memory (its data, below the heap),
 * before Pyodide copies the snapshot over it. */
function unmask(/** @type {WebAssembly.Instance} */ instance) {
  const bytes = masked;
  masked = null;
  if (!bytes) return;
  const exports = /** @type {Record<string, any>} */ (instance.exports);
  const memory = Object.values(exports).find((e) => e instanceof WebAssembly.Memory);
  if (!memory) return;
  const start = bytes.byteOffset + new DataView(bytes.buffer, bytes.byteOffset, 8).getUint32(4, true);
  const base = exports.__heap_base instanceof WebAssembly.Global ? Number(exports.__heap_base.value) : Infinity;
  const words = Math.floor(Math.min(base, memory.buffer.byteLength, bytes.byteOffset + bytes.length - start) / 4);
  if (start % 4 || words <= 0) return; // not a snapshot this worker reads: Pyodide refuses it
  const into = new Uint32Array(bytes.buffer, start, words);
  const fresh = new Uint32Array(memory.buffer, 0, words);
  for (let i = 0; i < words; i++) into[i] ^= fresh[i];
}

/** Pyodide restores a snapshot into a memory of the module's own starting size (30 MiB):
 * a snapshot made after the memory grew does not fit ("offset is out of bounds",
 * pyodide/pyodide#6254). Grow the new instance's memory to the snapshot's size before
 * Pyodide looks at it; the restore overwrites every byte. */
function fitMemory(/** @type {WebAssembly.Instance} */ instance) {
  if (!restoring) return;
  const memory = Object.values(instance.exports).find((e) => e instanceof WebAssembly.Memory);
  if (!memory) return;
  const missing = Math.ceil((restoring - memory.buffer.byteLength) / 65536);
  if (missing > 0) memory.grow(missing);
}

/** The memory a snapshot holds: its bytes after the header (whose length is its second word). */
function snapshotMemory(/** @type {Uint8Array} */ bytes) {
  return bytes.byteLength - new DataView(bytes.buffer, bytes.byteOffset, 8).getUint32(4, true);
}

/** Compile the WebAssembly: as the site's service worker keeps it, read from Cache Storage
 * here (not through the service worker: on a return visit Firefox compiles it afresh,
 * with no code kept from the last visit, and that compile is the start's longest part,
 * so it begins at once); else downloaded (progress counted; packed on a first visit:
 * unpackedSource). Pyodide's request for the
 * file gets an empty answer, its instantiation the compiled module. */
function precompile(/** @type {string} */ url) {
  if (!streaming) {
    prefetch(url);
    return;
  }
  wasmUrl = url;
  // a first visit downloads the file packed where the build packed it (and streams exist)
  const packed = PACKED && typeof ReadableStream === "function" ? PACKED[url.slice(url.lastIndexOf("/") + 1)] : null;
  const download = packed ? new URL(packed.packed, url).href : url;
  // counted in the progress from the start (its total not yet known), unless it is kept
  files.set(download, files.get(download) || { loaded: 0, total: 0, done: false });
  wasmModule = compileKept(url).then((module) => {
    if (module) {
      files.delete(download);
      return module;
    }
    return WebAssembly.compileStreaming(packed ? unpackedSource(url, download, packed.hash) : fetchTracked(url));
  });
  wasmModule.then(() => mark("wasmCompiled"), () => {});
  // a download that fails is reported by its own failure; a file that arrives whole but
  // does not compile would leave Pyodide waiting for ever: it fails the start
  wasmModule.catch((err) => downloadFailed(new LoadFailure("broken", `${url} did not compile (${err})`)));
}

/** The service worker's cache of the runtime's files (sw.js FILES; from the start message),
 * or null where there is no Cache Storage. */
/** @type {string | null} */
let runtimeCache = null;

/**
 * The WebAssembly's response to compile on a visit that does not keep it (a first visit):
 * the packed file (2.8 MB against 3.5 MB gzipped), unpacked into the stream WebAssembly
 * compiles as it arrives; once whole, the unpacked file is kept where the service worker
 * looks for it (keepUnpacked), so that it never downloads the file itself.
 * @param {string} url  the file's
 * @param {string} packedUrl  the packed file's
 * @param {string} hash  the file's content hash, as the service worker's manifest lists it
 * @returns {Response}
 */
function unpackedSource(url, packedUrl, hash) {
  mark("wasmPacked");
  /** @type {ReadableStreamDefaultController<Uint8Array>} */
  let into;
  const stream = new ReadableStream({ start(controller) { into = controller; } });
  // each part copied: the stream's reader may hold on to what it is given
  const bytes = fetchPacked(packedUrl, (part) => into.enqueue(part.slice()));
  bytes.then((whole) => {
    mark("wasmUnpacked");
    try {
      into.close();
    } catch {
      /* the compilation stopped reading (it failed): its own failure fails the start */
    }
    keepUnpacked(url, whole, hash).catch(() => {});
  }, (err) => {
    downloadFailed(err); // the start's failure (Pyodide itself would wait for ever)
    into.error(err);
  });
  return new Response(stream, { headers: { "content-type": "application/wasm" } });
}

/** Keep the WebAssembly a first visit unpacked in the service worker's cache of the
 * runtime's files, as the service worker would keep it (sw.js keepRuntime, which then
 * fetches only the files its cache lacks): the file is never downloaded twice. Only where
 * that cache is there (made by the service worker as it activates, which on a first visit
 * may come after the download: looked for a while; never where there is no service
 * worker), and only bytes whose hash is the build's. */
async function keepUnpacked(/** @type {string} */ url, /** @type {Uint8Array} */ bytes, /** @type {string} */ hash) {
  const name = runtimeCache;
  if (!name || typeof caches === "undefined") return;
  for (let tries = 0; !(await caches.has(name)); tries++) {
    if (tries === 120) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", /** @type {Uint8Array<ArrayBuffer>} */ (bytes)));
  const hex = [...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
  if (hex !== hash) return;
  const cache = await caches.open(name); // (replacing a kept copy that did not compile)
  const headers = { "content-type": "application/wasm", "content-length": String(bytes.length), "x-tcr-hash": hex };
  await cache.put(url, new Response(/** @type {BodyInit} */ (bytes), { status: 200, headers }));
}

/** The WebAssembly compiled from the copy the service worker keeps; null when none is
 * kept (or it does not compile: the download is compiled instead). */
async function compileKept(/** @type {string} */ url) {
  try {
    const kept = await caches.match(url);
    return kept && kept.ok ? await WebAssembly.compileStreaming(kept) : null;
  } catch {
    return null;
  }
}

// ---- the runtime's files, late ---------------------------------------------------

/** A zip with no file in it: the standard library Pyodide writes on a start from a
 * snapshot, which has imported everything it needs. */
const EMPTY_ZIP = new Uint8Array([0x50, 0x4b, 5, 6, ...new Array(18).fill(0)]);
let noStdlibUrl = "";
/** Where the standard library's zip and the bundle are downloaded from, if ever needed. */
let lateFiles = { stdlib: "", bundle: "" };

/** Download (synchronously: Python waits in an import) the standard library's zip and the
 * bundle, and write them where Python's path expects them; called by calculators/lean.py
 * (LateFiles) the first time an import finds nothing after a start from a snapshot.
 * null when Python is not running yet (it may ask again), false when they could not be had. */
/** @param {string} stdlibPath */
function loadRuntimeFiles(stdlibPath) {
  if (!py || !lateFiles.stdlib) return null;
  try {
    for (const [url, path] of [[lateFiles.stdlib, stdlibPath], [lateFiles.bundle, BUNDLE_ZIP]]) {
      const request = new XMLHttpRequest();
      request.open("GET", url, false);
      request.responseType = "arraybuffer";
      request.send();
      if (request.status !== 200) return false;
      py.FS.writeFile(path, new Uint8Array(request.response));
    }
    return true;
  } catch {
    return false;
  }
}
/** @type {any} */ (self).tcrLoadRuntimeFiles = loadRuntimeFiles;

// ---- start-up ---------------------------------------------------------------------

/** @type {any} */
let py = null;
/** @type {((request: string) => string) | null} */
let handle = null;
/** The runtime's functions for answers that sharpen (calculators/runtime.py). */
/** @type {any} */
let refiner = null;

/** @param {StartConfig} config */
async function start(config) {
  mark("init");
  const base = config.pyodide;
  place = config.snapshot;
  runtimeCache = config.runtimeCache;
  // Pyodide's JavaScript first: its module, then its Emscripten module (1.2 MB), which it
  // imports only once its own is in and the configuration read (the same URL: Pyodide's
  // import gets this module). They are the start's critical path; the snapshot is needed
  // next, the compiled WebAssembly after that.
  const module = import(base + "pyodide.mjs");
  module.catch(() => {});
  import(base + "pyodide.asm.mjs").then(() => mark("asmImported"), () => {});
  const reading = place ? readSnapshot(place) : Promise.resolve({ bytes: null, dropped: undefined });
  // the site's own snapshot counts in the progress from the start, its size not yet known
  // (so the total is the build's): without it the other files' totals would make a whole
  // and reach 100% while the kept snapshot is still being looked for
  if (config.shipped) files.set(config.shipped, { loaded: 0, total: 0, done: false });
  // the files every start needs (their sizes give the progress total)
  precompile(base + "pyodide.asm.wasm");
  prefetch(base + "pyodide-lock.json");
  lateFiles = { stdlib: base + "python_stdlib.zip", bundle: config.bundle };
  noStdlibUrl = base + "no-stdlib.zip";
  /** The standard library and the bundle: a normal start's (a snapshot holds them). */
  /** @type {Promise<ArrayBuffer> | null} */
  let bundle = null;
  const normalFiles = () => {
    if (bundle) return bundle;
    prefetch(lateFiles.stdlib);
    bundle = fetchTracked(config.bundle).then((r) => r.arrayBuffer());
    bundle.catch(() => {});
    return bundle;
  };
  const stored = await reading;
  if (stored.bytes && config.shipped) {
    files.delete(config.shipped); // one is kept here: the site's own is not downloaded
    report(true);
  }
  // none kept here yet: the site's own, while Pyodide's JavaScript loads (only where the
  // WebAssembly compiles as it downloads: its first part is restored with a new instance)
  // (and not over a connection that asks to save data: a normal start moves fewer bytes)
  const saveData = Boolean(/** @type {any} */ (navigator).connection?.saveData);
  const shipped = !stored.bytes && config.shipped && streaming && !saveData ? fetchShipped(config.shipped) : null;
  shipped?.catch(() => {});
  if (!stored.bytes && !shipped) {
    if (config.shipped) files.delete(config.shipped);
    normalFiles();
  }
  let loadPyodide;
  try {
    ({ loadPyodide } = await module);
  } catch (err) {
    throw new LoadFailure("offline", `pyodide.mjs: ${err}`);
  }
  mark("imported");
  /** @param {object} options */
  const load = (options) => Promise.race([
    loadPyodide({ indexURL: base, packages: [], ...options }), downloadFailure]);
  /** @type {"snapshot" | "shipped" | "cold"} */
  let path = "cold";
  let dropped = stored.dropped;
  const snapshot = stored.bytes || shipped;
  if (snapshot) {
    try {
      // Pyodide loads its JavaScript while the snapshot's bytes are read and checked
      const bytes = snapshot.then((got) => {
        restoring = snapshotMemory(got);
        if (!stored.bytes) {
          masked = got; // restored in place as the instance is made (unmask)
          made = got; // kept as this browser's own, once the page is quiet
        }
        return got;
      });
      bytes.catch(() => {}); // a failure is the catch below's, whenever Pyodide awaits it
      py = await load({ _loadSnapshot: bytes, stdLibURL: noStdlibUrl });
      path = stored.bytes ? "snapshot" : "shipped";
    } catch (err) {
      restoring = 0;
      masked = null;
      made = null;
      if (err instanceof LoadFailure) throw err;
      if (stored.bytes && place) {
        dropped = err instanceof Damaged ? "damaged" : `refused (${err})`;
        await dropSnapshot(place);
      } else {
        dropped = `the site's snapshot: ${err}`;
      }
      py = null;
    }
  }
  if (!py) {
    const zip = normalFiles();
    py = await load({ _makeSnapshot: Boolean(place) });
    mark("pyodide");
    py.FS.writeFile(BUNDLE_ZIP, new Uint8Array(await Promise.race([zip, downloadFailure])));
  } else {
    mark("pyodide");
  }
  report(true);
  // The worker runs no Python source: it calls the runtime module (calculators/runtime.py).
  // A restored memory has every module a request imports, and no file (the zips come if
  // an import ever needs them: loadRuntimeFiles); a normal start imports the runtime (the
  // rules core's interface and the renderer: what every request needs) from the zip, and
  // a system's calculators come with its first request (rules_core.catalog.find).
  if (path === "cold") py.pyimport("sys").path.insert(0, BUNDLE_ZIP);
  const runtime = py.pyimport("calculators.runtime");
  if (path !== "cold") runtime.restored();
  runtime.configure(config.root);
  handle = runtime.handle;
  refiner = { begin: runtime.begin, advance: runtime.advance, pause: runtime.pause, resume: runtime.resume };
  mark("rules");
  snapshotDue = path === "cold" && Boolean(place);
  const snapshotReady = snapshotDue || (path === "shipped" && Boolean(place));
  return { path, dropped, snapshotReady, timings: { ...timings } };
}

/** A normal start makes its snapshot (memory as Python started, every system imported)
 * as soon as it has said it is ready, before any calculation: the page goes live without
 * waiting for it, and no request runs in between (they wait for this task to end). */
let snapshotDue = false;

function makeSnapshot() {
  if (!snapshotDue) return;
  snapshotDue = false;
  try {
    // every system, the dice engine, the Markdown parser: a restored runtime has them all
    // (and no file: calculators/lean.py)
    py.pyimport("calculators.lean").prepare_snapshot();
    made = py.makeMemorySnapshot();
  } catch (err) {
    console.warn(`calculator runtime: no snapshot (${err})`);
  }
}

/** @type {Promise<Omit<import("./protocol.js").StartedReply, "id" | "kind">> | null} */
let starting = null;

/** @param {unknown} err @returns {FailureKind} */
function kindOf(err) {
  if (err instanceof LoadFailure) return err.kind;
  return "broken";
}

scope.onmessage = async (/** @type {MessageEvent<ToWorker>} */ event) => {
  const message = event.data;
  if (message.op === "init") {
    starting = starting || start(message);
    try {
      const started = await starting;
      post({ kind: "started", id: message.id, ...started });
      makeSnapshot();
    } catch (err) {
      post({ kind: "failed", id: message.id, failed: kindOf(err), detail: String(err) });
    }
    return;
  }
  if (message.op === "save-snapshot") {
    post({ kind: "saved", id: message.id, ...await saveSnapshot() });
    return;
  }
  try {
    await starting;
  } catch (err) {
    post({ kind: "failed", id: message.id, failed: kindOf(err), detail: String(err) });
    return;
  }
  if (message.op === "stop" || message.op === "resume") {
    steer(/** @type {import("./protocol.js").SteerRequest} */ (message));
    return;
  }
  const call = /** @type {import("./protocol.js").CallRequest} */ (message);
  let out;
  post({ kind: "begun", id: message.id });
  try {
    const request = { op: message.op, name: call.name, inputs: call.inputs, uid: call.uid };
    if (call.refine && (call.op === "run" || call.op === "compare")) {
      // a new setup: the widget's earlier fight is given up, its request answered
      const earlier = refining.get(call.uid);
      if (earlier) {
        refining.delete(call.uid);
        post({ kind: "result", id: earlier.id, reply: earlier.last && { ...earlier.last, stopped: true } });
      }
      const started = JSON.parse(refiner.begin(JSON.stringify(request)));
      if (started.refining) {
        refining.set(call.uid, { id: message.id, last: null });
        pump();
        return;
      }
      out = JSON.stringify(started);
    } else {
      out = /** @type {(r: string) => string} */ (handle)(JSON.stringify(request));
    }
  } catch (err) {
    // handle() answers every request, bad ones included: an exception here means Python
    // itself failed (a fatal error); this worker cannot be trusted any more.
    post({ kind: "failed", id: message.id, failed: "crashed", detail: String(err) });
    return;
  }
  post({ kind: "result", id: message.id, reply: JSON.parse(out) });
};

// ---- answers that sharpen ---------------------------------------------------------
// A whole fight is refined in slices of Python (SLICE_S each), one widget's after
// another's; between slices the worker returns to its event loop, so that a new setup,
// Stop or another widget's request is taken within one slice.

/** Seconds of Python per slice. */
const SLICE_S = 0.15;
/** The fights being refined, by widget id: the request they answer and the last reply. */
/** @type {Map<string, {id: number, last: any}>} */
const refining = new Map();
let pumping = false;

/** Let queued messages in (a zero-delay task that is not clamped as timers are). */
function nextTask() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve(undefined);
    channel.port2.postMessage(null);
  });
}

async function pump() {
  if (pumping) return;
  pumping = true;
  try {
    while (refining.size) {
      for (const [uid, entry] of [...refining]) {
        if (refining.get(uid) !== entry) continue;
        let out;
        try {
          out = JSON.parse(refiner.advance(uid, SLICE_S));
        } catch (err) {
          refining.delete(uid);
          post({ kind: "failed", id: entry.id, failed: "crashed", detail: String(err) });
          continue;
        }
        if (out.reply) entry.last = out.reply;
        if (out.done) {
          refining.delete(uid);
          post({ kind: "result", id: entry.id, reply: entry.last });
        } else if (out.reply) {
          post({ kind: "partial", id: entry.id, reply: out.reply });
        }
        await nextTask();
      }
    }
  } finally {
    pumping = false;
  }
}

/** Stop a widget's refinement (its request is answered with the last reply, marked
 * stopped), or go on with one stopped (answered as a new request). */
function steer(/** @type {import("./protocol.js").SteerRequest} */ message) {
  if (message.op === "stop") {
    const entry = refining.get(message.uid);
    if (!entry) return;
    refining.delete(message.uid);
    refiner.pause(message.uid);
    post({ kind: "result", id: entry.id, reply: entry.last && { ...entry.last, stopped: true } });
    return;
  }
  if (refiner.resume(message.uid)) {
    refining.set(message.uid, { id: message.id, last: null });
    pump();
  } else {
    post({ kind: "result", id: message.id, reply: null });
  }
}
