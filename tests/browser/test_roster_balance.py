"""Make it a fair fight for two rosters, in Chromium at 390 px (issue 45, the army
battle): the builder fights its roster against a saved one; "Make it even" hands the
battle to the finder, which scales the enemy roster in Pyodide to the same answer as
CPython; "Use this fight" puts the battle found into the battle calculator and offers the
scaled roster to the builder, which changes nothing until the GM applies it (with Undo),
or saves it as a new roster."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from rules_core import api
from tests.browser.conftest import logged_page
from tests.browser.roster_storage import APP, entries, put_entries, settle, unit
from tests.browser.support import wait_result, wait_settled, widget
from tests.browser.test_roster_travel import roster

pytestmark = pytest.mark.browser

RED = roster("Red", [unit("tl5-7/light-infantry", 3)])
BLUE = roster("Blue", [unit("tl5-7/officer"), unit("tl5-7/light-infantry")])


@pytest.fixture(scope="module")
def phone(browser: Browser, site) -> Iterator[Page]:  # type: ignore[no-untyped-def]
    with logged_page(browser, site) as page:
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(site.url)
        put_entries(page, RED, BLUE, ids=("red", "blue"))
        page.goto(site.url + "sucs/roster/")
        settle(page)
        yield page


def in_view(page: Page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 200) <= 844


def test_the_enemy_roster_scaled_is_found_and_offered_to_the_builder(phone: Page) -> None:
    page = phone
    battle, finder = widget(page, "sucs.roster_battle"), widget(page, "sucs.roster_balance")
    assert wait_settled(page, battle) == "ready" and wait_settled(page, finder) == "ready"
    box = f"{APP} .sucs-suggest"
    # the finder's first answer, as the page was built: its roster scaled is offered too;
    # no saved roster was fought, so it can only be saved as a new one (or dismissed)
    first = api.run("sucs.roster_balance", api.spec("sucs.roster_balance")["initial"])["result"]
    finder.locator('button[data-action="hand-on"]').click()
    page.locator(box).wait_for(state="visible")
    text = page.locator(f"{box} .sucs-suggest-text").inner_text()
    assert first["suggestion"]["summary"] in text and "saved as a new roster" in text
    assert page.locator(f'{box} [data-sucs="suggest-apply"]').is_hidden()
    page.click(f'{box} [data-sucs="suggest-dismiss"]')
    assert page.locator(box).is_hidden() and [e["roster"] for e in entries(page)] == [RED, BLUE]
    page.select_option(f"{APP} .sucs-foe", "blue")
    fought = wait_result(page, battle, lambda: page.click(f'{APP} [data-sucs="fight"]'))
    assert fought["ok"] and fought["result"]["names"] == {"a": "Red", "b": "Blue"}, fought
    # Make it even: the finder scales Blue (side B) so that Red holds the field one time in two
    finder.locator('[name="high"]').fill("8")
    make = battle.locator('button[data-action="hand-on"]')
    assert make.text_content() == "Make it even"
    reply = wait_result(page, finder, lambda: make.click())
    assert reply["ok"], reply
    handed = json.loads(page.locator(f'#{finder.get_attribute("id")}-fight').input_value())
    expected = api.run("sucs.roster_balance", {"fight": json.dumps(handed), "vary": "b_units",
                                               "high": 8, "outcome": "a", "wanted": "even"})
    found = reply["result"]
    assert expected["ok"] and found == json.loads(json.dumps(expected["result"]))
    suggestion = found["suggestion"]
    assert suggestion["side"] == "b" and suggestion["name"] == "Blue"
    assert suggestion["units"] == found["value"] and found["value"] != 2  # Blue is scaled
    assert page.locator(box).is_hidden()  # nothing offered before Use this fight
    # Use this fight: the battle takes the fight found; the builder is offered the change
    use = finder.locator('button[data-action="hand-on"]')
    assert use.text_content() == "Use this fight"
    again = wait_result(page, battle, lambda: use.click())
    assert again["ok"]
    scaled = json.loads(battle.locator('[name="roster_b"]').input_value())
    assert [u["count"] for u in scaled["units"]] == [k for k in suggestion["counts"] if k]
    page.locator(box).wait_for(state="visible")
    assert suggestion["summary"] in page.locator(f"{box} .sucs-suggest-text").inner_text()
    assert [e["roster"] for e in entries(page)] == [RED, BLUE]  # nothing changed yet
    # the note under the finder leads up to the change, in view on the phone
    go = finder.locator(".calc-hand-on button.sucs-suggest-go")
    assert go.inner_text() == "See the change offered to the army builder"
    go.click()
    page.wait_for_function(f"() => {{ const b = document.querySelector('{box}').getBoundingClientRect();"
                           " return b.top >= 0 && b.top < 844; }")
    assert in_view(page, box)
    # Apply: Blue takes the counts found; Undo puts it back
    apply = page.locator(f'{box} [data-sucs="suggest-apply"]')
    assert apply.inner_text() == "Apply to “Blue”"
    apply.click()
    settle(page)
    saved = {e["id"]: e["roster"] for e in entries(page)}
    assert [u["count"] for u in saved["blue"]["units"]] == [k for k in suggestion["counts"] if k]
    assert saved["red"] == RED and page.locator(box).is_hidden()
    assert page.locator(f"{APP} .sucs-pick").input_value() == "blue"
    page.click(f'{APP} [data-sucs="undo"]')
    settle(page)
    assert {e["id"]: e["roster"] for e in entries(page)}["blue"] == BLUE
    # offered again (the battle has the fight found already), kept as a new roster
    # instead: Blue stays as it was
    use.click()
    page.locator(box).wait_for(state="visible")
    page.click(f'{box} [data-sucs="suggest-new"]')
    settle(page)
    rosters = [e["roster"] for e in entries(page)]
    assert rosters[:2] == [RED, BLUE] and len(rosters) == 3
    assert rosters[2]["name"] == f"Blue ({suggestion['units']} units)"
    assert [(u["name"], u["count"]) for u in rosters[2]["units"]] == [
        (name, k) for (name, _), k in zip(suggestion["lines"], suggestion["counts"]) if k]
    assert not page.log.page_errors and not page.log.console_errors  # type: ignore[attr-defined]
