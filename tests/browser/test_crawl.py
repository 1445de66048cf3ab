"""Rules pages read well without JavaScript, and with the runtime blocked, widgets say so
and keep their results. (Every page loading clean, accessibility and the rest of what one
visit of a page can check: every_page.py.)"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.browser.crawl import WATCH_CSP
from tests.browser.support import RUNTIME_TIMEOUT_MS, site_pages, wait_settled

pytestmark = pytest.mark.browser



def test_pages_read_well_without_javascript(browser: Browser, site) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    for rel in site_pages(site):
        page.goto(site.url + rel)
        assert page.locator("h1").first.is_visible(), rel
        assert page.locator("article").inner_text().strip(), rel
        for root in page.locator(".calc[data-calculator]").all():
            assert root.get_attribute("data-status") == "prerendered"
            assert root.locator(".calc-result .calc-headline dd").first.is_visible(), rel
    context.close()


def test_runtime_blocked_widgets_say_so_and_keep_results(browser: Browser, site) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(service_workers="block")
    context.route("**/assets/pyodide/**", lambda route: route.abort())
    context.add_init_script(WATCH_CSP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    for rel in ("gunplay/difficulty/", "gunplay/bursts/"):
        page.goto(site.url + rel)
        roots = page.locator(".calc[data-calculator]").all()
        assert roots
        for root in roots:
            assert wait_settled(page, root) == "error"
            status = root.locator(".calc-status").inner_text()
            assert "Live calculation is unavailable" in status
            assert "worked out when the page was built" in status
            assert root.locator(".calc-headline dd").first.is_visible()
        # changing an input keeps the page responsive and the message plain: the change
        # tries the runtime again, which fails again and says so
        first = roots[0].locator("select, input").first
        first.focus()
        page.keyboard.press("ArrowDown")
        page.wait_for_function(
            "el => el.dataset.status === 'error' && /unavailable/.test("
            "el.querySelector('.calc-status').textContent)",
            arg=roots[0].element_handle(), timeout=RUNTIME_TIMEOUT_MS)
        assert roots[0].locator(".calc-headline dd").first.is_visible()
        assert page.evaluate("window.__rejections") == []
    assert errors == []
    context.close()


