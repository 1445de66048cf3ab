"""No layout shift when an app goes live: the army builder and the action dice tracker
occupy their final size in the prerendered HTML (a first visit, nothing saved), so the
app keeps its height and the element below it stays where it was relative to the app,
from before the app's module ran to once it is ready, on a phone (390 px) and a desktop
(1366 px). (Measured relative to the app: other widgets above an app are not its doing.)"""

from __future__ import annotations

from urllib.parse import urlparse

import pytest
from playwright.sync_api import Browser

from tests.browser.support import RUNTIME_TIMEOUT_MS

pytestmark = pytest.mark.browser

# Before any module runs: where the element after the app is, and every layout shift.
WATCH = """
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__shifts.push({ value: e.value, input: e.hadRecentInput,
    sources: (e.sources || []).map((s) => s.node ? (s.node.className || s.node.nodeName) : "?") });
}).observe({ type: "layout-shift", buffered: true });
document.addEventListener("DOMContentLoaded", () => {
  const app = document.querySelector(".calc-app");
  window.__statusAtFirst = app.dataset.status;
  const below = app.nextElementSibling;
  window.__belowBefore = below.getBoundingClientRect().top - app.getBoundingClientRect().top;
  window.__appBefore = app.getBoundingClientRect().height;
});
"""


@pytest.mark.parametrize("width", [390, 1366])
@pytest.mark.parametrize("path", ["sucs/roster/", "phases/tracker/"])
def test_app_goes_live_without_moving_the_page(browser: Browser, site, path: str, width: int) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(base_url=site.url, viewport={"width": width, "height": 844},
                                  service_workers="block")
    host = urlparse(site.url).netloc
    context.route("**/*", lambda route: route.abort() if urlparse(route.request.url).netloc
                  not in (host, "") else route.continue_())
    try:
        page = context.new_page()
        page.add_init_script(WATCH)
        page.goto(site.url + path)
        page.wait_for_function(
            "() => { const el = document.querySelector('.calc-app');"
            " return el.dataset.status === 'ready' && !el._busy; }", timeout=RUNTIME_TIMEOUT_MS)
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done(null)))")  # a frame laid out
        found = page.evaluate("""() => {
            const app = document.querySelector('.calc-app');
            return { first: window.__statusAtFirst, before: window.__belowBefore,
                     after: app.nextElementSibling.getBoundingClientRect().top - app.getBoundingClientRect().top,
                     appBefore: window.__appBefore, appAfter: app.getBoundingClientRect().height,
                     shifts: window.__shifts }; }""")
        assert found["first"] == "prerendered"  # measured before the app went live
        assert found["after"] == found["before"], found
        assert found["appAfter"] == found["appBefore"], found
        inside = [s for s in found["shifts"] if any("sucs" in n or "pt-" in n for n in s["sources"])]
        assert inside == [], inside  # no shift reported for the app's own parts
    finally:
        context.close()
