// Make the runtime's first-visit snapshot (run by calculators/bundle.py):
//
//   node calculators/make_snapshot.mjs PYODIDE_DIR BUNDLE_ZIP OUT
//
// Starts the pinned Pyodide as the browser's worker does on a first visit (worker.js,
// start() and makeSnapshot()): the bundle written to the same path and put first on
// sys.path, the runtime module imported, then everything a request can need
// (calculators.runtime.prepare), and writes Python's memory at that point to OUT. A
// browser restores it instead of starting Python itself (a memory snapshot holds no
// files: the worker writes the bundle back, as after restoring its own snapshot).
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
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: pyodideDir + "/", packages: [], _makeSnapshot: true });
// the path worker.js writes the bundle to (BUNDLE_ZIP there)
const zip = "/home/pyodide/rules-bundle.zip";
py.FS.writeFile(zip, new Uint8Array(fs.readFileSync(bundle)));
py.pyimport("sys").path.insert(0, zip);
const runtime = py.pyimport("calculators.runtime");
runtime.prepare();
runtime.destroy();
fs.writeFileSync(out, py.makeMemorySnapshot());
