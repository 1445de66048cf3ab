"""The built site: strict build, every page reachable and titled, internal links and
anchors resolve, every calculator appears on a page with its prerendered result."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlparse

import pytest

from rules_core import api

pytestmark = pytest.mark.site


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.title = ""
        self._in_title = False
        self.calculators: list[str] = []
        self.statuses: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])  # type: ignore[arg-type]
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])  # type: ignore[arg-type]
        if tag == "title":
            self._in_title = True
        if a.get("data-calculator"):
            self.calculators.append(a["data-calculator"])  # type: ignore[arg-type]
            self.statuses.append(a.get("data-status") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data


def parse_pages(site_dir: Path) -> dict[str, _Page]:
    parsed = {}
    for path in sorted(site_dir.rglob("*.html")):
        rel = path.relative_to(site_dir).as_posix()
        page = _Page()
        page.feed(path.read_text(encoding="utf-8"))
        parsed[rel] = page
    return parsed


@pytest.fixture(scope="module")
def pages(site) -> dict[str, _Page]:  # type: ignore[no-untyped-def]
    return parse_pages(site.dir)


def _url_to_file(site_dir: Path, url: str) -> Path:
    path = unquote(urlparse(url).path).lstrip("/")
    target = site_dir / path
    if path.endswith("/") or path == "" or target.is_dir():
        target = target / "index.html"
    return target


def test_every_page_has_a_title(pages: dict[str, _Page]) -> None:
    for rel, page in pages.items():
        assert page.title.strip(), rel


#: the links are followed as if the site were published under a path (GitHub Pages'
#: /project/), where a link with one "../" too many leaves the site; at a server's root
#: the browser would quietly drop the extra step
PUBLISHED = "https://pages.example/tcr/"


def broken_links(site_dir: Path, pages: dict[str, _Page]) -> list[str]:
    broken = []
    for rel, page in pages.items():
        if rel == "404.html":
            continue
        for href in page.links:
            url = urljoin(PUBLISHED + rel, href)
            if not url.startswith(PUBLISHED):
                if urlparse(url).netloc == urlparse(PUBLISHED).netloc:
                    broken.append(f"{rel}: {href} (leaves the site)")
                continue
            target = _url_to_file(site_dir, "/" + url[len(PUBLISHED):])
            if not target.exists():
                broken.append(f"{rel}: {href}")
                continue
            fragment = urlparse(url).fragment
            if fragment and target.suffix == ".html":
                target_rel = target.relative_to(site_dir).as_posix()
                if fragment not in pages[target_rel].ids:
                    broken.append(f"{rel}: {href} (no anchor)")
    return broken


def test_internal_links_and_anchors_resolve(site, pages: dict[str, _Page]) -> None:  # type: ignore[no-untyped-def]
    assert broken_links(site.dir, pages) == []


def test_every_page_is_reachable_from_the_home_page(site, pages: dict[str, _Page]) -> None:  # type: ignore[no-untyped-def]
    seen, queue = {"index.html"}, ["index.html"]
    while queue:
        rel = queue.pop()
        for href in pages[rel].links:
            url = urljoin(site.url + rel, href)
            if url.startswith(site.url):
                target = _url_to_file(site.dir, url)
                if target.exists() and target.suffix == ".html":
                    t = target.relative_to(site.dir).as_posix()
                    if t not in seen:
                        seen.add(t)
                        queue.append(t)
    assert set(pages) - seen - {"404.html"} == set()


def test_every_calculator_is_on_a_page_and_prerendered(pages: dict[str, _Page]) -> None:
    placed = {name for page in pages.values() for name in page.calculators}
    apps = set()
    for rel, page in pages.items():
        assert all(status == "prerendered" for status in page.statuses), rel
    # calculators used only through an app (roster, tracker) are listed by the app's module
    for path in Path("calculators/assets/apps").glob("*.js"):
        apps |= set(re.findall(r'"([a-z]+\.[a-z_]+)"', path.read_text()))
    missing = set(api.names()) - placed - apps
    assert missing == set()


def test_runtime_is_self_hosted(site) -> None:  # type: ignore[no-untyped-def]
    base = site.dir / "assets" / "pyodide" / "314.0.7"
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json"):
        assert (base / name).stat().st_size > 0
    bundles = list((site.dir / "assets" / "calculators").glob("python-*.zip"))
    assert len(bundles) == 1
    import zipfile

    archive = zipfile.ZipFile(bundles[0])
    names = archive.namelist()
    # compiled for the browser's Python: no source to compile at start-up
    for module in ("rules_core/api.pyc", "calculators/runtime.pyc", "calculators/render.pyc",
                   "icepool/__init__.pyc", "markdown_it/__init__.pyc"):
        assert module in names
    assert not [n for n in names if n.endswith(".py")]
    assert not [n for n in names if n.startswith("calculators/fence") or "__pycache__" in n]
    heads = {archive.read(n)[:8] for n in names if n.endswith(".pyc")}
    # one Python (Pyodide's, not this one's), unchecked hash-based files (PEP 552 flags 0b01)
    assert len(heads) == 1 and heads.pop()[4:8] == (1).to_bytes(4, "little")


def test_pages_reference_no_third_party_host(site) -> None:  # type: ignore[no-untyped-def]
    for path in site.dir.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        for src in re.findall(r'<(?:script|link|img)[^>]+(?:src|href)="([^"]+)"', text):
            assert not src.startswith(("http://", "https://", "//")) or src.startswith(site.url), \
                f"{path}: {src}"
