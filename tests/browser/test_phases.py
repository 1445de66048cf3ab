"""The action dice tracker in Chromium: play a phase with the table's rolls and with real
dice, reload and find the fight intact, undo, and survive corrupted storage."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Locator, Page

from rules_core import api
from tests.browser.support import RUNTIME_TIMEOUT_MS, wait_settled

pytestmark = pytest.mark.browser

STORAGE_KEY = "tcr:/:phases-tracker:v1"  # scoped by the site's base path (site.js)
KEPT = "tcr:/:phases-tracker:kept:"


def tracker(page: Page) -> Locator:
    return page.locator('.calc-app[data-app="phases_tracker"]')


def idle(page: Page) -> None:
    page.wait_for_function("el => !el._busy", arg=tracker(page).element_handle(),
                           timeout=RUNTIME_TIMEOUT_MS)


def click(page: Page, action: str) -> None:
    tracker(page).locator(f'[data-pt="{action}"]').click()
    idle(page)


def table_roll(page: Page, faces: str) -> None:
    page.fill("#pt-faces", faces)
    click(page, "enter")


def board(page: Page) -> tuple[str, str, str]:
    root = tracker(page)
    return (root.locator(".pt-round").inner_text(), root.locator(".pt-phase").inner_text(),
            root.locator(".pt-left").inner_text())


def stored(page: Page) -> dict:
    return json.loads(page.evaluate(f"localStorage.getItem('{STORAGE_KEY}')"))


@pytest.fixture(scope="module")
def tracker_page(module_page: Page, site) -> Page:  # type: ignore[no-untyped-def]
    module_page.goto(site.url + "phases/tracker/")
    module_page.evaluate(f"localStorage.removeItem('{STORAGE_KEY}')")
    module_page.reload()
    assert wait_settled(module_page, tracker(module_page)) == "ready"
    return module_page


def test_play_the_worked_round(tracker_page: Page) -> None:
    page = tracker_page
    page.select_option("#pt-offense", "6")
    page.select_option("#pt-defence", "5")
    click(page, "start")
    assert board(page) == ("1", "Offense", "6")
    table_roll(page, "2 3")  # failure: 6 - 2 - 1
    assert board(page)[2] == "3"
    assert tracker(page).locator("#pt-extra").is_checked()  # exactly three: automatic
    assert tracker(page).locator("#pt-extra").is_disabled()
    table_roll(page, "6 4 1")
    assert board(page) == ("1", "Defence", "5")
    assert "Disadvantage" in tracker(page).locator(".pt-extra-label").inner_text()
    page.check("#pt-extra")
    table_roll(page, "5 4 2")  # the referee's disadvantage: keeps 2 and 4, failure
    assert board(page) == ("1", "Defence", "2")
    assert "kept 2+4 = 6: Failure" in tracker(page).locator(".pt-last").inner_text()
    table_roll(page, "5 5")
    assert board(page) == ("2", "Offense", "6")
    assert "No die left to remove" in tracker(page).locator(".pt-log li").first.inner_text()
    assert tracker(page).locator(".pt-log li").count() == 5
    # the browser's state is the one CPython reaches with the same events
    state = None
    for event in [{"type": "start", "offense_dice": 6, "defence_dice": 5},
                  {"type": "action", "faces": [2, 3]}, {"type": "action", "faces": [6, 4, 1]},
                  {"type": "action", "faces": [5, 4, 2], "extra_die": True},
                  {"type": "action", "faces": [5, 5]}]:
        state = api.run("phases.tracker", {"state": state, "event": event}
                        if state else {"event": event})["result"]["state"]
    assert stored(page)["history"][-1]["state"] == state


def test_bad_roll_is_refused_with_a_message_and_nothing_changes(tracker_page: Page) -> None:
    page = tracker_page
    before = stored(page)
    table_roll(page, "6 9")
    error = tracker(page).locator(".pt-error")
    assert error.is_visible() and "from 1 to 6" in error.inner_text()
    table_roll(page, "<img src=x onerror=alert(1)>")
    assert "received" in error.inner_text() and page.locator(".pt-tracker img").count() == 0
    assert stored(page) == before and board(page) == ("2", "Offense", "6")


def test_real_roll_goes_through_the_core(tracker_page: Page) -> None:
    page = tracker_page
    click(page, "roll")
    history = stored(page)["history"]
    assert len(history) == 6 and history[-1]["text"].startswith("Offense action 1: rolled ")
    assert board(page)[2] in {"4", "3"}  # 6 - 2, minus one more on a failure
    assert tracker(page).locator(".pt-error").is_hidden()


def test_reload_keeps_the_fight_and_undo_steps_back(tracker_page: Page) -> None:
    page = tracker_page
    shown = board(page)
    log = tracker(page).locator(".pt-log").inner_text()
    page.reload()
    assert wait_settled(page, tracker(page)) == "ready"
    assert "restored" in tracker(page).locator(".calc-status").inner_text()
    assert board(page) == shown and tracker(page).locator(".pt-log").inner_text() == log
    assert page.input_value("#pt-offense") == "6"  # the setup shows the fight's dice
    click(page, "undo")
    assert board(page) == ("2", "Offense", "6")
    assert len(stored(page)["history"]) == 5
    click(page, "undo")
    assert board(page) == ("1", "Defence", "2")
    page.reload()
    assert wait_settled(page, tracker(page)) == "ready"
    assert board(page) == ("1", "Defence", "2")


def kept(page: Page) -> list[str]:
    return page.evaluate(f"""() => Object.keys(localStorage).filter(k => k.startsWith('{KEPT}'))
        .sort().map(k => localStorage.getItem(k))""")


@pytest.mark.parametrize("damage", [
    "{not json",
    json.dumps({"version": 1, "history": [{"state": {"version": 1}, "view": {}, "text": "x"}]}),
    json.dumps({"version": 1, "history": "nope"}),
])
def test_damaged_storage_is_kept_aside_with_a_message(tracker_page: Page, damage: str) -> None:
    page = tracker_page
    page.evaluate(f"() => Object.keys(localStorage).filter(k => k.startsWith('{KEPT}'))"
                  ".forEach(k => localStorage.removeItem(k))")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [STORAGE_KEY, damage])
    page.reload()
    assert wait_settled(page, tracker(page)) == "ready"
    message = tracker(page).locator(".pt-notice")
    assert message.is_visible() and "kept aside" in message.inner_text()
    assert tracker(page).locator(".pt-board").is_hidden()
    assert kept(page) == [damage]  # byte for byte, never deleted
    assert tracker(page).locator(".pt-kept li").count() == 1
    click(page, "start")  # and it still works
    assert board(page) == ("1", "Offense", "5")
    assert kept(page) == [damage]


def test_whole_fight_party_from_a_share_link_compared_and_played(tracker_page: Page,
                                                                  site) -> None:  # type: ignore[no-untyped-def]
    """The party inputs of the whole fight arrive from a link with a pinned setup A, the
    result is CPython's, the comparison lists the inputs that differ, and a played fight
    reports who is standing."""
    from urllib.parse import quote

    from tests.browser.support import wait_result, widget

    page = tracker_page
    mine = {"party_size": 3, "hit_points": 2, "targeting": "spread", "offense_dice": 2}
    pinned = quote(json.dumps({"party_size": 3, "hit_points": 2}))
    query = "&".join(f"engagement.{k}={v}" for k, v in mine.items())
    page.goto(f"{site.url}phases/momentum/?{query}&setup-a.engagement={pinned}")
    root = widget(page, "phases.engagement")
    page.wait_for_function("el => el.querySelector('.calc-compare-inputs') && !el._busy",
                           arg=root.element_handle(), timeout=RUNTIME_TIMEOUT_MS)
    expected = api.run("phases.engagement", mine)
    headline = root.locator(".calc-result > .calc-headline dd").first.inner_text()
    assert headline == expected["display"]["headline"][0][1]
    rows = root.locator(".calc-compare-inputs tbody tr").all_inner_texts()
    assert any(r.startswith("Offense dice") for r in rows), rows
    assert any(r.startswith("The enemy's hits land on") for r in rows), rows
    assert page.locator("#calc-engagement-party_size").input_value() == "3"
    reply = wait_result(page, root, lambda: page.fill("#calc-engagement-hit_points", "41"))
    assert not reply["ok"] and "41" in reply["error"]["message"]
    wait_result(page, root, lambda: page.fill("#calc-engagement-hit_points", "2"))
    root.locator('button[data-action="roll"]').click()
    page.wait_for_function("el => /characters standing/.test("
                           "el.querySelector('.calc-roll-summary')?.textContent || '')",
                           arg=root.element_handle(), timeout=RUNTIME_TIMEOUT_MS)


@pytest.mark.parametrize("width", [390, 1366])
def test_whole_fight_with_the_enemy_damage_track(tracker_page: Page, width: int) -> None:
    """Issue 42: the enemy's damage track typed into the form, at phone and laptop widths:
    CPython's odds with "Enemy down" in the headline on screen, a bad damage named at its
    field, and a played fight that counts the damaging attacks."""
    from tests.browser.support import instant_goto, wait_result, wait_settled, widget

    page = tracker_page
    if not page.url.split("?")[0].endswith("/phases/momentum/"):
        instant_goto(page, "/phases/momentum/")
    root = widget(page, "phases.engagement")
    assert wait_settled(page, root) == "ready"
    page.set_viewport_size({"width": width, "height": 844})
    try:
        # the form as a GM starts it (an earlier test may have left a party in it)
        for field, value in (("hit_points", ""), ("party_size", ""), ("offense_dice", "5"),
                             ("defence_dice", "5"), ("goal_spaces", "6"),
                             ("damage_limit", "4")):
            if page.locator(f"#calc-engagement-{field}").input_value() != value:
                wait_result(page, root, lambda f=field, v=value:
                            page.fill(f"#calc-engagement-{f}", v))
        reply = wait_result(page, root, lambda: page.fill("#calc-engagement-enemy_track", "6"))
        expected = api.run("phases.engagement", {"damage_limit": 4, "enemy_track": 6})
        assert reply["ok"] and reply["result"]["outcomes"] == expected["result"]["outcomes"]
        headline = root.locator(".calc-result > .calc-headline").first
        assert "enemy down" in headline.inner_text().lower()
        headline.scroll_into_view_if_needed()
        box = headline.bounding_box()
        assert box is not None and box["x"] + box["width"] <= width
        bad = wait_result(page, root, lambda: page.fill("#calc-engagement-enemy_damage", "21"))
        assert not bad["ok"] and bad["error"]["field"] == "enemy_damage"
        error = root.locator('.calc-field[data-field="enemy_damage"] .calc-error')
        assert error.is_visible() and "21" in error.inner_text()
        wait_result(page, root, lambda: page.fill("#calc-engagement-enemy_damage", "1"))
        root.locator('button[data-action="roll"]').click()
        page.wait_for_function("el => /damaging attacks on the enemy/.test("
                               "el.querySelector('.calc-roll-summary')?.textContent || '')",
                               arg=root.element_handle(), timeout=RUNTIME_TIMEOUT_MS)
    finally:
        page.set_viewport_size({"width": 1366, "height": 900})
        wait_result(page, root, lambda: page.fill("#calc-engagement-enemy_track", ""))
        wait_result(page, root, lambda: page.fill("#calc-engagement-damage_limit", ""))


def test_no_errors_and_nothing_left_localhost(tracker_page: Page) -> None:
    log = tracker_page.log  # type: ignore[attr-defined]
    assert log.page_errors == [] and log.external_requests == []
    assert log.console_errors == []
