"""Every built page in Chromium: no console error, no failed request, no request to
another host, no Content-Security-Policy violation; rules pages read well without
JavaScript; and with the runtime blocked, widgets say so and keep their results."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Request

from tests.browser.support import RUNTIME_TIMEOUT_MS, instant_goto, site_pages, wait_settled

pytestmark = pytest.mark.browser

WATCH_CSP = """
window.__csp = [];
document.addEventListener('securitypolicyviolation',
  e => window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
window.__rejections = [];
window.addEventListener('unhandledrejection', e => window.__rejections.push(String(e.reason)));
"""


def test_every_page_loads_clean(browser: Browser, site) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(service_workers="block")
    problems: list[str] = []
    context.on("request", lambda r: problems.append(f"off-site request {r.url}")
               if not r.url.startswith((site.url, "data:", "blob:")) else None)
    leaving = [False]  # a request the page still had in flight when the crawl moved on

    def failed(request: Request) -> None:  # is cut off by the navigation: not a failure
        if not (leaving[0] and request.failure == "net::ERR_ABORTED"):
            problems.append(f"failed {request.url} {request.failure}")

    context.on("requestfailed", failed)
    context.add_init_script(WATCH_CSP)
    page = context.new_page()
    page.on("console", lambda m: problems.append(f"console {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"page error {e}"))
    pages = site_pages(site)
    for rel in pages:
        leaving[0] = True
        page.goto(site.url + rel)
        leaving[0] = False
        page.wait_for_load_state("networkidle", timeout=RUNTIME_TIMEOUT_MS)
        for root in page.locator(".calc[data-calculator], .calc-app[data-app]").all():
            status = wait_settled(page, root)
            if status != "ready":
                problems.append(f"{rel}: widget status {status}")
        for item in page.evaluate("window.__csp.concat(window.__rejections)"):
            problems.append(f"{rel}: {item}")
    assert len(pages) >= 10
    assert problems == []
    context.close()


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


def test_accessibility_has_no_violations(browser: Browser, site) -> None:  # type: ignore[no-untyped-def]
    """axe-core on every page, light and dark, with the widgets live (instant navigation
    from page to page, as a reader moves, so Pyodide loads once per scheme): no violation
    of any impact, moderate ones (landmarks of one name) and minor ones included."""
    from pathlib import Path

    axe = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
    assert axe.exists(), "run `npm ci` (make test does) to install axe-core"
    found: list[str] = []
    for scheme in ("light", "dark"):
        context = browser.new_context(bypass_csp=True, service_workers="block",
                                      color_scheme=scheme)
        page = context.new_page()
        page.goto(site.url)
        page.add_script_tag(path=str(axe))  # stays loaded across instant navigation
        for rel in site_pages(site):
            if rel:
                instant_goto(page, "/" + rel)
            for root in page.locator(".calc[data-calculator], .calc-app[data-app]").all():
                wait_settled(page, root)
            # a result fades back in after a calculation (a short opacity transition, slower
            # on a busy machine): contrast is checked on the result as it finally shows
            page.wait_for_function(
                "() => [...document.querySelectorAll('.calc-result')]"
                ".every(el => getComputedStyle(el).opacity === '1')")
            result = page.evaluate(
                "() => axe.run(document, {resultTypes: ['violations']})"
                ".then(r => r.violations"
                ".map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')))")
            found += [f"{scheme} {rel}: {v}" for v in result]
        context.close()
    assert found == []
