"""Every d10 ranged combat widget in Chromium: it goes live, agrees with CPython, shows
bad input next to the field, and (where there are dice) a roll lands in the history.

One page for the module, moved between the d10 pages with Material's instant
navigation so Pyodide starts once.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Locator, Page

from rules_core import api
from tests.browser.support import instant_goto, live_run, wait_result, wait_settled, widget

pytestmark = pytest.mark.browser

PAGES = {
    "gunplay.range_band": "size-and-range",
    "gunplay.range_table": "size-and-range",
    "gunplay.hit_chance": "difficulty",
    "gunplay.difficulty": "difficulty",
    "gunplay.hit_odds": "bursts",
    "gunplay.engagement": "bursts",
    "gunplay.suppression": "suppressing-fire",
    "gunplay.weapon_search": "weapon-handling",
}

# Inputs per calculator that the browser must compute exactly as CPython does.
CASES = {
    "gunplay.range_band": [{"weapon": "pistol", "distance_m": 12.5},
                           {"effective_range_m": 300, "distance_m": 301}],
    "gunplay.range_table": [{"target_stance": "prone", "band": "maximum"},
                            {"size": "huge", "weapon": "rifle", "distance_m": 37.5}],
    "gunplay.hit_chance": [{"bonus": 5, "dc": 14}, {"bonus": -3}],
    "gunplay.difficulty": [{"target_stance": "kneeling", "weapon": "rifle", "distance_m": 100,
                            "target_movement": "subtle", "shooter_movement": "subtle",
                            "stance": "standing", "environment": 2}],
    "gunplay.hit_odds": [{"dc": 16, "bonus": 10, "rounds": 3, "recoil": 2, "roll_total": 19},
                         {"dc": 12, "bonus": 6, "rounds": 60, "recoil": 1}],
    "gunplay.engagement": [{"ammo": 100, "burst": 1, "recoil": 0, "hits_needed": 20,
                            "max_rounds": 100},
                           {"short_burst": False, "ammo": 10, "bursts_per_round": 2},
                           {"ammo": 90, "magazine": 30, "aim": 1, "bursts_per_round": 2,
                            "duel": "same_time", "b_magazine": 5, "b_aim": 2}],
    "gunplay.suppression": [{"lanes": 2, "open_groups": 1, "actions": 6, "magazine": 20}],
    "gunplay.weapon_search": [{"stealth": 4, "notice": 2, "method": "hands_on"},
                              {"stealth": 0, "notice": 9, "method": "distance"}],
}


def visit(page: Page, slug: str, query: str = "") -> None:
    """Go to a d10 page by instant navigation (keeps the one Pyodide worker)."""
    here = page.url.split("#")[0].split("?")[0].endswith(f"/gunplay/{slug}/")  # a hash: scrolled
    if here and not query:
        return
    if here:  # a new query on the same page: Material only navigates between pages
        instant_goto(page, "/gunplay/")
    instant_goto(page, f"/gunplay/{slug}/{query}")


def settled(page: Page, name: str) -> Locator:
    visit(page, PAGES[name])
    root = widget(page, name)
    assert wait_settled(page, root) in ("ready", "error")
    return root


def from_link(page: Page, slug: str, query: str, name: str) -> Locator:
    """Open a d10 page with a share-link query the widget ``name`` must refuse."""
    visit(page, slug, query)
    root = widget(page, name)
    assert wait_settled(page, root) == "error"
    return root


def fixed(page: Page, root: Locator, selector: str, value: str) -> dict:
    """Type a good ``value`` into the input ``selector``: the widget is back to ready."""
    reply = wait_result(page, root, lambda: page.fill(selector, value))
    assert reply["ok"] and root.get_attribute("data-status") == "ready"
    return reply


def roll_once(page: Page, root: Locator) -> None:
    """Press the widget's roll button and wait until the history counts the roll."""
    count = root.locator(".calc-history-count")
    before = int(count.inner_text())
    root.locator('button[data-action="roll"]').click()
    page.wait_for_function("([el, n]) => Number(el.textContent) === n",
                           arg=[count.element_handle(), min(before + 1, 50)])


def error_text(root: Locator, field: str) -> str:
    error = root.locator(f'.calc-field[data-field="{field}"] .calc-error')
    assert error.is_visible()
    return error.inner_text()


@pytest.fixture(scope="module")
def page(module_page: Page, site) -> Page:  # type: ignore[no-untyped-def]
    module_page.goto(site.url + "gunplay/size-and-range/")
    return module_page


@pytest.mark.parametrize("name", list(PAGES))
def test_widget_goes_live_and_agrees_with_cpython(page: Page, name: str) -> None:
    root = settled(page, name)
    assert root.get_attribute("data-status") == "ready"
    assert "live" in root.locator(".calc-status").inner_text()
    for inputs in CASES[name]:
        reply = live_run(page, name, inputs)
        expected = api.run(name, inputs)
        assert reply["ok"] and expected["ok"], (reply, expected)
        assert reply["result"] == json.loads(json.dumps(expected["result"]))
        assert reply["explanation"] == expected["explanation"]


def test_range_table_marks_the_chosen_cell(page: Page) -> None:
    root = settled(page, "gunplay.range_table")
    marked = root.locator(".calc-explanation td:not(:first-child) strong")
    assert marked.inner_text() == "▶ +8"
    reply = wait_result(page, root, lambda: page.select_option("#calc-range-table-band", "maximum"))
    assert reply["ok"] and reply["result"]["modifier"] == 12
    assert root.locator("#calc-range-table-distance_m").is_hidden()
    assert marked.inner_text() == "▶ +12"
    reply = wait_result(page, root,
                        lambda: page.select_option("#calc-range-table-target_stance", "prone"))
    assert reply["result"]["size"] == "tiny" and reply["result"]["modifier"] == 18
    assert root.locator("#calc-range-table-size").is_hidden()
    assert marked.inner_text() == "▶ +18"
    assert root.locator(".calc-headline dd").first.inner_text() == "+18"
    # the marked cell stands out (outlined), not just bold
    outline = marked.evaluate("el => getComputedStyle(el).outlineStyle")
    assert outline == "solid"


def test_range_table_refuses_a_distance_past_the_weapon(page: Page) -> None:
    root = settled(page, "gunplay.range_table")
    wait_result(page, root, lambda: page.select_option("#calc-range-table-band", ""))
    wait_result(page, root, lambda: page.select_option("#calc-range-table-weapon", "pistol"))
    assert root.locator("#calc-range-table-effective_range_m").is_hidden()
    reply = wait_result(page, root, lambda: page.fill("#calc-range-table-distance_m", "80"))
    assert not reply["ok"]
    assert "beyond the weapon's effective range of 50 m" in error_text(root, "distance_m")
    reply = wait_result(page, root, lambda: page.fill("#calc-range-table-distance_m", "20"))
    assert reply["ok"] and reply["result"]["band"] == "far"
    assert root.get_attribute("data-status") == "ready"


def test_range_band_finder_with_an_example_weapon_and_bad_ranges(page: Page) -> None:
    root = settled(page, "gunplay.range_band")
    reply = wait_result(page, root, lambda: page.select_option("#calc-range-band-weapon", "pistol"))
    assert reply["result"]["effective_range_m"] == 50
    assert reply["result"]["band"] == "beyond"  # the starting 100 m is past a pistol's 50 m
    reply = wait_result(page, root, lambda: page.fill("#calc-range-band-distance_m", "25"))
    assert reply["result"]["band"] == "maximum"
    assert root.locator(".calc-headline dd").first.inner_text() == "Maximum"
    wait_result(page, root, lambda: page.select_option("#calc-range-band-weapon", "custom"))
    for bad in ("0", "-20"):
        reply = wait_result(page, root,
                            lambda bad=bad: page.fill("#calc-range-band-effective_range_m", bad))
        assert not reply["ok"]
        assert f"more than 0 and at most 100000 m; received {bad}" in error_text(root, "effective_range_m")
    fixed(page, root, "#calc-range-band-effective_range_m", "300")


def test_distance_that_is_not_a_number_from_a_share_link(page: Page) -> None:
    root = from_link(page, "size-and-range", "?range-band.distance_m=far", "gunplay.range_band")
    # a number input cannot hold "far": the bridge sends what the link said, and the core
    # names it and says what it wants
    assert ('is not a number: received the text "far"; enter a number at least 0 and at most '
            "1000000 m" in error_text(root, "distance_m"))
    fixed(page, root, "#calc-range-band-distance_m", "10")


def test_unknown_size_and_stance_from_a_share_link(page: Page) -> None:
    root = from_link(page, "difficulty", "?difficulty.size=giant&hit-chance.bonus=x",
                     "gunplay.difficulty")
    assert "must be one of: Tiny; Small; Medium; Large; Huge" in error_text(root, "size")
    chance = widget(page, "gunplay.hit_chance")
    assert wait_settled(page, chance) == "error"
    assert "enter a whole number from -30 to 50" in error_text(chance, "bonus")
    root = from_link(page, "difficulty", "?difficulty.stance=crouching", "gunplay.difficulty")
    assert "Prone firing" in error_text(root, "stance")  # the choices by their labels


def test_difficulty_from_the_targets_stance(page: Page) -> None:
    visit(page, "difficulty", "?difficulty.size=small")
    root = widget(page, "gunplay.difficulty")
    assert wait_settled(page, root) == "ready"
    assert root.locator(".calc-headline dd").first.inner_text() == "14"
    reply = wait_result(page, root,
                        lambda: page.select_option("#calc-difficulty-target_stance", "standing"))
    assert reply["result"]["size"] == "medium"
    assert reply["result"]["dc"] == 5 + 4 + 0 + 0 - 1 + 2
    assert root.locator("#calc-difficulty-size").is_hidden()
    assert "difficulty.target_stance=standing" in page.url
    assert "Person standing (medium)" in root.locator(".calc-explanation").inner_text()


@pytest.mark.parametrize("rounds", ["0", "10000"])
def test_hit_odds_refuses_bursts_of_zero_or_ten_thousand(page: Page, rounds: str) -> None:
    root = settled(page, "gunplay.hit_odds")
    reply = wait_result(page, root, lambda: page.fill("#calc-hit-odds-rounds", rounds))
    assert not reply["ok"]
    assert f"must be a whole number from 1 to 100; received {rounds}" in error_text(root, "rounds")
    assert root.get_attribute("data-status") == "error"
    fixed(page, root, "#calc-hit-odds-rounds", "3")


def test_hit_odds_source_example_and_chart(page: Page) -> None:
    root = settled(page, "gunplay.hit_odds")
    wait_result(page, root, lambda: page.fill("#calc-hit-odds-dc", "16"))
    wait_result(page, root, lambda: page.fill("#calc-hit-odds-bonus", "10"))
    reply = wait_result(page, root, lambda: page.fill("#calc-hit-odds-roll_total", "19"))
    assert reply["result"]["hits"] == 2
    assert root.locator(".calc-headline dd").first.inner_text() == "2"
    chart = root.locator('.calc-chart[data-chart="distribution"]')
    assert chart.locator(".calc-bars").count() == 3  # exactly / at least / at most
    assert chart.locator("table tbody tr").count() == 4


def test_rolls_kept_before_storage_names_were_scoped_are_still_shown(page: Page) -> None:
    """Early versions kept a widget's rolls under an unscoped name: they move to this copy
    of the site's name (and the old one goes), and a new roll is added on top of them."""
    visit(page, "size-and-range")
    page.evaluate("localStorage.setItem('calc-history:gunplay.hit_chance', JSON.stringify(['an old roll']))")
    root = settled(page, "gunplay.hit_chance")
    assert root.locator(".calc-history li").all_text_contents() == ["an old roll"]
    assert page.evaluate("localStorage.getItem('calc-history:gunplay.hit_chance')") is None
    roll_once(page, root)
    assert root.locator(".calc-history li").nth(1).inner_text() == "an old roll"


@pytest.mark.parametrize("name", ["gunplay.hit_odds", "gunplay.hit_chance", "gunplay.weapon_search"])
def test_roll_button_adds_to_the_history(page: Page, name: str) -> None:
    root = settled(page, name)
    roll_once(page, root)
    faces = root.locator(".calc-roll-current .calc-die")
    assert faces.count() == (2 if name == "gunplay.weapon_search" else 1)
    for face in faces.all():
        assert 1 <= int(face.inner_text().split()[-1]) <= 10
    assert root.locator(".calc-history li").first.inner_text() == \
        root.locator(".calc-roll-summary").inner_text()


def test_hit_odds_refuses_a_total_the_modifier_cannot_make(page: Page) -> None:
    root = settled(page, "gunplay.hit_odds")
    wait_result(page, root, lambda: page.fill("#calc-hit-odds-bonus", "4"))
    reply = wait_result(page, root, lambda: page.fill("#calc-hit-odds-roll_total", "60"))
    assert not reply["ok"] and reply["error"]["field"] == "roll_total"
    assert "from 5 to 14" in error_text(root, "roll_total")
    fixed(page, root, "#calc-hit-odds-roll_total", "14")


def test_engagement_plays_a_whole_fight(page: Page) -> None:
    root = settled(page, "gunplay.engagement")
    roll_once(page, root)
    summary = root.locator(".calc-roll-summary").inner_text()
    assert summary.split(" after ")[0] in ("Target down", "Out of ammunition", "Still fighting")
    assert root.locator(".calc-roll-current .calc-die").count() >= 1


def test_engagement_duel_from_a_share_link_and_a_magazine_too_big(page: Page) -> None:
    query = ("?engagement.duel=turns_b&engagement.magazine=10&engagement.aim=1"
             "&engagement.b_hits_needed=3")
    visit(page, "bursts", query)
    root = widget(page, "gunplay.engagement")
    assert wait_settled(page, root) == "ready"
    assert root.locator("#calc-engagement-b_dc").is_visible()
    expected = api.run("gunplay.engagement", {"duel": "turns_b", "magazine": 10, "aim": 1,
                                              "b_hits_needed": 3})
    headline = root.locator(".calc-headline dd").first.inner_text()
    assert headline == expected["display"]["headline"][0][1]
    reply = wait_result(page, root, lambda: page.fill("#calc-engagement-magazine", "31"))
    assert not reply["ok"]
    assert "(31) is more than the 30 rounds carried" in error_text(root, "magazine")
    fixed(page, root, "#calc-engagement-magazine", "10")
    roll_once(page, root)
    assert root.locator(".calc-roll-summary").inner_text().split(" after ")[0] in (
        "Second shooter down", "First shooter down", "Both out of ammunition", "Still fighting")
    reply = wait_result(page, root, lambda: page.select_option("#calc-engagement-duel", "none"))
    assert reply["ok"] and root.locator("#calc-engagement-b_dc").is_hidden()


def test_suppression_needs_a_target_and_recovers(page: Page) -> None:
    root = settled(page, "gunplay.suppression")
    reply = wait_result(page, root, lambda: page.fill("#calc-suppression-lanes", "0"))
    assert not reply["ok"] and "nothing to suppress" in error_text(root, "lanes")
    reply = wait_result(page, root, lambda: page.fill("#calc-suppression-open_groups", "2"))
    assert reply["ok"] and reply["result"]["per_action"] == [6, 10]
    assert root.get_attribute("data-status") == "ready"


def test_nothing_went_wrong_on_the_page(page: Page) -> None:
    assert page.log.page_errors == [] and page.log.external_requests == []  # type: ignore[attr-defined]
    assert page.log.wasm_fetches == 1  # type: ignore[attr-defined]


@pytest.mark.parametrize("width", [390, 1366])
def test_duel_action_by_action_switch_shown_and_played(page: Page, width: int) -> None:
    """Issue 42: "At the same time, settled" appears only for a duel at the same time, at
    phone and laptop widths inside the screen; action by action gives CPython's odds and
    the played round is told pair by pair."""
    visit(page, "bursts", "?engagement.duel=turns&engagement.bursts_per_round=2"
                          "&engagement.b_bursts_per_round=2")
    root = widget(page, "gunplay.engagement")
    assert wait_settled(page, root) == "ready"
    page.set_viewport_size({"width": width, "height": 900})
    try:
        switch = root.locator("#calc-engagement-same_time")
        assert switch.is_hidden()
        wait_result(page, root, lambda: page.select_option("#calc-engagement-duel", "same_time"))
        assert switch.is_visible()
        if switch.input_value() == "action":  # left so by the other width's run
            wait_result(page, root, lambda: switch.select_option("round"))
        reply = wait_result(page, root, lambda: switch.select_option("action"))
        expected = api.run("gunplay.engagement", {"duel": "same_time", "same_time": "action",
                                                  "bursts_per_round": 2,
                                                  "b_bursts_per_round": 2})
        assert reply["ok"] and reply["result"] == json.loads(json.dumps(expected["result"]))
        switch.scroll_into_view_if_needed()
        box = switch.bounding_box()
        assert box is not None and 0 <= box["x"] and box["x"] + box["width"] <= width
        roll_once(page, root)
        log = root.locator(".calc-roll-current").text_content() or ""
        assert "at the same time, action 1: first shooter" in log, log
    finally:
        page.set_viewport_size({"width": 1366, "height": 900})
