"""A long calculation shows a busy state and can be cancelled; the widget then works
again on a fresh runtime (the worker is ended and restarted)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.support import RUNTIME_TIMEOUT_MS, wait_result, wait_settled, widget

pytestmark = pytest.mark.browser

BIG_ATTACK = "d12 d10 d8 d6 d4 d12 d10 d8 d6 d12 d10 d8"
BIG_DEFENCE = "d10 d8 d12 d6 d4 d10 d8 d12 d6 d10 d8 d12"


def test_busy_state_and_cancel(module_page: Page, site) -> None:  # type: ignore[no-untyped-def]
    page = module_page
    page.goto(site.url + "cortex/rolls/")
    root = widget(page, "cortex.odds")
    assert wait_settled(page, root) == "ready"
    page.select_option("#calc-odds-rules", "part1")
    page.fill("#calc-odds-unit", "d4 d6 d8 d10 d12 d6")
    page.fill("#calc-odds-defender", BIG_DEFENCE)
    # let those edits finish computing (a busy state now would hide the one to cancel)
    page.wait_for_function("el => el.dataset.status === 'ready' && !el._busy && !el.dataset.busy",
                           arg=root.element_handle(), timeout=RUNTIME_TIMEOUT_MS)
    # Click Cancel the moment it is shown, in the same task (a click through Playwright can
    # arrive after a fast machine has already finished), and record the busy state seen then.
    page.evaluate(
        """el => { const button = el.querySelector('[data-action="cancel"]');
                   new MutationObserver((_, observer) => {
                     if (button.hidden) return;
                     observer.disconnect();
                     el._sawBusy = { busy: el.dataset.busy, aria: el.getAttribute('aria-busy'),
                                     status: el.querySelector('.calc-status').textContent };
                     button.click();
                   }).observe(button, { attributes: true }); }""",
        root.element_handle())
    page.fill("#calc-odds-attacker", BIG_ATTACK)
    try:
        page.wait_for_function("el => el._sawBusy && el.dataset.status === 'error' && !el._busy",
                               arg=root.element_handle(), timeout=RUNTIME_TIMEOUT_MS)
    except Exception:
        print("DEBUG", page.evaluate("el => [el.dataset.status, el._busy, el._running, el._timer, el.dataset.busy,"
                                     " el.querySelector('.calc-status').textContent, JSON.stringify(el._sawBusy),"
                                     " document.documentElement.dataset.runtime]", root.element_handle()))
        raise
    seen = page.evaluate("el => el._sawBusy", root.element_handle())
    assert seen["busy"] == "true" and seen["aria"] == "true"
    assert "Working" in seen["status"]
    assert "cancelled" in root.locator(".calc-status").inner_text()
    cancel = root.locator('[data-action="cancel"]')
    assert cancel.is_hidden() and root.get_attribute("data-busy") is None
    # the next change starts a fresh worker and computes normally
    reply = wait_result(page, root, lambda: page.fill("#calc-odds-attacker", "d8 d8 d6"))
    assert reply["ok"]
    assert root.get_attribute("data-status") == "ready"
    assert page.log.page_errors == []
