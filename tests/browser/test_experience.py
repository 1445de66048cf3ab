"""The site in both colour schemes and in print. (Every page fitting a phone and a laptop
with touch-sized controls: every_page.py.)

Charts are visible and readable in the light and dark schemes; rules pages, the SUCS roster and the
quick-reference cards print without navigation or widget controls. One Pyodide load:
pages are visited with Material's instant navigation.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page

from rules_core.catalog import SYSTEMS
from tests.browser.support import (
    RUNTIME_TIMEOUT_MS,
    SHOTS,
    goto_once,
    shot_path,
    wait_settled,
    widget,
)

pytestmark = pytest.mark.browser

DESKTOP, PHONE = 1280, 360
TOUCH_PX = 40

@pytest.fixture(scope="module")
def page(module_page: Page, site) -> Page:  # type: ignore[no-untyped-def]
    module_page.goto(site.url)
    return module_page


def _contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two computed CSS colours (rgb/rgba, alpha ignored)."""
    def luminance(color: str) -> float:
        r, g, b = (int(v) for v in re.findall(r"[\d.]+", color)[:3])
        def lin(c: int) -> float:
            s = c / 255
            return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4
        return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


CHART_COLOURS = """root => {
  const chart = root.querySelector('.calc-chart');
  const view = [...chart.querySelectorAll('.calc-bars')].find(v => v.checkVisibility());
  const bars = [...view.querySelectorAll('.calc-bar')];
  const top = bars.find(b => b.style.getPropertyValue('--v').trim() === '1.0000');
  const fill = top.querySelector('.calc-bar-fill').getBoundingClientRect();
  const label = top.querySelector('.calc-bar-label');
  return {
    scheme: document.body.getAttribute('data-md-color-scheme'),
    background: getComputedStyle(document.body).backgroundColor,
    fill: getComputedStyle(top.querySelector('.calc-bar-fill')).backgroundColor,
    label: getComputedStyle(label).color,
    fillBox: [fill.width, fill.height],
    labelsOverlap: bars.some((b, i) => i > 0 && (() => {
      const r1 = bars[i - 1].querySelector('.calc-bar-label').getBoundingClientRect();
      const r2 = b.querySelector('.calc-bar-label').getBoundingClientRect();
      return r1.right > r2.left + 0.5 && r1.bottom > r2.top + 0.5 &&
             r2.right > r1.left + 0.5 && r2.bottom > r1.top + 0.5;
    })()),
    layout: chart.dataset.layout,
  };
}"""


def _set_scheme(page: Page, scheme: str) -> None:
    """Follow the reader's system setting, or use Material's toggle if it stays put."""
    page.emulate_media(color_scheme=scheme)
    want = "slate" if scheme == "dark" else "default"
    if page.evaluate("() => document.body.getAttribute('data-md-color-scheme')") != want:
        page.locator("form[data-tcr-palette] label:visible").first.click()
    page.wait_for_function("s => document.body.getAttribute('data-md-color-scheme') === s",
                           arg=want)


@pytest.mark.parametrize("scheme", ["dark", "light"])
@pytest.mark.parametrize("rel,name", [("sucs/attacks/", "sucs.attack"),
                                      ("cortex/rolls/", "cortex.odds"),
                                      ("phases/momentum/", "phases.table_pick")])
def test_charts_are_visible_and_readable_in_both_schemes(page: Page, site, rel: str, name: str,  # type: ignore[no-untyped-def]
                                                         scheme: str) -> None:
    goto_once(page, site, rel)
    try:
        _set_scheme(page, scheme)
        root = widget(page, name)
        assert wait_settled(page, root) == "ready"
        for width in (DESKTOP, PHONE):
            page.set_viewport_size({"width": width, "height": 900})
            root.scroll_into_view_if_needed()
            info = page.evaluate(CHART_COLOURS, root.element_handle())
            assert min(info["fillBox"]) > 0, info
            assert _contrast(info["fill"], info["background"]) >= 3, info  # graphics: 3:1
            assert _contrast(info["label"], info["background"]) >= 4.5, info  # text: 4.5:1
            assert not info["labelsOverlap"], info
            root.screenshot(path=shot_path(rel, f"{name}-{scheme}-{width}"))
    finally:
        page.set_viewport_size({"width": DESKTOP, "height": 900})
        _set_scheme(page, "light")


def test_chart_views_switch_between_exactly_at_least_and_at_most(page: Page, site) -> None:  # type: ignore[no-untyped-def]
    goto_once(page, site, "gunplay/bursts/")
    chart = widget(page, "gunplay.hit_odds").locator(".calc-chart").first
    assert chart.locator(".calc-view-at_least").is_visible()  # a threshold chart opens on it
    chart.locator("label", has_text="Exactly").click()
    assert chart.locator(".calc-view-exactly").is_visible()
    chart.locator("label", has_text="At least").click()
    assert chart.locator(".calc-view-at_least").is_visible()
    assert not chart.locator(".calc-view-exactly").is_visible()
    first = chart.locator(".calc-view-at_least .calc-bar-value").first.inner_text()
    assert first == "100.0%"  # at least the fewest hits: certain
    chart.locator("label", has_text="Exactly").click()
    assert chart.locator(".calc-view-exactly").is_visible()


#: a widget prints its inputs (.calc-form) but none of its buttons
HIDDEN_IN_PRINT = (".md-header", ".md-sidebar--primary", ".md-sidebar--secondary", ".md-footer",
                   ".calc-actions", ".calc-status", ".calc-chart-toggle", ".calc-rolls")


def _print_visibility(page: Page) -> dict[str, bool]:
    return page.evaluate(
        """selectors => Object.fromEntries(selectors.map(s => [s,
             [...document.querySelectorAll(s)].some(e => e.checkVisibility())]))""",
        list(HIDDEN_IN_PRINT))


def test_a_rules_page_prints_without_navigation_or_widget_controls(page: Page, site) -> None:  # type: ignore[no-untyped-def]
    goto_once(page, site, "sucs/attacks/")
    page.emulate_media(media="print")
    try:
        shown = _print_visibility(page)
        assert not any(shown.values()), shown
        root = widget(page, "sucs.attack")
        assert root.locator(".calc-headline").is_visible()
        assert root.locator(".calc-form input").first.is_visible()  # the inputs print
        assert root.locator(".calc-chart .calc-view-exactly").is_visible()
        table = page.locator(".rules-table table").first
        assert table.is_visible()
        assert table.evaluate("t => getComputedStyle(t).breakInside") == "avoid"
        (SHOTS / "print").mkdir(parents=True, exist_ok=True)
        page.pdf(path=str(SHOTS / "print" / "sucs-attacks.pdf"), format="A4")
    finally:
        page.emulate_media(media="screen")


def test_the_sucs_roster_prints_its_cards_and_nothing_else(page: Page, site) -> None:  # type: ignore[no-untyped-def]
    goto_once(page, site, "sucs/roster/")
    app = page.locator('.calc-app[data-app="sucs_roster"]')
    wait_settled(page, app)
    page.emulate_media(media="print")
    try:
        shown = _print_visibility(page)
        assert not shown[".md-header"] and not shown[".md-sidebar--primary"], shown
        assert not app.locator(".sucs-ui").is_visible()
        assert app.locator(".sucs-cards").is_visible()
        assert not page.locator("article h1").is_visible()
        (SHOTS / "print").mkdir(parents=True, exist_ok=True)
        page.pdf(path=str(SHOTS / "print" / "sucs-roster.pdf"), format="A4")
    finally:
        page.emulate_media(media="screen")


@pytest.mark.parametrize("system", SYSTEMS)
def test_each_quick_reference_card_prints_on_one_sheet(page: Page, site, system: str) -> None:  # type: ignore[no-untyped-def]
    goto_once(page, site, f"quick-reference/{system}/")
    page.emulate_media(media="print")
    try:
        assert not any(_print_visibility(page).values())
        (SHOTS / "print").mkdir(parents=True, exist_ok=True)
        pdf = page.pdf(path=str(SHOTS / "print" / f"quick-reference-{system}.pdf"), format="A4")
    finally:
        page.emulate_media(media="screen")
    pages = len(re.findall(rb"/Type\s*/Page(?!s)", pdf))
    assert pages == 1, f"{system}: the card prints on {pages} A4 pages"


def test_glossary_links_and_tooltips_work_in_the_browser(page: Page, site) -> None:  # type: ignore[no-untyped-def]
    goto_once(page, site, "cortex/")
    page.locator('article a[href$="glossary/#effect-die"]').first.click()
    # the glossary comes by instant navigation (slow on a busy machine) and opens at the
    # term: its heading is in view. The address's hash is not checked: Material's anchor
    # tracking may rewrite it after the page has scrolled (seen under load, at the commit
    # before this one too)
    page.wait_for_function("() => location.pathname.endsWith('/glossary/') && (() => {"
                           " const h = document.querySelector('article h2#effect-die');"
                           " if (!h) return false; const r = h.getBoundingClientRect();"
                           " return r.bottom > 0 && r.top < window.innerHeight; })()",
                           timeout=RUNTIME_TIMEOUT_MS)
    assert page.locator("h2#effect-die").is_visible()
    goto_once(page, site, "cortex/rolls/")
    term = page.locator("article abbr", has_text="effect die").first
    term.scroll_into_view_if_needed()
    term.hover()  # Material turns the abbreviation's title into a tooltip
    tip = page.locator(".md-tooltip2--active, .md-tooltip--active").first
    tip.wait_for(state="visible", timeout=RUNTIME_TIMEOUT_MS)
    assert "size" in tip.inner_text()


def test_one_runtime_and_no_errors(page: Page) -> None:
    assert page.log.page_errors == [] and page.log.external_requests == []  # type: ignore[attr-defined]
    assert page.log.wasm_fetches <= 1  # type: ignore[attr-defined]
