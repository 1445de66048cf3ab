// The rules_core tests inside Pyodide (the pinned npm package) under Node: the browser's
// Python version and build run the same tests as CPython. No network: pytest and its
// pure-Python dependencies are copied from the project's virtual environment.
//
//   node tests/pyodide/run_rules_core.mjs --claims FOLDER <site-packages> <wheels> [pytest args...]
//   Several processes given the same empty FOLDER share the tests as they go, each running
//   the next one no other has claimed (make test-pyodide: one process a core); one alone
//   runs them all. <wheels> holds pure-Python wheels for what the venv has only compiled
//   (Hypothesis ships a mypyc build for CPython; its pure wheel runs here).
import { loadPyodide } from "pyodide";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const args = process.argv.slice(2);
const USAGE = "usage: node tests/pyodide/run_rules_core.mjs --claims FOLDER <site-packages> <wheels> [pytest args]";
// --claims FOLDER (a folder of the project, empty, shared by every process running at
// once): each process runs the next test no other has claimed (see Claims below)
if (args[0] !== "--claims" || !args[1]) {
  console.error(USAGE);
  process.exit(2);
}
const claims = args[1];
args.splice(0, 2);
const [sitePackages, wheels, ...pytestArgs] = args;
// pure-Python packages the tests need (pytest, Hypothesis and theirs; the core's icepool)
const PACKAGES = [
  "pytest", "_pytest", "py.py", "pluggy", "iniconfig", "packaging", "pygments",
  "sortedcontainers", "icepool",
  // what the worker's Python side (calculators.runtime) renders with, as the browser bundle ships it
  "markdown_it", "mdurl",
  // the rule-link test reads heading anchors as the site's Markdown makes them
  "markdown",
];

function copyInto(FS, from, to) {
  if (fs.statSync(from).isDirectory()) {
    FS.mkdirTree(to);
    for (const name of fs.readdirSync(from)) {
      if (name === "__pycache__") continue;
      copyInto(FS, path.join(from, name), `${to}/${name}`);
    }
  } else if (!from.endsWith(".pyc")) {
    FS.writeFile(to, fs.readFileSync(from));
  }
}

if (!sitePackages || !fs.existsSync(sitePackages) || !wheels || !fs.existsSync(wheels)) {
  console.error(USAGE);
  process.exit(2);
}
const py = await loadPyodide({ indexURL: path.join(ROOT, "node_modules", "pyodide") + "/" });
const lib = "/lib/tests-site-packages";
for (const name of PACKAGES) {
  const from = path.join(sitePackages, name);
  if (!fs.existsSync(from)) {
    console.error(`${name} is not in ${sitePackages}: run make setup`);
    process.exit(2);
  }
  copyInto(py.FS, from, `${lib}/${name}`);
}
for (const name of fs.readdirSync(sitePackages)) {
  // metadata, so that importlib.metadata finds each package's version
  if (name.endsWith(".dist-info") && PACKAGES.some((p) => name.toLowerCase().startsWith(p.replace(/\.py$/, "").replace(/^_/, "") + "-"))) {
    copyInto(py.FS, path.join(sitePackages, name), `${lib}/${name}`);
  }
}
for (const name of fs.readdirSync(wheels)) {
  if (name.endsWith("-py3-none-any.whl")) {
    py.unpackArchive(new Uint8Array(fs.readFileSync(path.join(wheels, name))), "zip", { extractDir: lib });
  }
}
// The project itself, read from the work tree (the tests write nothing there but the
// Hypothesis example database, which is git-ignored).
py.FS.mkdirTree("/repo");
py.FS.mount(py.FS.filesystems.NODEFS, { root: ROOT }, "/repo");
py.globals.set("pytest_args", py.toPy(pytestArgs));
py.globals.set("claims", claims);
const status = await py.runPythonAsync(`
import os, sys
os.chdir("/repo")
sys.path[:0] = ["/repo", "${lib}"]
os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
import pytest

class Claims:
    """Share the tests with the other processes as they go: a test is run by the process
    that claims it first (an empty folder named after its place in the collection, made
    in a folder every process sees), so a process that drew slow tests takes
    fewer of the rest. Each process claims its next test before running the one it holds,
    so that pytest tears down only the fixtures its next test does not share."""

    def __init__(self, folder):
        self.folder = folder
        self.ran = 0

    def claim(self, items, start):
        for i in range(start, len(items)):
            # a folder, not a file: Node makes a folder atomically (mkdir fails on one that
            # exists), while the Pyodide file system makes a file by writing it, so two
            # processes could both create the same file and both run the test
            try:
                os.mkdir(f"{self.folder}/{i}")
                return i
            except FileExistsError:
                continue
        return None

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session):
        if session.config.option.collectonly:
            return True
        items = session.items
        i = self.claim(items, 0)
        while i is not None:
            j = self.claim(items, i + 1)
            items[i].config.hook.pytest_runtest_protocol(
                item=items[i], nextitem=items[j] if j is not None else None)
            self.ran += 1
            if session.shouldfail:
                raise session.Failed(session.shouldfail)
            if session.shouldstop:
                raise session.Interrupted(session.shouldstop)
            i = j
        return True

    def pytest_terminal_summary(self, terminalreporter):
        terminalreporter.write_line(f"this process ran {self.ran} of the {len(terminalreporter._session.items)} "
                                    "tests collected; the other processes ran the rest")

print(f"Python {sys.version.split()[0]} on {sys.platform} (Pyodide), tests shared as they go "
      "with the other processes", flush=True)
int(pytest.main(["-p", "_hypothesis_pytestplugin", "-p", "no:cacheprovider", *pytest_args],
                plugins=[Claims(claims)]))
`);
process.exit(status);
