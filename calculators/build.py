"""Build-time assets: the Python bundle for the browser and the pinned Pyodide runtime.

The bundle is one zip of ``rules_core``, the browser half of ``calculators`` and their
pure-Python dependencies, named by content hash so browsers never keep a stale copy.
"""

from __future__ import annotations

import base64
import hashlib
import importlib
import io
import json
import re
import shutil
import zipfile
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm",
                 "python_stdlib.zip", "pyodide-lock.json")
#: packages shipped whole in the bundle (pure Python, imported by the worker)
BUNDLED_PACKAGES = ("rules_core", "icepool", "markdown_it", "mdurl")
#: modules of ``calculators`` that run in the browser
BROWSER_MODULES = ("__init__.py", "render.py", "runtime.py")
ASSET_DIR = "assets/calculators"


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


@cache
def bundle() -> tuple[str, bytes]:
    """(file name, zip bytes) of the Python the browser runs. Deterministic."""
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
    data = buffer.getvalue()
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


# Every inline script, data blocks included: Material's instant navigation re-creates the
# script elements of the page it swaps in, and the browser checks those against the policy.
_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S)
CSP_META = '<meta http-equiv="Content-Security-Policy" content="{}">'


def content_security_policy(script_hashes: list[str]) -> str:
    """As strict as Material allows: nothing from other origins; scripts only from the
    site or the exact inline snippets Material writes (by hash); WebAssembly allowed."""
    scripts = " ".join(f"'sha256-{h}'" for h in script_hashes)
    return "; ".join([
        "default-src 'self'",
        f"script-src 'self' 'wasm-unsafe-eval' {scripts}".strip(),
        "style-src 'self' 'unsafe-inline'",  # Material sets style attributes
        "img-src 'self' data:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "worker-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'none'",
    ])


def apply_csp(site_dir: Path) -> str:
    """Put one Content-Security-Policy meta tag in every page.

    The same policy everywhere (the union of all pages' inline-script hashes), because
    with instant navigation the first page's policy governs the whole visit.
    """
    pages = sorted(site_dir.rglob("*.html"))
    hashes: set[str] = set()
    for page in pages:
        for body in _INLINE_SCRIPT.findall(page.read_text(encoding="utf-8")):
            digest = hashlib.sha256(body.encode("utf-8")).digest()
            hashes.add(base64.b64encode(digest).decode())
    policy = content_security_policy(sorted(hashes))
    meta = CSP_META.format(policy)
    for page in pages:
        text = page.read_text(encoding="utf-8")
        if "Content-Security-Policy" not in text:
            text = text.replace('<meta charset="utf-8">', '<meta charset="utf-8">' + meta, 1)
            page.write_text(text, encoding="utf-8")
    return policy


#: site files the service worker does not precache (the runtime is kept on first use)
_NOT_PRECACHED = (".map", ".gz", ".zip", ".wasm", ".mjs")


def write_service_worker(site_dir: Path) -> None:
    """``sw.js`` at the site root, versioned by the content of every other file.

    It precaches the pages and their assets (small), and keeps the Pyodide runtime and
    the Python bundle once a calculator page has loaded them, so a rules page never
    downloads the runtime but the whole site works offline after a calculator was used.
    """
    digest = hashlib.sha256()
    precache, runtime = [], []
    for path in sorted(p for p in site_dir.rglob("*") if p.is_file()):
        rel = path.relative_to(site_dir).as_posix()
        if rel == "sw.js":
            continue
        digest.update(rel.encode() + b"\0" + path.read_bytes())
        if rel.startswith("assets/pyodide/") or (rel.startswith(ASSET_DIR) and rel.endswith(".zip")):
            runtime.append(rel)
        elif not rel.endswith(_NOT_PRECACHED) and rel != "404.html":
            precache.append("./" if rel == "index.html" else
                            rel[: -len("index.html")] if rel.endswith("/index.html") else rel)
    template = (ROOT / "calculators" / "sw.js.template").read_text()
    (site_dir / "sw.js").write_text(template % {
        "version": digest.hexdigest()[:16],
        "runtime": json.dumps(runtime),
        "precache": json.dumps(precache, indent=0),
    })


def write_runtime(site_dir: Path) -> None:
    """Copy the Pyodide files and the Python bundle into the built site."""
    target = site_dir / "assets" / "pyodide" / pyodide_version()
    target.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copy2(pyodide_dir() / name, target / name)
    name, data = bundle()
    out = site_dir / ASSET_DIR
    out.mkdir(parents=True, exist_ok=True)
    (out / name).write_bytes(data)
