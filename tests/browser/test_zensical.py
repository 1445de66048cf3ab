"""The site built with Zensical (the successor of MkDocs Material) passes the same browser
crawl as the MkDocs build: every page loads clean under the policy, and every widget and
app goes live in Chromium and agrees with CPython. The checks are the MkDocs suite's own
(test_crawl.py, test_every_widget.py), run against the Zensical build."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from tests.browser import test_crawl, test_every_widget
from tests.browser.conftest import logged_page
from tests.browser.support import RUNTIME_TIMEOUT_MS, runtime_held, site_pages

pytestmark = [pytest.mark.browser, pytest.mark.zensical]


def test_zensical_built_the_site(zensical_site) -> None:  # type: ignore[no-untyped-def]
    generator = (zensical_site.dir / "index.html").read_text(encoding="utf-8")
    assert '<meta name="generator" content="zensical-' in generator
    assert len(site_pages(zensical_site, widgets_only=True)) >= 10


def test_every_zensical_page_loads_clean(browser: Browser, zensical_site) -> None:  # type: ignore[no-untyped-def]
    test_crawl.test_every_page_loads_clean(browser, zensical_site)


def test_every_zensical_widget_goes_live_and_agrees_with_cpython(
        browser: Browser, zensical_site) -> None:  # type: ignore[no-untyped-def]
    with logged_page(browser, zensical_site) as page:
        test_every_widget.test_every_widget_goes_live_agrees_with_cpython_and_refuses_bad_input(
            page, zensical_site)


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
