"""The army builder before its engine is live and its smaller refusals (issue 43, items 5
and 6), in Chromium: "Fight this roster" pressed while the rules engine is still loading
says it waits and fights once the engine is up; legality reads "checking…" until the rules
have been checked; a line's count of 150, 0, -2, 2.5 or nothing is refused with the
core's message under the line (the typed value kept until fixed), at 390 and 1366 px; the
name-clash question says how the two rosters differ, and Esc puts the focus back on the
file button (where it was, or in a browser that does not focus what is clicked); every scrolling code block on the roster page can be reached from the keyboard; the
no-script line never shows once scripts run."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route

from tests.browser.roster_storage import (  # noqa: F401 (the two fixtures)
    APP,
    ENTRY,
    builder_fixture,
    entries,
    no_page_errors_fixture,
    put_entries,
    settle,
    unit,
)
from tests.browser.support import RUNTIME_TIMEOUT_MS, WASM_GLOBS, errors_of, guarded_context, widget
from tests.browser.test_roster_saving import reopen
from tests.browser.test_roster_travel import roster

pytestmark = pytest.mark.browser

WIDTHS = [390, 1366]


@contextmanager
def runtime_paused(page: Page) -> Iterator[list[Route]]:
    """Inside, the runtime's WebAssembly download waits; leaving lets it go on (the engine
    then starts as it would have)."""
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    for glob in WASM_GLOBS:
        page.route(glob, hold)
    try:
        yield held
    finally:
        for route in held:
            route.continue_()
        for glob in WASM_GLOBS:
            page.unroute(glob, hold)


# ---- 1. before the engine is live -------------------------------------------------------------

def test_fight_pressed_before_the_engine_is_live_fights_once_it_is(browser: Browser, site) -> None:  # type: ignore[no-untyped-def]
    ours = roster("Red platoon", [unit("tl5-7/officer"), unit("tl5-7/light-tank", 2)], limit=500)
    theirs = roster("Blue company", [unit("tl5-7/officer"), unit("tl5-7/light-infantry", 3)], limit=500)
    context = guarded_context(browser, site)
    try:
        page = context.new_page()
        errors = errors_of(page)
        page.goto(site.url)
        put_entries(page, ours, theirs, ids=("red", "blue"))
        with runtime_paused(page):
            page.goto(site.url + "sucs/roster/")
            page.wait_for_selector(f"{APP}[data-checked='provisional'] .sucs-line >> nth=1")
            assert page.locator(APP).get_attribute("data-status") != "ready"
            assert page.locator(f"{APP} .sucs-legal").inner_text() == "checking…"  # not "yes" before any rule
            page.select_option(f"{APP} .sucs-foe", "blue")
            battle = widget(page, "sucs.roster_battle").element_handle()
            page.evaluate("el => { el._lastReply = null;"
                          " el.addEventListener('calc:result', e => { el._lastReply = e.detail; }); }", battle)
            page.click(f'{APP} [data-sucs="fight"]')
            note = page.locator(f"{APP} .sucs-battle-note").inner_text()
            assert "as soon as the rules engine is ready" in note and "no units" not in note, note
        page.wait_for_function("() => document.querySelector('.sucs-battle-note').textContent.includes('(side A)')",
                               timeout=RUNTIME_TIMEOUT_MS)
        settle(page)
        assert "“Red platoon” (side A) against “Blue company” (side B)" in page.locator(f"{APP} .sucs-battle-note").inner_text()
        page.wait_for_function("el => el._lastReply && !el._busy", arg=battle, timeout=RUNTIME_TIMEOUT_MS)
        reply = page.evaluate("el => el._lastReply", battle)
        assert reply["ok"] and reply["result"]["names"] == {"a": "Red platoon", "b": "Blue company"}, reply
        assert page.locator(f"{APP} .sucs-legal").inner_text() == "yes"  # checked now
        assert not errors, errors
    finally:
        context.close()


# ---- 2. a line's count refused with a reason ------------------------------------------------------

@pytest.mark.parametrize("width", WIDTHS)
def test_a_refused_count_is_explained_under_its_line(builder: Page, width: int) -> None:
    page = builder
    page.set_viewport_size({"width": width, "height": 900})
    try:
        reopen(page, {ENTRY + "r": json.dumps({"id": "r", "rev": 1, "order": 0, "roster": roster(
            "Counted", [unit("tl5-7/officer"), unit("tl5-7/light-tank", 2)])})})
        count = page.locator(f"{APP} .sucs-line-count").nth(1)
        error = page.locator(f"{APP} .sucs-line").nth(1).locator(".sucs-count-error")
        for typed, says in (("150", "received 150"), ("0", "received 0"), ("-2", "received -2"),
                            ("2.5", "received 2.5"), ("", "is empty")):
            count.fill(typed)
            count.press("Enter")
            page.wait_for_function("() => { const e = document.querySelectorAll('.sucs-count-error')[1];"
                                   " return e && !e.hidden && !e.textContent.startsWith('Checking'); }")
            settle(page)
            text = error.inner_text()
            assert "2nd unit" in text and "Number of units" in text and says in text and "1 to 99" in text, (typed, text)
            assert page.locator(f"{APP} .sucs-line-count").nth(1).input_value() == typed
            assert page.locator(f"{APP} .sucs-line-count").nth(1).get_attribute("aria-invalid") == "true"
            assert entries(page)[0]["roster"]["units"][1]["count"] == 2  # unchanged
            box = error.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5
        count = page.locator(f"{APP} .sucs-line-count").nth(1)
        count.fill("4")
        count.press("Enter")
        settle(page)
        assert page.locator(f"{APP} .sucs-count-error:visible").count() == 0
        assert entries(page)[0]["roster"]["units"][1]["count"] == 4
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})


# ---- 3. the name-clash question ------------------------------------------------------------------

def test_the_clash_question_says_how_the_rosters_differ_and_esc_returns_the_focus(builder: Page, tmp_path: Path) -> None:
    page = builder
    mine = roster("Alpha", [unit("tl5-7/officer"), unit("tl5-7/light-tank", 2)], limit=200)
    reopen(page, {ENTRY + "a": json.dumps({"id": "a", "rev": 1, "order": 0, "roster": mine})})
    incoming = {**mine, "points_limit": 300, "units": [mine["units"][0], {**mine["units"][1], "count": 3}]}
    path = tmp_path / "alpha.json"
    path.write_text(json.dumps(incoming))
    # as in Safari, which does not focus what is clicked: the focus is nowhere when the file comes
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.set_input_files(f"{APP} .sucs-import", str(path))
    dialog = page.locator(".sucs-ask[open]")
    dialog.wait_for(timeout=RUNTIME_TIMEOUT_MS)
    text = dialog.inner_text()
    assert "How they differ" in text and "points limit is 200 here and 300 in it" in text, text
    assert "line 2: 2 × Light Tank here, 3 × Light Tank in it".lower() in text.lower(), text
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('.sucs-ask[open]')")
    settle(page)
    assert "import cancelled" in page.locator(f"{APP} .sucs-notice").inner_text()
    assert page.evaluate("() => document.activeElement && document.activeElement.classList.contains('sucs-import')")
    assert entries(page)[0]["roster"] == mine


# ---- 4. what a keyboard and a first paint see ------------------------------------------------------

def test_no_code_block_on_the_roster_page_is_a_scroll_region_a_keyboard_cannot_reach(browser: Browser, site) -> None:  # type: ignore[no-untyped-def]
    """As the page is served (before any script, which may come late or not at all): at
    320, 390 and 1366 px every code block fits, or can take the focus (axe's
    scrollable-region-focusable)."""
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(site.url + "sucs/roster/")
        assert page.locator(".md-content pre").count() >= 1
        for width in (320, *WIDTHS):
            page.set_viewport_size({"width": width, "height": 900})
            unreachable = page.evaluate("""() => [...document.querySelectorAll('.md-content pre, .md-content pre > code')]
                .filter(e => e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight)
                .filter(e => !(e.tabIndex >= 0))
                .map(e => [e.scrollWidth, e.clientWidth, e.textContent.slice(0, 60)])""")
            assert unreachable == [], (width, unreachable)
    finally:
        context.close()


def test_the_no_script_line_never_shows_once_scripts_run(browser: Browser, site) -> None:  # type: ignore[no-untyped-def]
    context = guarded_context(browser, site)
    try:
        page = context.new_page()
        page.add_init_script("""document.addEventListener('DOMContentLoaded', () => {
            const status = document.querySelector('.sucs-app .calc-status');
            window.__firstStatus = status ? status.innerText : null; });""")
        with runtime_paused(page):
            page.goto(site.url + "sucs/roster/")
            first = page.evaluate("() => window.__firstStatus")
            assert first is not None and "Needs JavaScript" not in first, first
            assert "Needs JavaScript" not in page.locator(f"{APP} .calc-status").inner_text()
    finally:
        context.close()
    quiet = browser.new_context(java_script_enabled=False)
    try:
        page = quiet.new_page()
        page.goto(site.url + "sucs/roster/")
        assert "Needs JavaScript" in page.locator(".sucs-app .calc-status").inner_text()
    finally:
        quiet.close()
