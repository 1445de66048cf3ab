// One Web Worker hosts Pyodide and the rules core for the whole visit.
// Messages are JSON strings: {id, op, ...} in; {id, reply} or {type: "progress"} out.
let handle = null;
let starting = null;

function post(message) {
  self.postMessage(JSON.stringify(message));
}

async function start({ pyodide, bundle, root }) {
  post({ type: "progress", text: "Downloading the Python runtime…" });
  const { loadPyodide } = await import(new URL("pyodide.mjs", pyodide).href);
  const bundlePromise = fetch(bundle).then((r) => {
    if (!r.ok) throw new Error(`the rules bundle answered HTTP ${r.status}`);
    return r.arrayBuffer();
  });
  const py = await loadPyodide({ indexURL: pyodide, packages: [] });
  post({ type: "progress", text: "Loading the rules…" });
  py.unpackArchive(await bundlePromise, "zip", { extractDir: "/home/pyodide/bundle" });
  py.runPython("import sys; sys.path.insert(0, '/home/pyodide/bundle')");
  const runtime = py.pyimport("calculators.runtime");
  runtime.configure(root);
  handle = runtime.handle;
}

self.onmessage = async (event) => {
  const message = JSON.parse(event.data);
  if (message.op === "init") {
    starting = starting || start(message);
    try {
      await starting;
      post({ id: message.id, ready: true });
    } catch (err) {
      post({ id: message.id, failed: String(err && err.message ? err.message : err) });
    }
    return;
  }
  try {
    await starting;
    post({ id: message.id, reply: JSON.parse(handle(JSON.stringify(message))) });
  } catch (err) {
    post({ id: message.id, failed: String(err && err.message ? err.message : err) });
  }
};
