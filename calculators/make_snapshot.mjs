// Make the runtime's first-visit snapshot (run by calculators/bundle.py):
//
//   node calculators/make_snapshot.mjs PYODIDE_DIR BUNDLE_ZIP OUT
//
// Starts the pinned Pyodide as the browser's worker does on a first visit (worker.js,
// start() and makeSnapshot()): the bundle written to the same path and put first on
// sys.path, then everything a request can need imported and the rest dropped
// (calculators.lean.prepare_snapshot), and writes Python's memory at that point to OUT,
// made small for the download (bundle.py gzips it):
//
// - the memory no allocation holds is zeroed (the allocator's free space keeps whatever
//   was last written there; zeros compress to nothing);
// - the memory's first part (the WebAssembly's data, written by the module itself when it
//   is instantiated, much of it unchanged since) is stored XORed with what a new instance
//   holds there: the worker XORs it back with its own new instance (worker.js, fitMemory).
//
// A browser restores it instead of starting Python itself (a memory snapshot holds no
// files; the worker writes no zip either: calculators.lean.LateFiles downloads them if an
// import ever needs them).
import fs from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, bundle, out] = process.argv.slice(2);
if (!out) {
  console.error("usage: node calculators/make_snapshot.mjs PYODIDE_DIR BUNDLE_ZIP OUT");
  process.exit(2);
}
// what Emscripten gives Python as its program's name: the browser's, not this build's path
process.argv[1] = "./this.program";

/** The memory of the new instance, as the module's own data segments leave it. */
let pristine = null;
const keep = (result) => {
  const instance = result.instance || result;
  const memory = Object.values(instance.exports).find((e) => e instanceof WebAssembly.Memory);
  if (memory && !pristine) pristine = new Uint8Array(memory.buffer).slice();
  return result;
};
for (const name of ["instantiate", "instantiateStreaming"]) {
  const native = WebAssembly[name].bind(WebAssembly);
  WebAssembly[name] = (...args) => native(...args).then(keep);
}

const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: pyodideDir + "/", packages: [], _makeSnapshot: true });
// the path worker.js writes the bundle to (BUNDLE_ZIP there)
const zip = "/home/pyodide/rules-bundle.zip";
py.FS.writeFile(zip, new Uint8Array(fs.readFileSync(bundle)));
py.pyimport("sys").path.insert(0, zip);
const lean = py.pyimport("calculators.lean");
lean.prepare_snapshot();
lean.destroy();

// Zero the free memory: take every free block the allocator has (largest first, never
// growing the memory: a footprint limit makes it refuse instead), zero it, give it back;
// and zero the memory past the allocator's end.
const M = py._module;
M._malloc_set_footprint_limit(M._malloc_footprint());
const taken = [];
for (let size = 1 << 24; size >= 8; size >>= 1) {
  for (let at = M._malloc(size); at; at = M._malloc(size)) {
    M.HEAPU8.fill(0, at, at + size);
    taken.push(at);
  }
}
taken.forEach((at) => M._free(at));
M._malloc_set_footprint_limit(0xffffffff);
const end = M.HEAPU32[M._emscripten_get_sbrk_ptr() >> 2];
M.HEAPU8.fill(0, end, M.HEAPU8.length);

const snapshot = py.makeMemorySnapshot();
if (!pristine) {
  console.error("make_snapshot: the WebAssembly's instance was not seen");
  process.exit(1);
}
const header = new DataView(snapshot.buffer, snapshot.byteOffset, 8).getUint32(4, true);
const memory = snapshot.subarray(header);
const n = Math.min(memory.length, pristine.length);
for (let i = 0; i < n; i++) memory[i] ^= pristine[i];
fs.writeFileSync(out, snapshot);
