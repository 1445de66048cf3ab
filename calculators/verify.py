"""Checks of a finished site, run by the post-build step on its own result.

A generator can report success on a broken site (Zensical ignores MkDocs hooks and turns
an exception in a fence into a ``<code>`` block), so the site itself is checked: every
problem found is returned as one line; an empty list means the site is whole.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote, urljoin

import zstandard

from calculators import hashed
from calculators.layout import (
    ASSET_DIR,
    BUILD_TAG,
    CSP_TAG,
    ENTRY,
    HEAD_END,
    PACKED_RUNTIME,
    PACKED_SUFFIX,
    PYODIDE_DIR,
    PYODIDE_FILES,
    ROOT_PLACEHOLDER,
    RUNTIME_PLACEHOLDERS,
    WIDGET_ENTRY,
    snapshot_name,
)

#: a fence whose formatter failed, shown as code instead of a widget or table
_SWALLOWED_FENCE = re.compile(r"<code[^>]*>(?:calculator|app|rules-table)\n")
_ASSET_REF = re.compile(r"""\b(src|href|data-module)=["']?([^"'\s>]*""" + re.escape(ASSET_DIR) + r"""/[^"'\s>]*)""")
_WIDGET = re.compile(r"""<[a-z]+\s[^<>]*\bdata-(?:calculator|app)="[^"]*"[^<>]*>""")
_ATTR = re.compile(r"""\s(data-[a-z-]+)="([^"]*)\"""")
_FIRST_SCRIPT = re.compile(r"<script\b", re.I)
_MANIFEST_LINK = re.compile(r"""<link\s+rel=["']?manifest["']?\s""", re.I)


def _page_problems(site_dir: Path, page: Path, text: str) -> list[str]:
    rel = page.relative_to(site_dir).as_posix()
    out = []
    for placeholder in (ROOT_PLACEHOLDER, *RUNTIME_PLACEHOLDERS):
        if placeholder in text:
            out.append(f"{rel}: the placeholder {placeholder} is left in the page")
    if _SWALLOWED_FENCE.search(text):
        out.append(f"{rel}: a calculator, app or rules-table block was left as code (its formatter failed)")
    policies = list(CSP_TAG.finditer(text))
    head_end = HEAD_END.search(text)
    first_script = _FIRST_SCRIPT.search(text)
    if len(policies) != 1:
        out.append(f"{rel}: {len(policies)} Content-Security-Policy meta tags (want exactly 1)")
    elif not head_end or policies[0].start() > head_end.start() or (
            first_script and policies[0].start() > first_script.start()):
        out.append(f"{rel}: the Content-Security-Policy meta tag is not in the head before every script")
    if len(BUILD_TAG.findall(text)) != 1:
        out.append(f"{rel}: no single build id meta tag")
    if not head_end or len(_MANIFEST_LINK.findall(text[: head_end.start()])) != 1:
        out.append(f"{rel}: no single web app manifest link in its head")
    base = "http://site/" + rel
    for attr, ref in _ASSET_REF.findall(text):
        # data-module is relative to the site root (no page context needed); the rest to the page
        if ref.startswith("/") or "//" in ref:
            # absolute (the 404 page's, written for the site's base path): from the asset folder on
            url = "http://site/" + ref[ref.index(ASSET_DIR + "/"):]
        else:
            url = urljoin("http://site/" if attr == "data-module" else base, ref)
        target = site_dir / unquote(url[len("http://site/"):].split("?")[0].split("#")[0])
        if not url.startswith("http://site/") or not target.is_file():
            out.append(f"{rel}: {attr}={ref} names a file the site does not have")
        elif not hashed.HASHED_NAME.match(target.name) and not target.name.startswith("python-"):
            out.append(f"{rel}: {attr}={ref} is not named by content hash")
    widgets = _WIDGET.findall(text)
    for module in (ENTRY, WIDGET_ENTRY) if widgets else ():
        entry = re.escape(module.rsplit(".", 1)[0])
        if not re.search(rf"""<script[^>]*\bsrc=["']?[^"'\s>]*{re.escape(ASSET_DIR)}/{entry}\.[0-9a-f]+\.js""", text):
            out.append(f"{rel}: has widgets but does not load {ASSET_DIR}/{module}")
    for tag in widgets:
        attrs = dict(_ATTR.findall(tag))
        name = attrs.get("data-calculator") or attrs.get("data-app")
        bundle = attrs.get("data-bundle", "")
        if not bundle or not (site_dir / ASSET_DIR / bundle).is_file():
            out.append(f"{rel}: widget {name}: its Python bundle {bundle!r} is not in the site")
        elif not (site_dir / ASSET_DIR / snapshot_name(bundle)).is_file():
            out.append(f"{rel}: widget {name}: the first-visit snapshot of {bundle!r} is not in the site")
        elif attrs.get("data-snapshot") != snapshot_name(bundle):
            out.append(f"{rel}: widget {name}: names the first-visit snapshot {attrs.get('data-snapshot')!r}, "
                       f"not its bundle's {snapshot_name(bundle)!r}")
        pyodide = site_dir / PYODIDE_DIR / attrs.get("data-pyodide", "?")
        if not all((pyodide / f).is_file() for f in PYODIDE_FILES):
            out.append(f"{rel}: widget {name}: the Pyodide runtime {pyodide.name} is not in the site")
        if "data-app" in attrs and "data-module" not in attrs:
            out.append(f"{rel}: app {name} names no module (data-module)")
        if not attrs.get("data-build"):
            out.append(f"{rel}: widget {name} carries no build id")
    return out


def packed_problems(site_dir: Path) -> list[str]:
    """What is wrong with the runtime's packed files (a first visit downloads them instead of
    the file and the worker keeps what it unpacked as the file itself): each is one
    Zstandard frame that states its size and unpacks to its file byte for byte."""
    out = []
    for folder in sorted(p for p in (site_dir / PYODIDE_DIR).glob("*") if p.is_dir()):
        for name in PACKED_RUNTIME:
            packed, plain = folder / (name + PACKED_SUFFIX), folder / name
            rel = packed.relative_to(site_dir).as_posix()
            if not packed.is_file() or not plain.is_file():
                out.append(f"{rel}: missing (or the file it packs)")
                continue
            data, want = packed.read_bytes(), plain.read_bytes()
            try:
                size = zstandard.get_frame_parameters(data).content_size
                got = zstandard.ZstdDecompressor().decompress(data)
            except zstandard.ZstdError as err:
                out.append(f"{rel}: not a whole Zstandard frame ({err})")
                continue
            if size != len(want):
                out.append(f"{rel}: its frame states {size} bytes, not its file's {len(want)}")
            elif got != want:
                out.append(f"{rel}: does not unpack to {name} byte for byte")
    return out


def problems(site_dir: Path) -> list[str]:
    """Everything wrong with the finished site in ``site_dir``."""
    out: list[str] = []
    pages = sorted(site_dir.rglob("*.html"))
    if not pages:
        return [f"{site_dir}: no pages"]
    for page in pages:
        out += _page_problems(site_dir, page, page.read_text(encoding="utf-8"))
    for path in sorted((site_dir / ASSET_DIR).rglob("*")):
        if path.is_file() and not hashed.HASHED_NAME.match(path.name) and not path.name.startswith("python-"):
            out.append(f"{path.relative_to(site_dir).as_posix()}: not named by content hash")
    for path in sorted(site_dir.rglob("*")):
        if path.is_file() and path.suffix in (".json", ".xml", ".js") and "pyodide" not in path.parts:
            if ROOT_PLACEHOLDER in path.read_text(encoding="utf-8", errors="replace"):
                out.append(f"{path.relative_to(site_dir).as_posix()}: the placeholder {ROOT_PLACEHOLDER} is left in it")
    out += packed_problems(site_dir)
    sw = site_dir / "sw.js"
    if not sw.is_file():
        out.append("sw.js: missing")
    else:
        match = re.search(r"const MANIFEST = (\{.*?\});\n", sw.read_text(encoding="utf-8"), re.S)
        if not match:
            out.append("sw.js: no manifest")
        else:
            manifest = json.loads(match.group(1))
            for url in manifest["files"]:
                target = site_dir / (url + "index.html" if url.endswith("/") else url)
                if not target.is_file():
                    out.append(f"sw.js: lists {url}, which the site does not have")
    return out
