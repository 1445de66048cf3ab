// Compile the Python bundle for the browser's own Python (run by calculators/bundle.py):
//
//   node calculators/compile_bundle.mjs PYODIDE_DIR SOURCE_ZIP OUT_ZIP
//
// Every .py of the zip becomes the .pyc of the pinned Pyodide's Python (an unchecked
// hash-based pyc, PEP 552, with no source beside it), in the same order with the same
// dates; every other file is copied. The browser then imports the rules without
// compiling their source, which was most of a first start's import time.
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const [pyodideDir, source, out] = process.argv.slice(2);
if (!out) {
  console.error("usage: node calculators/compile_bundle.mjs PYODIDE_DIR SOURCE_ZIP OUT_ZIP");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: pyodideDir + "/" });
py.FS.mkdirTree("/mnt/host");
py.FS.mount(py.FS.filesystems.NODEFS, { root: "/" }, "/mnt/host");
py.globals.set("SOURCE", "/mnt/host" + source);
py.globals.set("OUT", "/mnt/host" + out);
py.runPython(`
import importlib.util, marshal, zipfile

with zipfile.ZipFile(SOURCE) as zin, zipfile.ZipFile(OUT, "w", zipfile.ZIP_DEFLATED) as zout:
    for info in zin.infolist():
        data = zin.read(info)
        if info.filename.endswith(".py"):
            code = compile(data, info.filename, "exec", dont_inherit=True)
            head = importlib.util.MAGIC_NUMBER + (1).to_bytes(4, "little") + importlib.util.source_hash(data)
            info = zipfile.ZipInfo(info.filename + "c", date_time=info.date_time)
            data = head + marshal.dumps(code)
        info.compress_type = zipfile.ZIP_DEFLATED
        zout.writestr(info, data)
`);
