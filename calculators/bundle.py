"""The Python the browser runs: one zip of ``rules_core``, the browser half of
``calculators`` and their pure-Python dependencies, compiled ahead for the pinned
Pyodide's Python and named by content hash; and that pinned Pyodide.

Used by the fences (a widget names its bundle and runtime) and by the post-build step
(which copies them into the site); imports neither.
"""

from __future__ import annotations

import fcntl
import gzip
import hashlib
import importlib
import io
import json
import shutil
import subprocess
import tempfile
import zipfile
from collections.abc import Callable
from functools import cache
from pathlib import Path

import zstandard

from calculators.layout import PACKED_RUNTIME, PACKED_SUFFIX, ROOT, BuildError, snapshot_name

#: packages shipped whole in the bundle (pure Python, imported by the worker)
BUNDLED_PACKAGES = ("rules_core", "icepool", "markdown_it", "mdurl")
#: modules of ``calculators`` that run in the browser
BROWSER_MODULES = ("__init__.py", "lean.py", "render.py", "runtime.py")
#: compiled bundles, by the hash of their source zip and the Pyodide version
COMPILED = ROOT / "build" / "compiled-bundles"
#: first-visit snapshots, by the bundle's name (which carries the Pyodide version's Python)
SNAPSHOTS = ROOT / "build" / "snapshots"
#: the runtime's packed files (:func:`packed_runtime`), by the hash of what they pack
PACKED = ROOT / "build" / "packed-runtime"


def _package_files(name: str) -> list[tuple[str, Path]]:
    module = importlib.import_module(name)
    base = Path(module.__file__).resolve().parent  # type: ignore[arg-type]
    files = []
    for path in sorted(base.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            files.append((f"{name}/{path.relative_to(base).as_posix()}", path))
    return files


def _kept(folder: Path, name: str, keep: int, make: Callable[[Path], Path]) -> bytes:
    """The bytes of ``folder/name``, made first if missing: ``make(tmp)`` writes the file
    in a fresh folder inside ``folder`` and returns its path, which one rename puts in
    place. One process makes it while the others wait for it (a lock on the folder): two
    builds at once (the test processes) must name and ship the same file, and a snapshot
    made twice differs in its bytes. The folder holds these files only: its ``keep``
    newest stay, older ones go."""
    kept = folder / name
    if kept.is_file():
        return kept.read_bytes()
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not kept.is_file():
            with tempfile.TemporaryDirectory(dir=folder) as tmp:
                make(Path(tmp)).replace(kept)
            files = [p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")]
            for old in sorted(files, key=lambda p: p.stat().st_mtime)[:-keep]:
                old.unlink(missing_ok=True)
        return kept.read_bytes()


def compiled(source: bytes) -> bytes:
    """``source`` (a zip of .py files) compiled for the pinned Pyodide's Python by
    ``calculators/compile_bundle.mjs`` in Node (kept in :data:`COMPILED`, the last few
    sources' bundles, so that every build of the same sources, in any process, names the
    same bundle)."""
    def make(tmp: Path) -> Path:
        src, out = tmp / "source.zip", tmp / "compiled.zip"
        src.write_bytes(source)
        _run_node("Compiling the Python bundle for the browser", "compile_bundle.mjs", src, out, out=out)
        return out
    key = f"{hashlib.sha256(source).hexdigest()[:16]}-{pyodide_version()}"
    return _kept(COMPILED, f"{key}.zip", 4, make)


@cache
def bundle() -> tuple[str, bytes]:
    """(file name, zip bytes) of the Python the browser runs, compiled for its Python
    (:func:`compiled`). Deterministic."""
    entries: list[tuple[str, Path]] = []
    for package in BUNDLED_PACKAGES:
        entries += _package_files(package)
    base = ROOT / "calculators"
    entries += [(f"calculators/{m}", base / m) for m in BROWSER_MODULES]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for arcname, path in entries:
            info = zipfile.ZipInfo(arcname, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    data = compiled(buffer.getvalue())
    return f"python-{hashlib.sha256(data).hexdigest()[:12]}.zip", data


def _run_node(what: str, script: str, *args: Path, out: Path) -> None:
    """Run ``calculators/<script>`` in Node with the pinned Pyodide's folder and ``args``;
    ``what`` names the job in the error when Node is missing or the script fails (or
    writes no ``out``)."""
    node = shutil.which("node")
    if node is None:
        raise BuildError(f"{what} needs Node.js: install it (`sudo apt-get install nodejs npm`), "
                         "then run `make site`.")
    proc = subprocess.run([node, str(ROOT / "calculators" / script), str(pyodide_dir()),
                           *map(str, args)], capture_output=True, text=True)
    if proc.returncode != 0 or not out.is_file():
        raise BuildError(f"{what} failed:\n{proc.stderr.strip()[-2000:]}")


def snapshot() -> tuple[str, bytes]:
    """(file name, packed bytes: :func:`pack`) of the runtime's first-visit snapshot: Python's memory
    once the pinned Pyodide has started and imported everything a request needs from
    this bundle, made by ``calculators/make_snapshot.mjs`` in Node (kept in
    :data:`SNAPSHOTS` by the bundle's name, and read from there: not cached in the process,
    since it follows :func:`bundle`). A first visit restores it instead of starting Python
    (which is most of a first visit's time, and about twice as long in WebKit)."""
    bundle_name, data = bundle()
    name = snapshot_name(bundle_name)

    def make(tmp: Path) -> Path:
        zip_path, out, packed = tmp / bundle_name, tmp / "memory", tmp / name
        zip_path.write_bytes(data)
        _run_node("Making the runtime's snapshot", "make_snapshot.mjs", zip_path, out, out=out)
        packed.write_bytes(pack(out.read_bytes()))
        return packed
    return name, _kept(SNAPSHOTS, name, 2, make)  # 45 MB each once unpacked: two are enough


#: the build's Zstandard parameters (the snapshot's and the WebAssembly's): level 19 (the
#: build packs each file once), a 4 MiB window (the worker's decoder moves its window along
#: at every block: a larger one saves 1% of the bytes and costs twice the decoding time)
PACK_LEVEL, PACK_WINDOW_LOG = 19, 22


def pack(data: bytes) -> bytes:
    """A file packed for the download: one Zstandard frame, which carries its unpacked
    size. gzip, which a browser unpacks natively, leaves the snapshot about 30% bigger
    (5.1 MB against 3.9 MB) and the WebAssembly 22% (3.5 MB against 2.9 MB); the worker
    unpacks this as it arrives with a small decoder of its own (``assets/unpack.js``,
    which reads the unpacked size to make its array up front). Deterministic: one thread."""
    params = zstandard.ZstdCompressionParameters.from_level(
        PACK_LEVEL, window_log=PACK_WINDOW_LOG, write_content_size=True, write_checksum=False)
    return zstandard.ZstdCompressor(compression_params=params).compress(data)


@cache
def packed_runtime(name: str) -> bytes:
    """Pyodide's file ``name`` (one of :data:`PACKED_RUNTIME`) packed (:func:`pack`): what a
    first visit downloads instead of the file. Packing the WebAssembly takes half a minute:
    it is kept in :data:`PACKED` under the hash of the file and the parameters, so that
    every build of the same Pyodide, in any process, packs it once."""
    data = (pyodide_dir() / name).read_bytes()
    key = hashlib.sha256(data + f"{PACK_LEVEL}/{PACK_WINDOW_LOG}".encode()).hexdigest()[:16]

    def make(tmp: Path) -> Path:
        out = tmp / "packed"
        out.write_bytes(pack(data))
        return out
    return _kept(PACKED, f"{key}-{name}{PACKED_SUFFIX}", 4, make)


def packed_runtime_files() -> dict[str, dict[str, str]]:
    """{file name: {"packed": its packed file's name, "hash": the file's content hash}} for
    the runtime's files a first visit downloads packed, written into the worker by the
    build: the worker checks what it unpacked against the hash (the hash the service
    worker's manifest lists, and keeps with the file) before it keeps it for the service
    worker."""
    return {name: {"packed": name + PACKED_SUFFIX,
                   "hash": hashlib.sha256((pyodide_dir() / name).read_bytes()).hexdigest()[:16]}
            for name in PACKED_RUNTIME}


def pyodide_dir() -> Path:
    return ROOT / "node_modules" / "pyodide"


@cache
def pyodide_version() -> str:
    """The pinned Pyodide version, checked against what npm installed."""
    wanted = json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]
    installed = pyodide_dir() / "package.json"
    if not installed.exists():
        raise BuildError("The Pyodide runtime is not installed: run `npm ci` (or `make site`).")
    have = json.loads(installed.read_text())["version"]
    if have != wanted:
        raise BuildError(f"node_modules has Pyodide {have} but package.json pins {wanted}: run `npm ci`.")
    return have


#: the runtime files every start downloads itself, besides the snapshot (a normal start
#: also downloads the standard library's zip and the bundle); a first visit downloads those
#: of :data:`PACKED_RUNTIME` packed
RUNTIME_DOWNLOADS = ("pyodide.asm.wasm", "pyodide-lock.json")


#: the runtime's files a static host sends compressed (GitHub Pages and calculators/serve.py
#: gzip WebAssembly and JSON; the zips and the packed files are compressed already and go
#: as they are)
HOST_COMPRESSED = (".wasm", ".json")


def _sent(data: bytes, name: str) -> int:
    """The bytes a host sends for one of the runtime's files (gzip, as GitHub Pages does)."""
    if not name.endswith(HOST_COMPRESSED):
        return len(data)
    return min(len(data), len(gzip.compress(data, compresslevel=6, mtime=0)))


@cache
def runtime_sizes() -> dict[str, tuple[int, int]]:
    """{file name: (its bytes, the bytes a compressing host sends)} for the files the worker
    downloads, the packed ones included (the worker counts a compressed download's decoded
    bytes at this ratio)."""
    paths = {name: (pyodide_dir() / name).read_bytes()
             for name in (*RUNTIME_DOWNLOADS, "python_stdlib.zip")}
    paths.update({name + PACKED_SUFFIX: packed_runtime(name) for name in PACKED_RUNTIME})
    name, data = bundle()
    paths[name] = data
    return {n: (len(d), _sent(d, n)) for n, d in paths.items()}


@cache
def runtime_bytes() -> int:
    """The bytes a first visit's runtime moves, as a compressing host sends them: the
    progress bar's total until the worker knows its own (the WebAssembly, packed, Pyodide's
    package list and the site's snapshot; a normal start, where that cannot be had, moves
    the standard library and the bundle instead of the snapshot)."""
    sizes = runtime_sizes()
    first = [name + PACKED_SUFFIX if name in PACKED_RUNTIME else name for name in RUNTIME_DOWNLOADS]
    return sum(sizes[name][1] for name in first) + len(snapshot()[1])
