"""Offline after the first visit: the service worker serves pages and the runtime,
calculators still compute with the network off, and a new build replaces the old cache."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page

from tests.browser.support import RUNTIME_TIMEOUT_MS, wait_settled, widget

pytestmark = pytest.mark.browser


def _wait_cached(page: Page, site) -> None:  # type: ignore[no-untyped-def]
    """Until the service worker holds the pages and every file of the runtime."""
    text = (site.dir / "sw.js").read_text()
    runtime = json.loads(re.search(r"const RUNTIME_FILES = (\[.*?\]);", text).group(1))  # type: ignore[union-attr]
    assert any(name.endswith(".wasm") for name in runtime) and len(runtime) >= 6
    page.wait_for_function(
        """async (files) => {
             const keys = await caches.keys();
             if (!keys.some(k => k.startsWith('tcr-shell-')) || !keys.includes('tcr-runtime')) return false;
             const kept = new Set((await (await caches.open('tcr-runtime')).keys())
                                  .map(r => new URL(r.url).pathname));
             return files.every(f => [...kept].some(k => k.endsWith('/' + f)));
           }""",
        arg=runtime, timeout=RUNTIME_TIMEOUT_MS, polling=500)


def test_site_and_calculators_work_offline_after_first_visit(browser, site) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site.url + "gunplay/difficulty/")
    assert wait_settled(page, widget(page, "gunplay.difficulty")) == "ready"
    _wait_cached(page, site)

    context.set_offline(True)
    page.goto(site.url + "gunplay/bursts/")  # a full load, served by the service worker
    root = widget(page, "gunplay.hit_odds")
    assert wait_settled(page, root) == "ready"
    assert "live" in root.locator(".calc-status").inner_text()
    page.goto(site.url + "rulings/")
    assert page.locator("h1").first.inner_text().startswith("Rulings and errata")
    assert errors == []

    # A new build: the browser picks up the new worker, which drops the old page cache.
    context.set_offline(False)
    sw = site.dir / "sw.js"
    original = sw.read_text()
    old = re.search(r'const VERSION = "([0-9a-f]+)"', original).group(1)  # type: ignore[union-attr]
    try:
        sw.write_text(original.replace(old, "feedfacefeedface", 1))
        page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
        page.wait_for_function(
            """async (old) => { const keys = await caches.keys();
                                return keys.includes('tcr-shell-feedfacefeedface')
                                    && !keys.some(k => k.endsWith(old)); }""", arg=old,
            timeout=60_000, polling=250)
    finally:
        sw.write_text(original)
    context.close()
