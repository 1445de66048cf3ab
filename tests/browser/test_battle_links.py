"""Links that travel and say when they are cut (issues 43.3, 46.3, 46.5), in Chromium at
390 and 1366 px: the battle of two ten-unit rosters fought from the army builder is in
the page address in under 2,000 characters, packed, and opens whole; that link cut at
300 and 1,000 characters, one short of its end, and exactly between two parameters says
plainly that it is cut off and uses none of its inputs; an 82 kB paste the core refuses
never enters the address, so the page reloads (no 414) and works; the largest rosters a
battle accepts leave an address under 8,000 characters, saying what it left out."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from urllib.parse import parse_qsl, urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from rules_core import api
from rules_core.sucs import roster
from rules_core.sucs.calc_roster_battle import MAX_BATTLE_UNITS
from tests.browser.roster_storage import APP, put_entries
from tests.browser.support import (
    RUNTIME_TIMEOUT_MS,
    errors_of,
    guarded_context,
    runtime_held,
    wait_app_ready,
    wait_settled,
    widget,
)

pytestmark = pytest.mark.browser

BATTLE = '.calc[data-calculator="sucs.roster_battle"]'
CUT = "This link is cut off"
PRESETS = api.app_data("sucs.roster")["presets"]
WIDTHS = [390, 1366]


def ten_units(name: str, start: int) -> dict:
    units = [{"name": p["name"].title(), "count": 1, "preset": p["id"], "stats": p["stats"]}
             for p in PRESETS[start:start + 10]]
    army, problems = roster.normalize_roster({"format": "sucs-roster", "version": 1, "name": name,
                                              "points_limit": 500, "units": units})
    assert army is not None, problems
    return army


RED, BLUE = ten_units("Red platoon", 20), ten_units("Blue company", 35)


@pytest.fixture(scope="module", name="context")
def context_fixture(browser: Browser, site) -> Iterator[BrowserContext]:  # type: ignore[no-untyped-def]
    context = guarded_context(browser, site)
    yield context
    context.close()


@pytest.fixture(scope="module", name="live")
def live_fixture(context: BrowserContext, site) -> Iterator[Page]:  # type: ignore[no-untyped-def]
    """The army builder with the two rosters saved, its engine live (loaded once)."""
    page = context.new_page()
    page.log = errors_of(page)  # type: ignore[attr-defined]
    page.goto(site.url)
    put_entries(page, RED, BLUE, ids=("red", "blue"))
    page.goto(site.url + "sucs/roster/")
    wait_app_ready(page, APP)
    yield page
    assert not page.log, page.log  # type: ignore[attr-defined]


@pytest.fixture(scope="module", name="link")
def link_fixture(live: Page) -> str:
    """The battle's link, as the address holds it once "Fight this roster" was answered."""
    page = live
    page.select_option(f"{APP} .sucs-foe", "blue")
    page.click(f'{APP} [data-sucs="fight"]')
    page.wait_for_function("() => location.search.includes('roster-battle._z=') && location.search.includes('end=')",
                           timeout=RUNTIME_TIMEOUT_MS)
    return page.url.split("#")[0]


def fields(page: Page) -> dict[str, str]:
    return page.evaluate(f"""() => Object.fromEntries([...document.querySelectorAll('{BATTLE} .calc-field')]
        .map(f => [f.dataset.field, f.querySelector('input, select').value]))""")


def test_a_battle_link_is_short_packed_and_opens_whole(context: BrowserContext, link: str) -> None:
    assert len(link) < 2_000, len(link)
    query = dict(parse_qsl(urlsplit(link).query))
    assert set(query) >= {"v", "end", "roster-battle._z"} and query["roster-battle._z"].startswith("z.")
    assert "points_limit" not in link and "%7B" not in link, "never raw JSON"
    page = context.new_page()
    try:
        with runtime_held(page):
            page.goto(link)
            page.wait_for_function(f"() => document.querySelector('{BATTLE}')._bound")
            page.wait_for_function(f"() => document.querySelector('{BATTLE} input').value.includes('Red platoon')")
            got = fields(page)
            assert json.loads(got["roster_a"]) == RED and json.loads(got["roster_b"]) == BLUE
            assert page.locator(f"{BATTLE} .calc-link-note").count() == 0
    finally:
        page.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_a_cut_battle_link_says_so_and_uses_none_of_it(context: BrowserContext, site, link: str,  # type: ignore[no-untyped-def]
                                                        width: int) -> None:
    starting = json.loads(widget_initial(site))
    cuts = {"300": link[:300], "1,000": link[:1_000], "one short": link[:-1], "1,999": link[:1_999],
            "before the rosters": link[:link.index("&roster-battle._z=")],
            "before the end": link[:link.index("&end=")]}
    page = context.new_page()
    page.set_viewport_size({"width": width, "height": 844 if width < 800 else 900})
    try:
        with runtime_held(page):
            for where, cut in cuts.items():
                if cut == link:
                    continue  # the link is shorter than the cut: it arrives whole
                page.goto(cut)
                note = page.locator(f"{BATTLE} .calc-link-note")
                note.wait_for()
                text = note.text_content() or ""
                assert text.startswith(CUT) and "Ask for the whole link again" in text, (where, text)
                box = note.bounding_box()
                assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (where, box)
                got = fields(page)  # none of the link is used: every field at its start
                assert got["roster_a"] == starting["roster_a"] and got["turns"] == str(starting["turns"]), where
                assert got["b_cover"] == str(starting["b_cover"]), where
    finally:
        page.close()


def widget_initial(site) -> str:  # type: ignore[no-untyped-def]
    """The battle's starting inputs, as the built page carries them."""
    import html
    import re

    text = (site.dir / "sucs" / "roster" / "index.html").read_text(encoding="utf-8")
    block = text.split('data-calculator="sucs.roster_battle"', 1)[1]
    return html.unescape(re.search(r'data-initial="([^"]*)"', block).group(1))  # type: ignore[union-attr]


def test_a_refused_82_kb_paste_leaves_a_page_that_reloads(live: Page, link: str) -> None:
    page = live
    root = widget(page, "sucs.roster_battle")
    before = page.url
    paste = json.dumps({**BLUE, "name": "Huge", "notes": "x" * 82_000})
    handle = root.element_handle()
    stop_refining(page, root)
    page.evaluate("el => { el._lastReply = null; el.addEventListener('calc:result', e => { el._lastReply = e.detail; }); }",
                  handle)
    page.fill(f"{BATTLE} .calc-field[data-field='roster_b'] input", paste)
    page.locator(f"{BATTLE} .calc-field[data-field='roster_b'] input").dispatch_event("change")
    page.wait_for_function("el => el._lastReply && !el._lastReply.ok", arg=handle, timeout=RUNTIME_TIMEOUT_MS)
    error = root.locator(".calc-field[data-field='roster_b'] .calc-error").text_content() or ""
    assert error.startswith("Side B roster") and "too long" in error, error
    assert page.url == before and len(page.url) < 2_000, "a refused value never enters the address"
    response = page.reload()
    assert response is not None and response.status == 200, response and response.status
    wait_app_ready(page, APP)
    assert wait_settled(page, root) == "ready"
    got = fields(page)
    assert json.loads(got["roster_a"]) == RED and json.loads(got["roster_b"]) == BLUE
    assert page.locator(f"{BATTLE} .calc-link-note").count() == 0


def stop_refining(page: Page, root) -> None:  # type: ignore[no-untyped-def]
    """Stop the battle being refined (the fight of the link), so the next edit is answered."""
    stop = root.locator('[data-action="stop-refining"]')
    if stop.is_visible():
        stop.click()
    page.wait_for_function("el => !el.dataset.refining && !el._running", arg=root.element_handle(),
                           timeout=RUNTIME_TIMEOUT_MS)


def largest(name: str, seed: int) -> dict:
    """A roster of the most units a battle takes, one a line, each named with the longest
    name of characters that do not compress (what makes an address longest)."""
    rng = random.Random(seed)
    units = [{"name": "".join(chr(rng.randrange(0x4E00, 0x9FFF)) for _ in range(roster.MAX_NAME)),
              "count": 1, "preset": p["id"], "stats": p["stats"]}
             for p in PRESETS[:MAX_BATTLE_UNITS]]
    army, problems = roster.normalize_roster({"format": "sucs-roster", "version": 1,
                                              "name": name * (roster.MAX_NAME // len(name)),
                                              "points_limit": 100_000, "units": units})
    assert army is not None, problems
    return army


def test_the_largest_accepted_rosters_leave_an_address_under_8000(live: Page, link: str) -> None:
    page = live
    root = widget(page, "sucs.roster_battle")
    a, b = largest("Alpha ", 1), largest("Bravo ", 2)
    stop_refining(page, root)
    page.evaluate(f"""([a, b]) => {{
        for (const [field, value] of [['roster_a', a], ['roster_b', b]]) {{
          const input = document.querySelector('{BATTLE} .calc-field[data-field="' + field + '"] input');
          input.value = value;
          input.dispatchEvent(new Event('change', {{ bubbles: true }}));
        }}
      }}""", [json.dumps(a, ensure_ascii=False), json.dumps(b, ensure_ascii=False)])
    page.wait_for_function("() => location.search.includes('roster-battle._out=') || location.search.includes('Alpha')"
                           " || location.search.length > 3000", timeout=RUNTIME_TIMEOUT_MS)
    url = page.url
    assert len(url) <= 8_000, len(url)
    query = dict(parse_qsl(urlsplit(url).query))
    if "roster-battle._out" in query:  # left out, and said
        note = root.locator(".calc-link-note").text_content() or ""
        assert "too long for the page address" in note, note
        page.reload()
        wait_app_ready(page, APP)
        assert wait_settled(page, root) == "ready"
        assert "This link left out" in (root.locator(".calc-link-note").text_content() or "")
    assert not root.get_attribute("data-error-field")
