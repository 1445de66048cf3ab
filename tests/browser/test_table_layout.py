"""Phone and desktop layout of the widgets, in Chromium: long exact fractions fold away
on a phone; a recompute keeps the views the reader chose; a compact summary stays in view
while editing on a phone; a calculator page prints with its inputs; the focus ring is 3:1
or more and unlike the error outline; threshold charts open on "at least"; every system's
index lists its calculators. (Tables keeping to their widget on every page, and no page
scrolling sideways: every_page.py.)
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page

from rules_core import api
from rules_core.catalog import SYSTEMS
from tests.browser import support
from tests.browser.support import goto_once, shot_path, wait_result, wait_settled, widget

pytestmark = pytest.mark.browser

SIZES = {"desktop": (1366, 900), "phone": (390, 844)}
SHOTS = support.SHOTS / "layout"

# Scroll (to the page's foot, or the heroic.melee widget into view as a link to it does)
# and resolve once the theme has handled the scroll event and two frames are drawn; at
# once when nothing moved (no scroll event comes then).
SCROLL_SEEN = """to => new Promise(resolve => {
  const settle = () => requestAnimationFrame(() => requestAnimationFrame(resolve));
  const before = window.scrollY;
  addEventListener('scroll', settle, { once: true });
  if (to === 'foot') window.scrollTo(0, document.documentElement.scrollHeight);
  else document.querySelector('.calc[data-calculator="heroic.melee"]').scrollIntoView({ block: 'start' });
  if (window.scrollY === before) { removeEventListener('scroll', settle); settle(); }
})"""


@pytest.fixture(scope="module")
def page(module_page: Page, site) -> Page:  # type: ignore[no-untyped-def]
    module_page.goto(site.url)
    return module_page


def test_long_fractions_fold_away_on_a_phone(page: Page, site) -> None:  # type: ignore[no-untyped-def]
    goto_once(page, site, "cortex/rolls/")
    root = widget(page, "cortex.odds")
    assert wait_settled(page, root) == "ready"
    table = root.locator("table.calc-long-exact").first
    assert table.count() == 1
    details = table.locator("xpath=ancestor::details[1]")
    details.evaluate("d => { d.open = true; }")
    last = table.locator("tbody tr").first.locator("td").last
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        assert not last.is_visible()
        toggle = details.locator(".calc-show-exact")
        assert toggle.is_visible() and toggle.bounding_box()["height"] >= 40  # type: ignore[index]
        toggle.click()
        assert last.is_visible() and "/" in last.inner_text()
        toggle.click()
        assert not last.is_visible()
        page.set_viewport_size({"width": 1366, "height": 900})
        assert last.is_visible() and not toggle.is_visible()  # wide screens show it always
    finally:
        page.set_viewport_size({"width": 1366, "height": 900})


def test_a_recompute_keeps_the_tables_views_and_fractions_the_reader_chose(page: Page, site) -> None:  # type: ignore[no-untyped-def]
    goto_once(page, site, "cortex/rolls/")
    root = widget(page, "cortex.odds")
    assert wait_settled(page, root) == "ready"
    charts = root.locator(".calc-result .calc-chart")
    assert charts.count() >= 2
    first, second = charts.nth(0), charts.nth(1)
    assert second.locator("details.calc-table").evaluate("d => !d.open")  # as built
    second.locator("details.calc-table > summary").click()
    first.locator(".calc-chart-toggle label").filter(has_text="Exactly").click()
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        fractions = root.locator(".calc-result .calc-show-exact input").first
        fractions.check()

        def chosen() -> dict:
            return {"second table open": second.locator("details.calc-table").evaluate("d => d.open"),
                    "first chart": first.locator(".calc-chart-toggle input:checked").get_attribute("value"),
                    "fractions shown": fractions.is_checked()}
        before = chosen()
        assert before == {"second table open": True, "first chart": "exactly", "fractions shown": True}
        reply = wait_result(page, root, lambda: page.fill("#calc-odds-attacker", "d10 d8 d6"))
        assert reply["ok"]
        assert chosen() == before
    finally:
        page.set_viewport_size({"width": 1366, "height": 900})
        wait_result(page, root, lambda: root.locator('[data-action="reset"]').click())


def test_a_compact_summary_stays_in_view_while_editing_on_a_phone(page: Page, site) -> None:  # type: ignore[no-untyped-def]
    goto_once(page, site, "heroic/melee/")
    root = widget(page, "heroic.melee")
    assert wait_settled(page, root) == "ready"
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        sticky = root.locator(".calc-sticky")
        assert not sticky.is_visible()
        first = root.locator(".calc-field:not([hidden]) input, .calc-field:not([hidden]) select").first
        first.focus()
        first.scroll_into_view_if_needed()
        assert sticky.is_visible()
        box = sticky.bounding_box()
        assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 844 + 0.5
        headline = root.locator(".calc-result > .calc-headline dd").first.inner_text()
        assert headline in sticky.inner_text()
        assert sticky.get_attribute("aria-hidden") == "true"
        page.screenshot(path=str(shot_path("heroic/melee/editing", "phone", "layout")))
        # on a wide screen the result is beside the inputs: no summary
        page.set_viewport_size({"width": 1366, "height": 900})
        assert not sticky.is_visible()
    finally:
        page.set_viewport_size({"width": 1366, "height": 900})


def _luminance(color: str) -> float:
    r, g, b = (int(float(v)) for v in re.findall(r"[\d.]+", color)[:3])

    def lin(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def _contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_focus_ring_has_contrast_and_differs_from_the_error_outline(page: Page, site) -> None:  # type: ignore[no-untyped-def]
    goto_once(page, site, "gunplay/bursts/")
    root = widget(page, "gunplay.hit_odds")
    assert wait_settled(page, root) == "ready"
    page.locator("#calc-hit-odds-dc").focus()
    page.keyboard.press("Tab")  # keyboard focus: :focus-visible
    ring = page.evaluate("""() => { const s = getComputedStyle(document.activeElement);
        return {color: s.outlineColor, width: parseFloat(s.outlineWidth), style: s.outlineStyle,
                bg: getComputedStyle(document.body).backgroundColor}; }""")
    assert ring["style"] == "solid" and ring["width"] >= 3
    assert _contrast(ring["color"], ring["bg"]) >= 3, ring
    error = root.evaluate("r => getComputedStyle(r).getPropertyValue('--calc-error').trim()")
    assert ring["color"] != error and _luminance(ring["color"]) != _luminance(
        page.evaluate("c => { const d = document.createElement('div'); d.style.color = c; document.body.append(d);"
                      " const v = getComputedStyle(d).color; d.remove(); return v; }", error))


def test_focused_and_hovered_buttons_keep_their_text_readable(page: Page, site) -> None:  # type: ignore[no-untyped-def]
    """A button clicked (focused, not :focus-visible) or hovered, in a widget and in the
    page's own text, in light and dark: its text at least 4.5:1 on its background."""
    goto_once(page, site, "gunplay/difficulty/")
    root = widget(page, "gunplay.hit_chance")
    assert wait_settled(page, root) == "ready"
    page.evaluate("""() => { const b = document.createElement('a'); b.href = '#';
        b.className = 'md-button md-button--primary'; b.id = 'probe-button'; b.textContent = 'Probe';
        document.querySelector('.md-typeset').append(b); }""")
    read = """el => { const s = getComputedStyle(el); return [s.color, s.backgroundColor]; }"""
    try:
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            for target in (root.locator('[data-action="roll"]'), root.locator('[data-action="share"]'),
                           page.locator("#probe-button")):
                target.focus()
                page.wait_for_timeout(300)  # Material's colour transition
                color, bg = target.evaluate(read)
                assert _contrast(color, bg) >= 4.5, (scheme, color, bg)
                target.hover()
                page.wait_for_timeout(300)
                color, bg = target.evaluate(read)
                assert _contrast(color, bg) >= 4.5, (scheme, "hover", color, bg)
                page.mouse.move(0, 0)
    finally:
        page.emulate_media(color_scheme="light")
        page.evaluate("() => document.getElementById('probe-button')?.remove()")


def test_threshold_charts_open_on_at_least(page: Page, site) -> None:  # type: ignore[no-untyped-def]
    goto_once(page, site, "heroic/morale/")
    chart = widget(page, "heroic.morale").locator(".calc-chart").first
    assert chart.locator(".calc-view-at_least").is_visible()
    assert not chart.locator(".calc-view-exactly").is_visible()
    assert chart.locator('input[value="at_least"]').is_checked()
    # the break zone stands out: its bars are drawn in the error colour, the others are not
    zone = chart.locator(".calc-view-at_least .calc-bar-zone .calc-bar-fill").first
    other = chart.locator(".calc-view-at_least .calc-bar:not(.calc-bar-zone) .calc-bar-fill").first
    assert zone.evaluate("e => getComputedStyle(e).backgroundImage").startswith("repeating-linear-gradient")
    assert other.evaluate("e => getComputedStyle(e).backgroundImage") == "none"
    assert "or more: breaks" in chart.locator(".calc-chart-zone").inner_text()


def test_a_calculator_page_prints_with_its_inputs(page: Page, site) -> None:  # type: ignore[no-untyped-def]
    goto_once(page, site, "gunplay/bursts/")
    root = widget(page, "gunplay.hit_odds")
    page.emulate_media(media="print")
    try:
        assert root.locator(".calc-form").is_visible()
        assert root.locator("#calc-hit-odds-dc").is_visible()
        assert not root.locator(".calc-actions").is_visible()
        assert not root.locator(".calc-status").is_visible()
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.pdf(path=str(SHOTS / "gunplay-bursts-print.pdf"), format="A4")
    finally:
        page.emulate_media(media="screen")


def test_copy_link_has_no_section_anchor(page: Page, site) -> None:  # type: ignore[no-untyped-def]
    goto_once(page, site, "gunplay/bursts/")
    page.evaluate("() => { location.hash = 'hit-odds'; }")
    root = widget(page, "gunplay.hit_odds")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    root.locator('[data-action="share"]').click()
    page.wait_for_function("el => /Link copied|Share this link/.test(el.querySelector('.calc-status').textContent)",
                           arg=root.element_handle())
    status = root.locator(".calc-status").inner_text()
    copied = page.evaluate("() => navigator.clipboard.readText()") if "copied" in status else status
    assert "gunplay/bursts/" in copied and "#" not in copied


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_system_index_lists_its_calculators(page: Page, site, system: str) -> None:  # type: ignore[no-untyped-def]
    html = (site.dir / system / "index.html").read_text(encoding="utf-8")
    listed = re.findall(r'<tr><td><a href="([^"]+)">', html.split("tcr-calculator-list", 1)[1].split("</table>")[0])
    placed = [n for n in api.names() if n.startswith(system + ".")]
    assert len(listed) >= 1 and len(listed) <= len(placed)
    for href in listed:  # each link lands on its widget
        path, anchor = href.split("#")
        target = (site.dir / system / path / "index.html").resolve()
        assert f'id="{anchor}"' in target.read_text(encoding="utf-8"), href


@pytest.mark.parametrize("size", list(SIZES))
def test_a_widget_scrolled_to_stops_below_the_header_and_back_to_top(page: Page, site, size: str) -> None:  # type: ignore[no-untyped-def]
    """Scrolling up to a widget (as a link to a widget does; "Use this DC" and a roll's
    dice scroll to a field and to the dice the same way): its title lands below the
    sticky header and the theme's "Back to top" button, which shows while the page
    scrolls up, not under them."""
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    try:
        goto_once(page, site, "heroic/melee/")
        root = widget(page, "heroic.melee")
        assert wait_settled(page, root) == "ready"
        # Material shows the pill when it sees the page scroll up: the theme must have seen
        # the scroll down (its scroll event handled) before the scroll up, or on a busy
        # machine both land in one frame and the theme sees no scroll up at all
        page.evaluate(SCROLL_SEEN, "foot")
        assert page.evaluate("() => window.scrollY") > 0
        page.evaluate(SCROLL_SEEN, "widget")
        top = page.locator(".md-top")
        page.wait_for_function("() => !document.querySelector('.md-top').hidden")
        # the button's fade-in has ended: its box is where it stays
        page.wait_for_function("() => getComputedStyle(document.querySelector('.md-top')).opacity === '1'")
        title = root.locator(".calc-title").bounding_box()
        pill = top.bounding_box()
        header = page.locator(".md-header").bounding_box()
        assert title and pill and header
        assert title["y"] >= header["y"] + header["height"], (title, header)
        assert title["y"] >= pill["y"] + pill["height"], (size, title, pill)
        assert title["y"] + title["height"] <= height
    finally:
        page.set_viewport_size({"width": 1366, "height": 900})
