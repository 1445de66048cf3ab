"""Helpers for browser tests: wait for widgets, navigate without reloading Pyodide."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Locator, Page

RUNTIME_TIMEOUT_MS = 120_000  # Pyodide's first start on a busy 2-core machine


def widget(page: Page, calculator: str, index: int = 0) -> Locator:
    return page.locator(f'.calc[data-calculator="{calculator}"]').nth(index)


def wait_settled(page: Page, root: Locator, timeout: int = RUNTIME_TIMEOUT_MS) -> str:
    """Wait until a widget or app is neither loading nor busy; return its status."""
    handle = root.element_handle()
    page.wait_for_function(
        "el => el.dataset.status !== 'loading' && el.dataset.status !== 'prerendered' && !el._busy",
        arg=handle, timeout=timeout,
    )
    return root.get_attribute("data-status") or ""


def wait_result(page: Page, root: Locator, change: Any) -> dict:
    """Run ``change()`` and return the next computed reply (the ``calc:result`` event)."""
    handle = root.element_handle()
    page.evaluate(
        "el => { el._lastReply = null; el.addEventListener('calc:result',"
        " e => { el._lastReply = e.detail; }, { once: false }); }",
        handle,
    )
    change()
    page.wait_for_function("el => el._lastReply && !el._busy", arg=handle,
                           timeout=RUNTIME_TIMEOUT_MS)
    return page.evaluate("el => el._lastReply", handle)


def instant_goto(page: Page, path: str) -> None:
    """Follow a link the way a reader does: Material's instant navigation keeps the
    JavaScript context (and so the one Pyodide worker) alive. ``path`` is relative to
    the current page, as in the site's own links."""
    target = page.evaluate(
        """path => { const a = document.createElement('a'); a.href = path;
                      a.textContent = 'go'; document.querySelector('.md-content').append(a);
                      const target = new URL(a.href).pathname; a.click(); return target; }""",
        path,
    )
    page.wait_for_function(
        "t => location.pathname === t && !document.querySelector('.md-content a[href]:last-child')"
        "?.textContent?.match(/^go$/)", arg=target)
    page.wait_for_load_state()
