"""Widgets work with a keyboard alone: reach every control with Tab, change values with
the keys, roll with Enter, and the result is announced in a live region."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.support import wait_settled, widget

pytestmark = pytest.mark.browser


def _focus(page: Page, selector: str, limit: int = 200) -> None:
    """Press Tab until ``selector`` has the focus (as a keyboard user would)."""
    for _ in range(limit):
        if page.evaluate("s => document.activeElement?.matches(s) ?? false", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"{selector} cannot be reached with Tab")


def test_keyboard_only_use_of_a_calculator(module_page: Page, site) -> None:  # type: ignore[no-untyped-def]
    page = module_page
    page.goto(site.url + "gunplay/bursts/")
    root = widget(page, "gunplay.hit_odds")
    assert wait_settled(page, root) == "ready"
    assert root.locator(".calc-result").get_attribute("aria-live") == "polite"
    assert root.locator(".calc-status").get_attribute("role") == "status"

    # every control of the widget is in the tab order, in reading order
    controls = root.locator(".calc-field:not([hidden]) input, .calc-field:not([hidden]) select, "
                            ".calc-actions button:not([hidden])")
    ids = [c.get_attribute("id") or c.get_attribute("data-action") for c in controls.all()]
    _focus(page, f"#{ids[0]}")
    seen = []
    for _ in range(len(ids)):
        seen.append(page.evaluate("() => document.activeElement.id || document.activeElement.dataset.action"))
        page.keyboard.press("Tab")
    assert seen == ids

    # raise the bonus with the arrow keys: the result follows
    before = root.locator(".calc-headline").inner_text()
    _focus(page, "#calc-hit-odds-bonus")
    page.keyboard.press("ArrowUp")
    page.wait_for_function("([el, b]) => el.querySelector('.calc-headline').innerText !== b && !el._busy",
                           arg=[root.element_handle(), before])
    assert root.get_attribute("data-status") == "ready"

    # roll with the keyboard: the dice and the verdict appear and enter the history
    _focus(page, '.calc[data-calculator="gunplay.hit_odds"] [data-action="roll"]')
    page.keyboard.press("Enter")
    page.wait_for_function("el => el.querySelector('.calc-roll-current .calc-die') !== null",
                           arg=root.element_handle())
    assert root.locator(".calc-roll-current").get_attribute("aria-live") == "polite"
    assert int(root.locator(".calc-history-count").inner_text()) >= 1
    assert page.log.page_errors == [] and page.log.console_errors == []
