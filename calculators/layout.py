"""The finished site's layout: where the build puts things and the marks it leaves in
pages, shared by the fences (inside the generator), the post-build step and the server.

A leaf: it imports only the standard library, so every build-time module can import it
without importing any other (the layers are listed in ``tests/test_layers.py``).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path

#: the project's folder
ROOT = Path(__file__).resolve().parent.parent
#: the widget assets as written (published under their content-hashed names)
ASSETS_SOURCE = ROOT / "calculators" / "assets"
#: where the widget assets and the Python bundle go in the site
ASSET_DIR = "assets/calculators"
#: where the pinned Pyodide goes in the site, in a folder named by its version
PYODIDE_DIR = "assets/pyodide"
#: the module every page loads
ENTRY = "calculators.js"
#: the module a page with widgets or apps loads right after ENTRY (the post-build step puts it
#: there): it hands ENTRY the widgets' module up front, so every widget is bound before the
#: page's load event, while a page without one moves none of the widgets' scripts
WIDGET_ENTRY = "widgetpage.js"
#: the files of the Pyodide runtime the site carries
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm",
                 "python_stdlib.zip", "pyodide-lock.json")
#: written by the fences before links to other pages; the post-build step replaces it in
#: every built page with the relative path from that page to the site root
ROOT_PLACEHOLDER = "@@calc-root@@/"
#: written by the fences where a widget or an app names the runtime (the Python bundle's
#: hashed name, its first-visit snapshot's name, the Pyodide version, the bytes of its
#: downloads); the post-build step fills them in every built page, so that rendering a
#: page needs neither Node nor the bundle
BUNDLE_PLACEHOLDER = "@@calc-bundle@@"
SNAPSHOT_PLACEHOLDER = "@@calc-snapshot@@"
PYODIDE_PLACEHOLDER = "@@calc-pyodide@@"
RUNTIME_BYTES_PLACEHOLDER = "@@calc-runtime-bytes@@"
RUNTIME_PLACEHOLDERS = (BUNDLE_PLACEHOLDER, SNAPSHOT_PLACEHOLDER, PYODIDE_PLACEHOLDER, RUNTIME_BYTES_PLACEHOLDER)
#: the post-build step's tags in a page's head: the security policy and the build id
CSP_TAG = re.compile(r"""<meta\s+http-equiv=["']?Content-Security-Policy["']?[^>]*>""", re.I)
BUILD_TAG = re.compile(r"""<meta\s+name=["']?tcr-build["']?[^>]*>""", re.I)
#: the end of a page's head
HEAD_END = re.compile(r"</head>", re.I)

#: Material's own fingerprinted files (``bundle.77dd0ce9.min.js``)
_FINGERPRINTED = re.compile(r"\.[0-9a-f]{8,}\.min\.(?:js|css)$")


#: how the name of a file the build packs with Zstandard ends: the calculation worker
#: unpacks such a file itself as it arrives and keeps what it unpacked (the first-visit
#: snapshot, the WebAssembly's first download), so the service worker neither fetches it
#: ahead nor keeps it (its manifest says how such a name ends: ``packed_suffix``)
PACKED_SUFFIX = ".zst"
#: how the name of a first-visit snapshot ends (any build's: see :func:`snapshot_name`)
SNAPSHOT_SUFFIX = ".snapshot.zst"
#: the runtime's files a first visit downloads packed (Zstandard, beside the file itself,
#: named with :data:`PACKED_SUFFIX` added): the WebAssembly, 2.8 MB so, against 3.5 MB
#: gzipped by the host. The file itself stays (a later visit, a browser that cannot unpack).
PACKED_RUNTIME = ("pyodide.asm.wasm",)


def snapshot_name(bundle_name: str) -> str:
    """The runtime's first-visit snapshot's file name, beside the bundle it was made from
    (``python-<hash>.zip`` -> ``python-<hash>.snapshot.zst``). Written here only: the
    pages' widgets and apps carry it (``data-snapshot``, :data:`SNAPSHOT_PLACEHOLDER`),
    and the service worker's manifest says how a packed file's name ends (``packed_suffix``)."""
    return bundle_name.removesuffix(".zip") + SNAPSHOT_SUFFIX


class BuildError(RuntimeError):
    """Something the build needs is missing; the message says how to get it."""


def immutable(rel: str) -> bool:
    """Whether a site file (path from the site root) is named by its content: the widget
    assets and the Python bundle, the versioned Pyodide folder, Material's fingerprinted
    files. Such a file never changes under its name (the server and the service worker
    keep it for good)."""
    return rel.startswith((PYODIDE_DIR + "/", ASSET_DIR + "/")) or bool(_FINGERPRINTED.search(rel))


def command(prog: str, work: Callable[[], str]) -> int:
    """A build command's exit status: 0 and the line ``work`` returns printed, or 1 and
    ``prog: FAILED:`` with the problem on standard error if it raises :class:`BuildError`."""
    try:
        said = work()
    except BuildError as err:
        print(f"{prog}: FAILED: {err}", file=sys.stderr)
        return 1
    print(said)
    return 0
