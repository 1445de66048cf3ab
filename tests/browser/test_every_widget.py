"""Every widget and app on every page of the built site, visited the way a reader does
(instant navigation, one Pyodide for the whole crawl): each goes live, shows the same
figures as CPython, reports an out-of-range input next to its field and recovers.
New calculators are covered as soon as a page uses them."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from rules_core import api
from tests.browser.support import instant_goto, site_pages, wait_result, wait_settled

pytestmark = pytest.mark.browser


def _visit(page: Page, site, path: str) -> None:  # type: ignore[no-untyped-def]
    if page.url.startswith(site.url):
        instant_goto(page, path)
    else:
        page.goto(site.url + path.lstrip("/"))


def _type(control, value: str) -> None:  # type: ignore[no-untyped-def]
    """Type a value and leave the box (a finished edit is worked out at once; the pause
    kept for typing is tested in test_foundation.py)."""
    control.fill(value)
    control.dispatch_event("change")


def _headline(page: Page, root) -> list[list[str]]:  # type: ignore[no-untyped-def]
    return page.evaluate(
        "el => [...el.querySelectorAll('.calc-result .calc-headline > div')]"
        ".map(d => [d.querySelector('dt').textContent, d.querySelector('dd').textContent])",
        root.element_handle())


def test_the_site_has_widget_pages(site) -> None:  # type: ignore[no-untyped-def]
    assert "gunplay/difficulty/" in site_pages(site, widgets_only=True)


def test_every_widget_goes_live_agrees_with_cpython_and_refuses_bad_input(
        module_page: Page, site) -> None:  # type: ignore[no-untyped-def]
    check_every_widget(module_page, site, bad_inputs=True)


def check_every_widget(page: Page, site, *, bad_inputs: bool) -> None:  # type: ignore[no-untyped-def]
    """The crawl; ``bad_inputs`` also types a refused value into every typed input and
    puts the old one back (the longest part: each restore recomputes the widget)."""
    checked = typed = 0
    for path in ["/" + rel for rel in site_pages(site, widgets_only=True)]:
        _visit(page, site, path)
        for index in range(page.locator(".calc[data-calculator]").count()):
            root = page.locator(".calc[data-calculator]").nth(index)
            name = root.get_attribute("data-calculator")
            where = f"{path} {name}"
            assert wait_settled(page, root) == "ready", where
            initial = page.evaluate("el => JSON.parse(el.dataset.initial)", root.element_handle())
            expected = api.run(name, initial)
            assert expected["ok"], (where, initial, expected)
            assert _headline(page, root) == expected["display"]["headline"], where
            # every input has a visible label tied to it; a pick list beside a field is
            # named by its own prompt, which it shows until something is picked
            for control in root.locator(".calc-field input, .calc-field select:not(.calc-pick)").all():
                control_id = control.get_attribute("id")
                assert root.locator(f'label[for="{control_id}"]').count() == 1, where
            for pick in root.locator(".calc-field select.calc-pick").all():
                prompt = pick.locator("option").first.text_content() or ""
                assert pick.get_attribute("aria-label") == prompt.rstrip("…") and prompt, where
            # every typed input: a bad value gets a message next to its field, then recovers
            for control in [] if not bad_inputs else root.locator(
                    '.calc-field[data-kind="int"]:not([hidden]) input, '
                    '.calc-field[data-kind="number"]:not([hidden]) input, '
                    '.calc-field[data-kind="text"]:not([hidden]) input').all():
                field = control.get_attribute("name")
                old = control.input_value()
                if control.get_attribute("type") == "number":
                    bad = str(int(float(control.get_attribute("max"))) + 1)
                else:
                    bad = '<img src=x onerror="window.__pwned=1"> d13 ' * 3
                reply = wait_result(page, root, lambda c=control, v=bad: _type(c, v))
                assert page.locator("img[src=x]").count() == 0, where
                if not reply["ok"]:
                    assert reply["error"]["field"].split(".")[0] == field, (where, field, reply)
                    error = root.locator(f'.calc-field[data-field="{field}"] .calc-error')
                    assert error.is_visible() and error.inner_text().strip(), (where, field)
                    assert root.get_attribute("data-status") == "error", where
                    typed += 1
                reply = wait_result(page, root, lambda c=control, v=old: _type(c, v))
                assert reply["ok"] and root.get_attribute("data-status") == "ready", (where, field)
                # the old value back: its result (kept on screen under the error) is current again
                assert root.locator(".calc-result.calc-stale, .calc-error:not([hidden])").count() == 0, (where, field)
                assert _headline(page, root) == expected["display"]["headline"], (where, field)
            checked += 1
        for index in range(page.locator(".calc-app[data-app]").count()):
            root = page.locator(".calc-app[data-app]").nth(index)
            assert wait_settled(page, root) == "ready", f"{path} {root.get_attribute('data-app')}"
            checked += 1
    assert checked >= len(api.names()) // 2
    assert typed >= checked or not bad_inputs, "most widgets have typed inputs, and each bad one is refused"
    assert page.evaluate("() => window.__pwned === undefined")
    assert page.log.wasm_fetches == 1, "Pyodide must load once for the whole visit"
    assert page.log.external_requests == []
    assert page.log.console_errors == [] and page.log.page_errors == []
