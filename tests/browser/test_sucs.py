"""The SUCS army builder in Chromium: a five-unit roster survives a reload, export and
import round-trip, hostile files change nothing, share links and the print view work,
the costs match CPython, and units arrive from the cost builder and the published lists
("Add to roster")."""

from __future__ import annotations

import base64
import json
import re

import pytest
from playwright.sync_api import Page

from rules_core import api
from rules_core.explain import escape
from rules_core.sucs import roster
from tests.browser.roster_storage import ENTRY, SNAPSHOT, active_roster, entries, names
from tests.browser.support import RUNTIME_TIMEOUT_MS, wait_result, wait_settled, widget

pytestmark = pytest.mark.browser

APP = '.calc-app[data-app="sucs_roster"]'
UNITS = [("tl5-7", "tl5-7/officer"), ("tl5-7", "tl5-7/light-tank"),
         ("tl5-7", "tl5-7/machine-gun"), ("tl12-15", "tl12-15/grav-tank"),
         ("tl0-2", "tl0-2/crossbowman")]


def settle(page: Page) -> None:
    page.wait_for_function(
        f"() => {{ const el = document.querySelector('{APP}');"
        " return el && el.dataset.status === 'ready' && !el._busy; }",
        timeout=RUNTIME_TIMEOUT_MS)


def first_format(roster: dict) -> str:
    """A roster as the first share-link format packs it (plain JSON in base64url), which
    the builder still reads."""
    return base64.urlsafe_b64encode(json.dumps(roster).encode()).decode().rstrip("=")


@pytest.fixture(scope="module")
def builder(module_page: Page, site) -> Page:  # type: ignore[no-untyped-def]
    module_page.goto(site.url + "sucs/roster/")
    settle(module_page)
    return module_page


def test_build_five_units_and_reload(builder: Page) -> None:
    page = builder
    page.fill(".sucs-name", "Test company")
    page.press(".sucs-name", "Enter")
    page.fill(".sucs-limit", "150")
    page.press(".sucs-limit", "Enter")
    for list_id, preset in UNITS:
        page.select_option(".sucs-add-list", list_id)
        page.select_option(".sucs-add-unit", preset)
        page.click('[data-sucs="add"]')
        settle(page)
    count = page.locator(".sucs-line").nth(1).locator(".sucs-line-count")
    count.fill("2")
    count.press("Enter")
    settle(page)
    roster = active_roster(page)
    assert roster["name"] == "Test company" and roster["points_limit"] == 150
    assert [u["preset"] for u in roster["units"]] == [p for _, p in UNITS]
    expected = api.run("sucs.roster_check", {"roster": roster})["result"]
    assert page.locator(".sucs-total").inner_text() == str(expected["total"])
    assert expected["over_limit"]
    assert "over the limit" in page.locator(".sucs-warnings").inner_text()

    page.reload()
    settle(page)
    assert page.locator(".sucs-line").count() == 5
    assert page.locator(".sucs-name").input_value() == "Test company"
    assert page.locator(".sucs-total").inner_text() == str(expected["total"])
    assert active_roster(page) == roster
    assert not page.log.page_errors and not page.log.external_requests


def test_editing_a_stat_updates_the_cost(builder: Page) -> None:
    page = builder
    page.locator(".sucs-line").nth(0).get_by_role("button", name="Edit").click()
    settle(page)
    page.fill("#sucs-f-armor", "3")
    page.wait_for_function("() => document.querySelector('.sucs-editor-cost').textContent.includes('extra 18')")
    settle(page)
    stats = active_roster(page)["units"][0]["stats"]
    assert stats["armor"] == 3
    assert api.run("sucs.unit_cost", stats)["result"]["extra_cost"] == 18
    page.fill("#sucs-f-armor", "99")
    page.wait_for_selector("#sucs-f-armor-error:not([hidden])")
    assert active_roster(page)["units"][0]["stats"]["armor"] == 3  # the bad value is not kept
    page.fill("#sucs-f-armor", "1")
    settle(page)
    page.click('[data-sucs="close-editor"]')


def test_export_import_round_trip(builder: Page, tmp_path) -> None:  # type: ignore[no-untyped-def]
    page = builder
    settle(page)
    with page.expect_download() as info:
        page.click('[data-sucs="export"]')
    path = tmp_path / "roster.json"
    info.value.save_as(path)
    exported = json.loads(path.read_text())
    assert exported == active_roster(page)
    before = len(entries(page))
    renamed = {**exported, "name": "Test company, again"}
    path.write_text(json.dumps(renamed))
    page.set_input_files(".sucs-import", str(path))
    page.wait_for_function(f"() => document.querySelectorAll('.sucs-pick option').length === {before + 1}")
    settle(page)
    assert len(entries(page)) == before + 1
    assert active_roster(page) == renamed
    assert page.locator(".sucs-line").count() == 5


def test_hostile_file_changes_nothing(builder: Page, tmp_path) -> None:  # type: ignore[no-untyped-def]
    page = builder
    saved = page.evaluate(SNAPSHOT)
    hostile = {"format": "sucs-roster", "version": 1, "name": "<img src=x onerror=alert(1)>",
               "points_limit": -5, "units": [{"name": "x", "count": 1,
                                              "stats": {"armor": "<script>", "evil": 1}}]}
    path = tmp_path / "evil.json"
    path.write_text(json.dumps(hostile))
    page.set_input_files(".sucs-import", str(path))
    page.wait_for_selector(".sucs-problems:not([hidden])")
    problems = page.locator(".sucs-problems li")
    assert problems.count() >= 3
    assert page.locator(".sucs-problems img").count() == 0
    assert page.evaluate(SNAPSHOT) == saved
    path.write_text("[" * 100)
    page.set_input_files(".sucs-import", str(path))
    page.wait_for_function("() => document.querySelector('.sucs-problems li')?.textContent.includes('nested')")
    assert page.evaluate(SNAPSHOT) == saved


def test_duplicate_delete_and_undo(builder: Page) -> None:
    page = builder
    before = len(entries(page))
    page.click('[data-sucs="duplicate"]')
    settle(page)
    assert len(entries(page)) == before + 1
    name = active_roster(page)["name"]
    page.click('[data-sucs="delete"]')
    settle(page)
    assert len(entries(page)) == before
    page.click('[data-sucs="undo"]')
    settle(page)
    assert len(entries(page)) == before + 1 and active_roster(page)["name"] == name


def test_share_link_adds_a_copy(builder: Page, site) -> None:  # type: ignore[no-untyped-def]
    page = builder
    roster = active_roster(page)
    encoded = page.evaluate(
        """r => { const b = new TextEncoder().encode(JSON.stringify(r)); let s = '';
                  b.forEach(x => { s += String.fromCharCode(x); });
                  return btoa(s).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, ''); }""",
        {**roster, "name": "Shared army"})
    before = len(entries(page))
    # opened as a received link is, in a page of its own: a change of "#" alone on the
    # scrolled builder is a same-page move, which Material's anchor tracking undoes
    page.goto("about:blank")
    page.goto(site.url + "sucs/roster/#roster=" + encoded)
    settle(page)  # "ready" only once the link's roster is in
    assert len(entries(page)) == before + 1
    assert active_roster(page)["name"] == "Shared army"
    assert "#roster" not in page.url


def test_share_link_survives_the_address_being_rewritten_while_loading(builder: Page, site) -> None:  # type: ignore[no-untyped-def]
    """Material's anchor tracking clears the "#" part of the address when the reader
    scrolls; the builder reads the link from the address it was opened with."""
    page = builder
    roster = {**active_roster(page), "name": "Scrolled army"}
    packed = first_format(roster)
    before = len(entries(page))
    page.goto("about:blank")  # a page of its own, as above
    page.goto(site.url + "sucs/roster/#roster=" + packed, wait_until="domcontentloaded")
    page.wait_for_function(f"() => document.querySelector('{APP}')?.dataset.openedAt")
    page.evaluate("() => history.replaceState({}, '', location.pathname)")  # as the tracking does
    settle(page)
    assert len(entries(page)) == before + 1 and active_roster(page)["name"] == "Scrolled army"


def test_a_share_link_pasted_into_the_open_builders_address_bar_opens(builder: Page, site) -> None:  # type: ignore[no-untyped-def]
    """Pasting a link into the address bar of a tab already showing the builder changes
    only the "#": the page stays, and the builder opens the link there."""
    page = builder
    settle(page)
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight / 2)")  # a reader mid-page
    roster = {**active_roster(page), "name": "Pasted army"}
    packed = first_format(roster)
    before = len(entries(page))
    page.evaluate("() => { window.__samePage = true; }")
    page.goto(site.url + "sucs/roster/#roster=" + packed)
    assert page.evaluate("() => window.__samePage === true")  # no reload: a same-page move
    page.wait_for_function(f"n => Object.keys(localStorage).filter(k => k.startsWith('{ENTRY}')).length > n",
                           arg=before, timeout=RUNTIME_TIMEOUT_MS)
    settle(page)
    assert len(entries(page)) == before + 1 and active_roster(page)["name"] == "Pasted army"
    assert "#roster=" not in page.url  # (the page's own anchors, "#roster-files", may follow the scroll)
    page.goto("about:blank")  # the next tests start from a builder freshly opened at the top
    page.goto(site.url + "sucs/roster/")
    settle(page)


def test_print_view_shows_compact_cards(builder: Page) -> None:
    page = builder
    settle(page)
    page.emulate_media(media="print")
    try:
        cards = page.locator(".sucs-card")
        assert cards.count() == 5
        assert cards.first.is_visible()
        assert not page.locator(".sucs-ui").is_visible()
        assert not page.locator(".md-header").is_visible()
        height = page.evaluate("() => document.querySelector('.sucs-cards').getBoundingClientRect().height")
        assert height < 1000  # fits an A4 page at 96 dpi
    finally:
        page.emulate_media(media="screen")


def test_phone_width(builder: Page) -> None:
    page = builder
    page.set_viewport_size({"width": 360, "height": 740})
    try:
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 360
        assert page.locator('[data-sucs="add"]').is_visible()
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})


def _roster_line_costs(page: Page) -> list[str]:
    return [t.strip() for t in page.locator(".sucs-line-cost").all_inner_texts()]


def test_a_published_units_row_adds_it_to_the_open_roster(builder: Page, site) -> None:  # type: ignore[no-untyped-def]
    page = builder
    before = active_roster(page)
    rosters = len(entries(page))
    page.goto(site.url + "sucs/tech-levels/")
    link = page.locator('a.add-to-roster[href$="?add=tl5-7/light-tank"]')
    assert link.get_attribute("aria-label") == "Add to roster: light tank"
    link.click()
    page.wait_for_url("**/sucs/roster/**")
    settle(page)  # ready only once the unit is added and priced
    after = active_roster(page)
    assert len(entries(page)) == rosters and after["name"] == before["name"]
    assert after["units"][:-1] == before["units"]
    added = after["units"][-1]
    assert (added["preset"], added["count"], added["name"]) == ("tl5-7/light-tank", 1, "light tank")
    expected = api.run("sucs.roster_check", {"roster": after})["result"]
    assert page.locator(".sucs-total").inner_text() == str(expected["total"])
    assert _roster_line_costs(page)[-1].startswith(f"{expected['units'][-1]['cost']} pts each")
    assert f"Added light tank to “{before['name']}”" in page.locator(".sucs-notice").inner_text()
    assert "add=" not in page.url
    page.reload()  # the link was dropped from the address: a reload adds nothing
    settle(page)
    assert len(active_roster(page)["units"]) == len(after["units"])
    assert not page.log.page_errors, page.log.page_errors  # type: ignore[attr-defined]


def test_the_cost_builder_adds_its_unit_and_undo_takes_it_back(builder: Page, site) -> None:  # type: ignore[no-untyped-def]
    page = builder
    before = active_roster(page)
    page.goto(site.url + "sucs/costs/")
    root = widget(page, "sucs.unit_cost")
    wait_settled(page, root)
    armor = root.locator('.calc-field[data-field="armor"] input')
    reply = wait_result(page, root, lambda: (armor.fill("4"), armor.dispatch_event("change")))
    stats = reply["result"]["stats"]
    assert stats["armor"] == 4  # not the page's starting unit
    root.locator('[data-action="add-to-roster"]').click()
    page.wait_for_url("**/sucs/roster/**")
    settle(page)
    after = active_roster(page)
    assert after["units"][:-1] == before["units"]
    assert after["units"][-1] == {"name": "Custom unit", "count": 1, "preset": None, "stats": stats}
    expected = api.run("sucs.roster_check", {"roster": after})["result"]
    assert page.locator(".sucs-total").inner_text() == str(expected["total"])
    assert expected["units"][-1]["cost"] == api.run("sucs.unit_cost", stats)["result"]["cost"]
    assert _roster_line_costs(page)[-1].startswith(f"{expected['units'][-1]['cost']} pts each")
    page.click('[data-sucs="undo"]')
    settle(page)
    assert active_roster(page)["units"] == before["units"]
    assert not page.log.page_errors, page.log.page_errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("link", ["z.AAAA", "no-such/unit", "eyJuYW1lIjogMX0"])
def test_a_damaged_add_link_adds_nothing_and_says_so(builder: Page, site, link: str) -> None:  # type: ignore[no-untyped-def]
    page = builder
    before = entries(page)
    page.goto(site.url + "sucs/roster/?add=" + link)
    settle(page)
    assert entries(page) == before
    message = page.locator(".sucs-problems, [role=alert]").all_inner_texts()
    assert any("nothing was added" in m.lower() for m in message), message
    assert not any(re.search(r"\b[a-z]+_[a-z_]+\b|Error|undefined", m) for m in message), message
    assert not page.log.page_errors, page.log.page_errors  # type: ignore[attr-defined]


def test_fight_this_roster_against_another_saved_roster(builder: Page) -> None:
    """Fight this roster: the open roster on side A, the one picked on side B, in the
    battle calculator below; its answer is the core's for the same two rosters, and in
    view, at 390 px as at 1366 px. Each side is led by an officer (the preset is marked
    Commander), and the answer follows it."""
    page = builder
    for _ in range(2):
        page.click('[data-sucs="new"]')
        settle(page)
    # two new rosters are told apart in the pickers: the second is not named as the first
    first_new, second_new = names(page)[-2:]
    assert first_new.startswith("New army") and second_new.startswith("New army ")
    assert first_new != second_new and active_roster(page)["name"] == second_new
    assert page.locator(".sucs-foe option").all_inner_texts().count(second_new) == 1
    page.click('[data-sucs="fight"]')  # an empty roster cannot fight: said at the button
    assert "has no units yet" in page.locator(".sucs-battle-note").inner_text()
    for preset in ("tl5-7/officer", "tl5-7/light-tank", "tl5-7/machine-gun"):
        page.select_option(".sucs-add-list", "tl5-7")
        page.select_option(".sucs-add-unit", preset)
        page.click('[data-sucs="add"]')
        settle(page)
    ours_id = page.locator(".sucs-pick").input_value()
    ours = active_roster(page)
    page.click('[data-sucs="duplicate"]')  # the enemy: a copy without the machine gun
    settle(page)
    enemy_id = page.locator(".sucs-pick").input_value()
    page.locator(".sucs-line").last.get_by_role("button", name="Remove").click()
    settle(page)
    enemy = active_roster(page)
    assert len(enemy["units"]) == 2 and enemy["units"][0]["stats"]["commander"]
    page.select_option(".sucs-pick", ours_id)
    settle(page)
    assert page.locator(".sucs-foe option").count() == len(entries(page))
    root = widget(page, "sucs.roster_battle")
    for width, height, foe_id, foe in ((390, 844, enemy_id, enemy), (1366, 900, ours_id, ours)):
        page.set_viewport_size({"width": width, "height": height})
        page.select_option(".sucs-foe", foe_id)
        reply = wait_result(page, root, lambda: page.click('[data-sucs="fight"]'))
        assert reply["ok"], reply
        expected = api.run("sucs.roster_battle", {"roster_a": ours, "roster_b": foe})["result"]
        assert reply["result"]["method"] == expected["method"]
        if expected["method"] == "exact":
            assert reply["result"]["outcomes"] == expected["outcomes"]
        else:  # floating point, summed in an order that may differ by the last bit
            assert reply["result"]["outcomes"] == pytest.approx(expected["outcomes"], abs=1e-12)
        # the rosters' names, told apart when a roster fights a copy of itself
        same = ours["name"].casefold() == foe["name"].casefold()
        named = {"a": ours["name"] + " (side A)" * same, "b": foe["name"] + " (side B)" * same}
        assert reply["result"]["names"] == named
        assert (f"{escape(named['a'])}'s commanders are officer x1; {escape(named['b'])}'s "
                "commanders are officer x1") in reply["explanation"]  # Markdown, escaped
        assert f"“{foe['name']}” (side B)" in page.locator(".sucs-battle-note").inner_text()
        wait_settled(page, root)
        # the answer is on screen: the battle widget's headline within the viewport
        box = root.locator(".calc-headline").first.bounding_box()
        assert box is not None and 0 <= box["y"] and box["y"] + 40 <= height, (width, box)
        assert f"{named['a']} holds the field".lower() in \
            root.locator(".calc-headline").first.inner_text().lower()
    assert not page.log.page_errors


def test_the_battle_fires_a_second_weapon_and_takes_the_order_and_the_modifier(
        builder: Page) -> None:
    """Issue 42 on the built roster page: a tank whose roster line has a machine gun
    ("1,1", which the builder prices) fires it in the battle; the activation order, the
    choice of weapon and a side's modifier to attack rolls each change the answer, as in
    CPython."""
    page = builder
    root = widget(page, "sucs.roster_battle")
    wait_settled(page, root)
    rifles = {"quality": 3, "attack": 1, "armor": 0}
    tank = {"quality": 3, "attack": 3, "armor": 2, "alt_weapons": "1,1"}
    blank = roster.blank("Armour", 0)
    ours = json.dumps({**blank, "units": [
        {"name": n, "count": 1, "preset": None, "stats": s}
        for n, s in (("Rifles", rifles), ("Tank", tank))]})
    foe = json.dumps({**roster.blank("Foot", 0), "units": [
        {"name": "Rifles", "count": 2, "preset": None, "stats": rifles},
        {"name": "Elite", "count": 1, "preset": None, "stats": {**rifles, "quality": 5}}]})
    inputs: dict = {"roster_a": ours, "roster_b": foe}
    for name in ("roster_a", "roster_b"):
        box = root.locator(f'.calc-field[data-field="{name}"] input').first
        reply = wait_result(page, root, lambda box=box, v=inputs[name]: (
            box.fill(v), box.dispatch_event("change")))
    seen = set()
    for field, value, tag in (("order", "likeliest", "select"),
                              ("weapon_choice", "fallback", "select"),
                              ("a_roll_modifier", "2", "input")):
        control = root.locator(f'.calc-field[data-field="{field}"] {tag}').first
        reply = wait_result(page, root, lambda c=control, v=value, t=tag: (
            c.select_option(v) if t == "select" else c.fill(v)))
        inputs[field] = int(value) if tag == "input" else value
        want = api.run("sucs.roster_battle", inputs)["result"]
        assert reply["ok"] and want["method"] == reply["result"]["method"] == "exact"
        assert reply["result"]["outcomes_exact"] == want["outcomes_exact"]
        seen.add(want["outcomes_exact"]["Armour holds the field"])
    assert len(seen) == 3
    assert "uses one a turn" in reply["explanation"]
    for field, value, tag in (("order", "least_suppressed", "select"),
                              ("weapon_choice", "best", "select"), ("a_roll_modifier", "0", "input")):
        control = root.locator(f'.calc-field[data-field="{field}"] {tag}').first
        wait_result(page, root, lambda c=control, v=value, t=tag: (
            c.select_option(v) if t == "select" else c.fill(v)))
