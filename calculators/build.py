"""The post-build step: any generator's output becomes the finished site.

``python -m calculators.build site/`` runs after ``mkdocs build`` or ``zensical build``
(``make site`` does both). It adds what no generator knows about and checks its own
result, failing loudly (exit 1, every problem listed) instead of shipping a broken site:

- the widget assets of ``calculators/assets/``, each named by content hash
  (``calculators/hashed.py``), with every reference to them rewritten;
- the Python bundle (one zip of ``rules_core``, the browser half of ``calculators`` and
  their pure-Python dependencies, named by content hash) and the pinned Pyodide runtime;
- in every page: links to the site root (``@@calc-root@@/``, written by the fences) made
  relative to the page, the build id, one Content-Security-Policy meta tag, an accessible
  name for Material's search dialog;
- ``sw.js``, the service worker, with a manifest of every file and its hash.
"""

from __future__ import annotations

import hashlib
import importlib
import io
import json
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from functools import cache
from pathlib import Path

from calculators import hashed

ROOT = Path(__file__).resolve().parent.parent
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm",
                 "python_stdlib.zip", "pyodide-lock.json")
#: packages shipped whole in the bundle (pure Python, imported by the worker)
BUNDLED_PACKAGES = ("rules_core", "icepool", "markdown_it", "mdurl")
#: modules of ``calculators`` that run in the browser
BROWSER_MODULES = ("__init__.py", "render.py", "runtime.py")
ASSET_DIR = "assets/calculators"
ASSETS_SOURCE = ROOT / "calculators" / "assets"


class BuildError(RuntimeError):
    """Something the build needs is missing; the message says how to get it."""


def _package_files(name: str) -> list[tuple[str, Path]]:
    module = importlib.import_module(name)
    base = Path(module.__file__).resolve().parent  # type: ignore[arg-type]
    files = []
    for path in sorted(base.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            files.append((f"{name}/{path.relative_to(base).as_posix()}", path))
    return files


#: compiled bundles, by the hash of their source zip and the Pyodide version
COMPILED = ROOT / "build" / "compiled-bundles"


def compiled(source: bytes) -> bytes:
    """``source`` (a zip of .py files) compiled for the pinned Pyodide's Python by
    ``calculators/compile_bundle.mjs`` in Node (kept in :data:`COMPILED`, so that every
    build of the same sources, in any process, names the same bundle)."""
    key = f"{hashlib.sha256(source).hexdigest()[:16]}-{pyodide_version()}"
    kept = COMPILED / f"{key}.zip"
    if kept.is_file():
        return kept.read_bytes()
    node = shutil.which("node")
    if node is None:
        raise BuildError("Compiling the Python bundle for the browser needs Node.js: install it"
                         " (`sudo apt-get install nodejs npm`), then run `make site`.")
    COMPILED.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=COMPILED) as tmp:
        src, out = Path(tmp) / "source.zip", Path(tmp) / "compiled.zip"
        src.write_bytes(source)
        proc = subprocess.run([node, str(ROOT / "calculators" / "compile_bundle.mjs"), str(pyodide_dir()),
                               str(src), str(out)], capture_output=True, text=True)
        if proc.returncode != 0 or not out.is_file():
            raise BuildError(f"compiling the Python bundle failed:\n{proc.stderr.strip()[-2000:]}")
        out.replace(kept)  # one rename: a build running beside this one reads all or nothing
    for old in sorted(COMPILED.glob("*.zip"), key=lambda p: p.stat().st_mtime)[:-4]:
        old.unlink(missing_ok=True)  # the last few sources' bundles are enough
    return kept.read_bytes()


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


#: the runtime files the worker downloads itself (and counts for its progress), besides the bundle
RUNTIME_DOWNLOADS = ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")


@cache
def runtime_bytes() -> int:
    """The bytes the worker's downloads hold once decoded: the progress bar's total when
    the server compresses them (its Content-Length is then the compressed size)."""
    return sum((pyodide_dir() / name).stat().st_size for name in RUNTIME_DOWNLOADS) + len(bundle()[1])


ENTRY = "calculators.js"  # the module every page with a widget loads
SW_TEMPLATE = ROOT / "calculators" / "sw.js.template"


def write_runtime(site_dir: Path) -> str:
    """Copy the Pyodide files and the Python bundle into the built site; the bundle's name."""
    target = site_dir / "assets" / "pyodide" / pyodide_version()
    target.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copy2(pyodide_dir() / name, target / name)
    name, data = bundle()
    out = site_dir / ASSET_DIR
    out.mkdir(parents=True, exist_ok=True)
    (out / name).write_bytes(data)
    return name


def write_assets(site_dir: Path, source: Path) -> dict[str, str]:
    """The widget assets under their hashed names; {asset path: hashed path}.

    The folder is replaced: it belongs to this step, and a second run must give the
    same site as the first."""
    try:
        assets = hashed.hash_assets(source)
    except hashed.AssetError as err:
        raise BuildError(str(err)) from err
    out = site_dir / ASSET_DIR
    if out.exists():
        shutil.rmtree(out)
    for new, data in assets.values():
        path = out / new
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return {rel: new for rel, (new, _) in assets.items()}


def build_id(names: dict[str, str], bundle_name: str) -> str:
    """What a page needs to run its widgets, in 12 hex digits: the hashed assets, the
    Python bundle and the Pyodide version. Text-only changes leave it alone."""
    text = "\n".join([*sorted(names.values()), bundle_name, pyodide_version()])
    return hashlib.sha256(text.encode()).hexdigest()[:12]


#: files the service worker never fetches ahead (source maps, compressed copies)
_NOT_PRECACHED = (".map", ".gz")
#: Material's own fingerprinted files (``bundle.77dd0ce9.min.js``)
_FINGERPRINTED = re.compile(r"\.[0-9a-f]{8,}\.min\.(?:js|css)$")


def immutable(rel: str) -> bool:
    """Whether a site file (path from the site root) is named by its content: the widget
    assets and the Python bundle, the versioned Pyodide folder, Material's fingerprinted
    files. Such a file never changes under its name (the server and the service worker
    keep it for good)."""
    return rel.startswith(("assets/pyodide/", ASSET_DIR + "/")) or bool(_FINGERPRINTED.search(rel))


def _page_url(rel: str) -> str:
    return "./" if rel == "index.html" else rel[: -len("index.html")] if rel.endswith("/index.html") else rel


def write_service_worker(site_dir: Path, build: str) -> None:
    """``sw.js`` at the site root, with every file the site has and its content hash.

    Files whose name carries their content (the widget assets, the Python bundle, the
    versioned Pyodide folder, Material's fingerprinted files) are immutable: cached once,
    kept across one deploy so a tab still open on the previous build finds its own.
    The runtime (Pyodide and the bundle) is kept on first use; everything else (pages
    included) is fetched ahead once a page has settled, and again only when its hash
    changes.
    """
    files: dict[str, str] = {}
    kept, runtime = [], []
    for path in sorted(p for p in site_dir.rglob("*") if p.is_file()):
        rel = path.relative_to(site_dir).as_posix()
        if rel == "sw.js" or rel.endswith(_NOT_PRECACHED):
            continue
        url = _page_url(rel)
        files[url] = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
        if rel.startswith("assets/pyodide/") or (rel.startswith(ASSET_DIR) and rel.endswith(".zip")):
            runtime.append(url)
        if immutable(rel):
            kept.append(url)
    manifest = {"build": build, "files": files, "immutable": kept, "runtime": runtime}
    text = SW_TEMPLATE.read_text(encoding="utf-8")
    text = text.replace("/*@MANIFEST@*/null", json.dumps(manifest, indent=0, sort_keys=True))
    (site_dir / "sw.js").write_text(text, encoding="utf-8")


def finish(site_dir: Path, assets: Path = ASSETS_SOURCE) -> str:
    """Turn a generator's output into the finished site, then check it. The build id."""
    from calculators import pages, verify

    if not (site_dir / "index.html").is_file():
        raise BuildError(f"{site_dir} has no index.html: build the site first (mkdocs or zensical).")
    pyodide_version()
    bundle.cache_clear()  # the sources as they are now, as the generator just saw them
    names = write_assets(site_dir, assets)
    bundle_name = write_runtime(site_dir)
    build = build_id(names, bundle_name)
    pages.process(site_dir, names, build)
    write_service_worker(site_dir, build)
    problems = verify.problems(site_dir)
    if problems:
        shown = "\n  ".join(problems[:40])
        more = f"\n  ... and {len(problems) - 40} more" if len(problems) > 40 else ""
        raise BuildError(f"the built site in {site_dir} is broken ({len(problems)} problems):\n  {shown}{more}")
    return build


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m calculators.build",
        description="Finish a site built by MkDocs or Zensical: widget assets, runtime, "
                    "service worker, policy; then check it.")
    parser.add_argument("site_dir", nargs="?", default="site", type=Path)
    parser.add_argument("--assets", type=Path, default=ASSETS_SOURCE,
                        help="the widget assets to publish (default: calculators/assets)")
    args = parser.parse_args(argv)
    try:
        build = finish(args.site_dir, args.assets)
    except BuildError as err:
        print(f"calculators.build: FAILED: {err}", file=sys.stderr)
        return 1
    print(f"calculators.build: {args.site_dir} finished and checked (build {build}).")
    return 0


if __name__ == "__main__":
    # run the package's copy of this module, so that its errors are the ones caught
    from calculators.build import main as _main

    sys.exit(_main())
