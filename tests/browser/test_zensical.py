"""The site built with Zensical (the successor of MkDocs Material) passes the same browser
crawl as the MkDocs build: every page loads clean under the policy, and every widget and
app goes live in Chromium and agrees with CPython. The checks are the MkDocs suite's own
(crawl.py, test_every_widget.py), run against the Zensical build.

The widgets' HTML and the calculators' assets are the same bytes in both builds (checked
here), so the longest part of the MkDocs crawl, a refused value typed into every input
and the old one put back, is not repeated: what differs between the builds is the
theme around the widgets, which the crawls here still cover page by page."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser import test_every_widget
from tests.browser.conftest import logged_page
from tests.browser.crawl import crawl
from tests.browser.support import RUNTIME_TIMEOUT_MS, runtime_held, site_pages
from tests.site.test_site import broken_links, parse_pages

pytestmark = [pytest.mark.browser, pytest.mark.zensical]


def test_zensical_built_the_site(zensical_site) -> None:  # type: ignore[no-untyped-def]
    generator = (zensical_site.dir / "index.html").read_text(encoding="utf-8")
    assert '<meta name="generator" content="zensical-' in generator
    assert len(site_pages(zensical_site, widgets_only=True)) >= 10


class _Widgets(HTMLParser):
    """The source text of every widget and app element on a page."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=False)
        self.text, self.found = text, []
        self._stack: list[tuple[str, int, bool]] = []
        self._starts = [0]
        for line in text.splitlines(keepends=True):
            self._starts.append(self._starts[-1] + len(line))
        self.feed(text)

    def _offset(self) -> int:
        line, column = self.getpos()
        return self._starts[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.VOID:
            names = dict(attrs)
            classes = (names.get("class") or "").split()
            widget = ("calc" in classes and "data-calculator" in names) or ("calc-app" in classes and "data-app" in names)
            self._stack.append((tag, self._offset(), widget))

    def handle_endtag(self, tag: str) -> None:
        while self._stack:
            name, start, widget = self._stack.pop()
            if name == tag:
                if widget:
                    self.found.append(self.text[start:self.text.index(">", self._offset()) + 1])
                return


def _widgets(page: Path) -> list[str]:
    # MkDocs Material's search reads data-search-exclude, which Zensical's build leaves
    # out; each build has its own id
    return [re.sub(r' data-build="[0-9a-f]+"', "", html.replace(" data-search-exclude", ""))
            for html in _Widgets(page.read_text(encoding="utf-8")).found]


def test_zensical_widgets_and_assets_are_the_mkdocs_ones(site, zensical_site) -> None:  # type: ignore[no-untyped-def]
    pages = site_pages(site, widgets_only=True)
    assert site_pages(zensical_site, widgets_only=True) == pages
    count = 0
    for rel in pages:
        ours, theirs = _widgets(site.dir / rel / "index.html"), _widgets(zensical_site.dir / rel / "index.html")
        assert ours and theirs == ours, rel
        count += len(ours)
    assert count >= 40
    assets = sorted(p.relative_to(site.dir) for p in (site.dir / "assets/calculators").rglob("*") if p.is_file())
    assert assets == sorted(p.relative_to(zensical_site.dir)
                            for p in (zensical_site.dir / "assets/calculators").rglob("*") if p.is_file())
    for rel in assets:
        assert (site.dir / rel).read_bytes() == (zensical_site.dir / rel).read_bytes(), rel


def test_zensical_links_and_anchors_resolve(zensical_site) -> None:  # type: ignore[no-untyped-def]
    """Links in the widgets and tables too: Zensical takes the site-root placeholder they
    are written with for a link relative to the source file (it gained a "../")."""
    assert broken_links(zensical_site.dir, parse_pages(zensical_site.dir)) == []


def test_every_zensical_page_loads_clean(browser: Browser, zensical_site) -> None:  # type: ignore[no-untyped-def]
    found = crawl(browser, zensical_site, "laptop", checks=("clean",))
    assert len(found.pages) >= 40
    assert found.problems["clean"] == []


def test_every_zensical_widget_goes_live_and_agrees_with_cpython(
        browser: Browser, zensical_site) -> None:  # type: ignore[no-untyped-def]
    with logged_page(browser, zensical_site) as page:
        test_every_widget.check_every_widget(page, zensical_site, bad_inputs=False)


def test_zensical_search_opened_while_a_calculator_loads_answers(
        browser: Browser, zensical_site) -> None:  # type: ignore[no-untyped-def]
    """The head of a calculator page holds the theme's search worker back until the
    calculators are live or the reader acts; Zensical's search (which sets the worker's
    handlers as properties) opened meanwhile gets its worker and answers."""
    with logged_page(browser, zensical_site) as page, runtime_held(page):
        page.goto("gunplay/difficulty/")
        page.wait_for_function("() => document.documentElement.dataset.runtime === 'loading'")
        page.locator(".md-search__button").first.click()
        page.keyboard.type("morale")
        expect(page.get_by_text(re.compile(r"^\d+ results?$"))).to_be_visible(timeout=RUNTIME_TIMEOUT_MS)
