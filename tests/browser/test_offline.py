"""Offline after the first visit: the service worker serves pages and the runtime,
calculators still compute with the network off, an unknown address gets the site's own
404 page, and a download cancelled by a reload is never kept half-done."""

from __future__ import annotations

import pytest

from tests.browser.support import wait_offline_copy, wait_settled, widget

pytestmark = pytest.mark.browser


def test_site_and_calculators_work_offline_after_first_visit(browser, site) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site.url + "gunplay/difficulty/")
    # reload while the runtime is still downloading: the cancelled fetch is handled and
    # nothing half-downloaded is kept (the copy below is checked file by file, by hash)
    with page.expect_request(lambda r: r.url.endswith(".wasm")):
        pass
    page.reload()
    assert wait_settled(page, widget(page, "gunplay.difficulty")) == "ready"
    wait_offline_copy(page, site.dir, site.url)

    context.set_offline(True)
    page.goto(site.url + "gunplay/bursts/")  # a full load, served by the service worker
    root = widget(page, "gunplay.hit_odds")
    assert wait_settled(page, root) == "ready"
    assert "live" in root.locator(".calc-status").inner_text()
    page.goto(site.url + "rulings/")
    assert page.locator("h1").first.inner_text().startswith("Rulings and errata")
    # an address the site does not have: its own 404 page, not the browser's error page
    response = page.goto(site.url + "no/such/page/")
    assert response is not None and response.status == 404
    assert "404" in page.locator("article, .md-content").first.inner_text()
    assert errors == []
    context.close()
