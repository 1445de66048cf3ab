"""Content-hashed names for the widget assets, and the references to them rewritten.

Every file of ``calculators/assets/`` is published as ``name.<hash>.ext`` (``calculators.js``
becomes ``calculators.1a2b3c4d5e6f.js``), so a browser or service worker can keep a file
for ever and a deploy downloads only the files that changed. A module's hash covers the
hashed names of what it imports, so leaves are hashed first: a change in ``site.js``
renames ``site.js`` and every module that imports it, and nothing else.

References rewritten inside the assets: relative ES-module specifiers (``import ... from
"./x.js"``, ``export ... from "../site.js"``, ``import("./x.js")``) and
``new URL("x.js", import.meta.url)`` with a literal. Anything that names a local asset
some other way cannot be followed and must not exist (``check_assets`` says where).
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from collections.abc import Callable
from pathlib import Path

HASH_LENGTH = 12

#: a reference from one asset to another, the path in group "path"
_REFERENCES = (
    re.compile(r"""\b(?:import|export)\b[^;"'`]*?\bfrom\s*(?P<q>["'])(?P<path>\.{1,2}/[^"'\n]+)(?P=q)"""),
    re.compile(r"""\bimport\s*(?P<q>["'])(?P<path>\.{1,2}/[^"'\n]+)(?P=q)"""),
    # a dynamic import; ``import("./x.js").Name`` is a JSDoc type, not a dependency, but
    # ``import("./x.js").then(...)`` is the import's promise
    re.compile(r"""\bimport\s*\(\s*(?P<q>["'])(?P<path>[^"'\n]+)(?P=q)\s*\)"""
               r"""(?!\s*\.\s*(?!(?:then|catch|finally)\b)[A-Za-z_$])"""),
    re.compile(r"""\bnew\s+URL\(\s*(?P<q>["'])(?P<path>[^"'\n]+)(?P=q)\s*,\s*import\.meta\.url\s*\)"""),
)
_CSS_URL = re.compile(r"""url\(\s*(?P<q>["']?)(?P<path>[^"')\s]+)(?P=q)\s*\)""")
#: a hashed name: ``stem.<12 hex>.ext``
HASHED_NAME = re.compile(rf"^(?P<stem>.+)\.[0-9a-f]{{{HASH_LENGTH}}}(?P<ext>\.[A-Za-z0-9]+)$")


class AssetError(RuntimeError):
    """The assets refer to each other in a way the build cannot follow."""


def _patterns(rel: str) -> tuple[re.Pattern[str], ...]:
    if rel.endswith((".js", ".mjs")):
        return _REFERENCES
    if rel.endswith(".css"):
        return (_CSS_URL,)
    return ()


def _local(rel: str, spec: str) -> str | None:
    """The asset path ``spec`` names from asset ``rel``, or None if it is not local."""
    if re.match(r"^[a-z][a-z0-9+.-]*:|^/|^#", spec, re.I):
        return None
    spec = spec.split("?", 1)[0].split("#", 1)[0]
    if not spec or spec.endswith("/") or spec in (".", ".."):
        return None  # a directory (``new URL("./", import.meta.url)``), not a file
    return posixpath.normpath(posixpath.join(posixpath.dirname(rel), spec))


def references(rel: str, text: str) -> list[tuple[int, int, str]]:
    """(start, end, target asset path) of every local reference in an asset's text."""
    found = []
    for pattern in _patterns(rel):
        for match in pattern.finditer(text):
            target = _local(rel, match.group("path"))
            if target is not None and not target.startswith("../"):
                found.append((match.start("path"), match.end("path"), target))
    return sorted(set(found))


def hashed_name(rel: str, data: bytes) -> str:
    stem, ext = posixpath.splitext(rel)
    return f"{stem}.{hashlib.sha256(data).hexdigest()[:HASH_LENGTH]}{ext}"


def _relative_spec(original: str, new_target: str, rel: str) -> str:
    """The specifier ``original`` rewritten to point at ``new_target`` (same style)."""
    spec = posixpath.relpath(new_target, posixpath.dirname(rel) or ".")
    if original.startswith("./") and not spec.startswith("."):
        spec = "./" + spec
    return spec


def hash_assets(source: Path, fills: dict[str, dict[str, str]] | None = None) -> dict[str, tuple[str, bytes]]:
    """{asset path: (hashed path, content with references rewritten)} for every file
    under ``source``; ``fills`` ({asset path: {placeholder: text}}) are written in first
    (figures only the build knows), so the hash covers them. Raises AssetError for a
    missing target, an import cycle or a placeholder that is not there."""
    files = {p.relative_to(source).as_posix(): p.read_bytes()
             for p in sorted(source.rglob("*")) if p.is_file() and "__pycache__" not in p.parts}
    for rel, pairs in (fills or {}).items():
        for mark, text in pairs.items():
            if rel not in files or mark.encode() not in files[rel]:
                raise AssetError(f"{rel} has no {mark} to fill in")
            files[rel] = files[rel].replace(mark.encode(), text.encode())
    deps: dict[str, list[tuple[int, int, str]]] = {}
    problems = []
    for rel, data in files.items():
        refs = references(rel, data.decode("utf-8")) if _patterns(rel) else []
        for _, _, target in refs:
            if target not in files:
                problems.append(f"{rel} refers to {target}, which is not among the assets")
        deps[rel] = refs
    if problems:
        raise AssetError("; ".join(problems))
    done: dict[str, tuple[str, bytes]] = {}
    visiting: list[str] = []

    def visit(rel: str) -> None:
        if rel in done:
            return
        if rel in visiting:
            raise AssetError("the assets import each other in a cycle: " + " -> ".join(visiting + [rel]))
        visiting.append(rel)
        for _, _, target in deps[rel]:
            visit(target)
        visiting.pop()
        data = files[rel]
        if deps[rel]:
            text = data.decode("utf-8")
            out, last = [], 0
            for start, end, target in deps[rel]:
                out += [text[last:start], _relative_spec(text[start:end], done[target][0], rel)]
                last = end
            out.append(text[last:])
            data = "".join(out).encode("utf-8")
        done[rel] = (hashed_name(rel, data), data)

    for rel in files:
        visit(rel)
    return done


def unhashed(rel: str) -> str:
    """``calculators.1a2b3c4d5e6f.js`` -> ``calculators.js`` (other names unchanged)."""
    match = HASHED_NAME.match(rel)
    return match.group("stem") + match.group("ext") if match else rel


def rewrite_page_references(html: str, prefix: str, lookup: Callable[[str], str | None],
                            missing: list[str]) -> str:
    """Point every ``src``/``href``/``data-module`` naming ``{prefix}/...`` at its hashed
    name (``lookup`` maps an asset path to its hashed path); unknown names go in ``missing``."""
    pattern = re.compile(
        r"""(?P<attr>\b(?:src|href|data-module)=)(?P<q>["']?)(?P<head>[^"'\s>]*?)"""
        + re.escape(prefix) + r"""/(?P<rel>[^"'\s>?#]+)""")

    def swap(match: re.Match[str]) -> str:
        rel = match.group("rel")
        new = lookup(rel)
        if new is None:
            missing.append(f"{prefix}/{rel}")
            return match.group(0)
        return f"{match.group('attr')}{match.group('q')}{match.group('head')}{prefix}/{new}"

    return pattern.sub(swap, html)
