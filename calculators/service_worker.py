"""``sw.js``, the service worker, written by the post-build step from
``calculators/sw.js.template`` with a manifest of every file of the finished site."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from calculators.layout import PACKED_SUFFIX, PYODIDE_DIR, ROOT, immutable

TEMPLATE = ROOT / "calculators" / "sw.js.template"
#: files the service worker never fetches ahead (source maps, compressed copies, the files
#: the calculation worker unpacks and keeps itself)
_NOT_PRECACHED = (".map", ".gz", PACKED_SUFFIX)
#: the runtime's files a start from a snapshot never downloads (the standard library; the
#: bundle is a zip of ASSET_DIR): saved with the rest of the site, not kept on first use
LATE_FILES = ("python_stdlib.zip",)


def _page_url(rel: str) -> str:
    return "./" if rel == "index.html" else rel[: -len("index.html")] if rel.endswith("/index.html") else rel


def write(site_dir: Path, build: str) -> None:
    """``sw.js`` at the site root, with every file the site has and its content hash.

    Files whose name carries their content (the widget assets, the Python bundle, the
    versioned Pyodide folder, Material's fingerprinted files) are immutable: cached once,
    kept across one deploy so a tab still open on the previous build finds its own.
    The runtime (Pyodide's files but the standard library) is kept on first use; everything
    else (pages, the standard library and the bundle included: a start from a snapshot
    needs neither) is fetched ahead once a page has settled, and again only when its hash
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
        if rel.startswith(PYODIDE_DIR + "/") and not rel.endswith(LATE_FILES):
            runtime.append(url)
        if immutable(rel):
            kept.append(url)
    manifest = {"build": build, "files": files, "immutable": kept, "runtime": runtime,
                "packed_suffix": PACKED_SUFFIX}  # the calculation worker keeps such a file itself
    text = TEMPLATE.read_text(encoding="utf-8")
    text = text.replace("/*@MANIFEST@*/null", json.dumps(manifest, indent=0, sort_keys=True))
    (site_dir / "sw.js").write_text(text, encoding="utf-8")
