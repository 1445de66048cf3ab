"""GURPS Heroic Combat in Chromium: the widgets go live and agree with CPython, bad input
is reported next to its field, the reference widgets respond, and the morale roller rolls
real dice whose history survives navigating away and back."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page

from rules_core import api
from tests.browser.support import (
    instant_goto,
    live_run,
    simulation_shown,
    wait_result,
    wait_settled,
    widget,
)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def page(module_page: Page, site) -> Page:  # type: ignore[no-untyped-def]
    module_page.goto(site.url + "heroic/melee/")
    module_page.evaluate("() => localStorage.clear()")
    return module_page


def headline(root) -> dict[str, str]:  # type: ignore[no-untyped-def]
    terms = [t.strip() for t in root.locator(".calc-headline dt").all_text_contents()]
    values = [v.strip() for v in root.locator(".calc-headline dd").all_text_contents()]
    return dict(zip(terms, values))


def test_prerendered_source_examples(site) -> None:  # type: ignore[no-untyped-def]
    melee = (site.dir / "heroic" / "melee" / "index.html").read_text()
    assert "<dt>This contest</dt><dd>3 hits</dd>" in melee
    groups = (site.dir / "heroic" / "groups" / "index.html").read_text()
    assert groups.count("<dt>Injury</dt><dd>12</dd>") == 2
    assert "<dt>Group HP</dt><dd>88 → 76</dd>" in groups
    assert "<dt>Skill bonus</dt><dd>+2</dd>" in groups and "<dd>x5</dd>" in groups


def test_melee_goes_live_and_agrees_with_cpython(page: Page) -> None:
    root = widget(page, "heroic.melee")
    before = headline(root)
    assert wait_settled(page, root) == "ready"
    assert headline(root) == before
    for inputs in ({"attacker_skill": 14, "defender_skill": 11},
                   {"attacker_skill": 10, "defender_skill": 16, "attackers": 12, "defenders": 8,
                    "attacker_tactic": "charge", "defender_tactic": "retreat",
                    "move_advantage": 2, "speed_factor": 6},
                   {"attacker_skill": 12, "defense": "dodge", "dodge": 9, "attacker_roll": 7}):
        reply = live_run(page, "heroic.melee", inputs)
        expected = api.run("heroic.melee", inputs)
        assert reply["ok"] and reply["result"] == json.loads(json.dumps(expected["result"]))
        assert reply["explanation"] == expected["explanation"]


def test_melee_recomputes_and_reports_bad_input(page: Page) -> None:
    root = page.locator("#calc-sherman")
    wait_settled(page, root)
    assert headline(root)["This contest"] == "3 hits"
    # the defender now wins: no hits, so the two already given elsewhere are impossible
    reply = wait_result(page, root, lambda: page.fill("#calc-sherman-defender_roll", "4"))
    assert not reply["ok"] and reply["error"]["field"] == "hits_assigned"
    assigned = root.locator('.calc-field[data-field="hits_assigned"] .calc-error')
    assert assigned.is_visible() and "Hits already given" in assigned.inner_text()
    reply = wait_result(page, root, lambda: page.fill("#calc-sherman-hits_assigned", "0"))
    assert reply["ok"] and reply["result"]["contest"]["winner"] == "defender"
    assert headline(root)["This contest"].startswith("no hits")
    reply = wait_result(page, root, lambda: page.fill("#calc-sherman-attacker_skill", "0"))
    assert not reply["ok"]
    error = root.locator('.calc-field[data-field="attacker_skill"] .calc-error')
    assert error.is_visible() and "received 0" in error.inner_text()
    reply = wait_result(page, root, lambda: page.fill("#calc-sherman-attacker_skill", "14"))
    assert reply["ok"] and error.is_hidden()


def test_melee_roll_shows_six_dice(page: Page) -> None:
    root = page.locator("#calc-melee")
    wait_settled(page, root)
    root.locator('button[data-action="roll"]').click()
    page.wait_for_function("el => el.querySelectorAll('.calc-roll-current .calc-die').length === 6",
                           arg=root.element_handle())
    assert "Attacker" in root.locator(".calc-roll-summary").inner_text()


def test_tactic_reference_widget(page: Page) -> None:
    instant_goto(page, "../tactics/")
    root = widget(page, "heroic.tactic")
    assert wait_settled(page, root) == "ready"
    reply = wait_result(page, root, lambda: page.select_option("#calc-tactic-tactic", "retreat"))
    assert reply["ok"] and reply["result"]["melee"] is None
    values = headline(root)
    assert values["Melee"] == "no attacks" and values["Defence"] == "-4"
    assert "Move x 10" in values["Move"]


def test_numbers_and_group_injury(page: Page) -> None:
    instant_goto(page, "../groups/")
    root = widget(page, "heroic.numbers")
    assert wait_settled(page, root) == "ready"
    reply = wait_result(page, root, lambda: page.fill("#calc-numbers-attackers", "31"))
    assert reply["result"]["hit_multiplier"] == 8 and reply["result"]["skill_bonus"] == 8
    root = widget(page, "heroic.group_injury")
    wait_settled(page, root)
    reply = wait_result(page, root, lambda: page.fill("#calc-group-injury-damage", "5, 6, 2"))
    assert reply["ok"] and reply["result"]["injury"] == 0  # DR 6 per hit stops 13 damage
    assert headline(root)["Group HP"] == "88 → 88"
    reply = wait_result(page, root, lambda: page.fill("#calc-group-injury-group_hp", "100"))
    error = root.locator('.calc-field[data-field="group_hp"] .calc-error')
    assert not reply["ok"] and "more than the group's full 88" in error.inner_text()


def test_ranged_into_melee(page: Page) -> None:
    instant_goto(page, "../ranged/")
    root = widget(page, "heroic.ranged")
    assert wait_settled(page, root) == "ready"
    reply = wait_result(page, root, lambda: page.check("#calc-ranged-into_melee"))
    assert reply["ok"] and "p_stray" in reply["result"]
    assert page.locator("#calc-ranged-bystander_defense").is_visible()
    assert "Stray hit on another fighter" in headline(root)
    inputs = {"attacker_skill": 14, "shots_at_target": 2, "distance_yd": 15, "bulk": -6,
              "into_melee": True, "bystander_defense": 10, "dodge": 8}
    assert reply["result"] == json.loads(json.dumps(api.run("heroic.ranged", inputs)["result"]))


def test_morale_roller_history_survives_navigation(page: Page) -> None:
    instant_goto(page, "../morale/")
    root = widget(page, "heroic.morale")
    assert wait_settled(page, root) == "ready"
    assert headline(root)["Check due"] == "Yes"
    count = root.locator(".calc-history-count")
    assert count.inner_text() == "0"
    summaries = []
    for n in (1, 2):
        root.locator('button[data-action="roll"]').click()
        page.wait_for_function("([el, n]) => el.querySelector('.calc-history-count').textContent"
                               " === String(n)", arg=[root.element_handle(), n])
        assert root.locator(".calc-roll-current .calc-die").count() == 3
        summary = root.locator(".calc-roll-summary").inner_text()
        assert "holds" in summary or "BREAKS" in summary
        faces = root.locator(".calc-roll-current .calc-die").all_inner_texts()
        assert "+".join(f.split()[-1] for f in faces) in summary
        summaries.insert(0, summary)
    assert root.locator(".calc-history li").all_text_contents() == summaries
    instant_goto(page, "../actions/")
    assert wait_settled(page, widget(page, "heroic.action")) == "ready"
    instant_goto(page, "../morale/")
    root = widget(page, "heroic.morale")
    wait_settled(page, root)
    assert root.locator(".calc-history-count").inner_text() == "2"
    assert root.locator(".calc-history li").all_text_contents() == summaries


def test_zz_no_errors_and_nothing_left_localhost(page: Page) -> None:
    assert page.log.page_errors == [] and page.log.console_errors == []
    assert page.log.external_requests == []


def test_a_field_revealed_by_a_choice_starts_with_its_value(page: Page) -> None:
    """Dodge is hidden while the defender uses a skill; switching shows it filled in."""
    instant_goto(page, "../melee/")
    root = page.locator("#calc-melee")
    wait_settled(page, root)
    reply = wait_result(page, root, lambda: page.select_option("#calc-melee-defense", "dodge"))
    assert reply["ok"] and page.locator("#calc-melee-dodge").input_value() == "8"
    assert reply["result"]["defender_effective"] == (8 - 3) * 2
    reply = wait_result(page, root, lambda: root.locator('button[data-action="reset"]').click())
    assert reply["ok"] and page.locator("#calc-melee-dodge").is_hidden()


def test_engagement_goes_live_and_agrees_with_cpython(page: Page) -> None:
    instant_goto(page, "../groups/")
    root = widget(page, "heroic.engagement")
    assert wait_settled(page, root) == "ready"
    small = {**api.spec("heroic.engagement")["initial"], "a_members": 3, "b_members": 2,
             "max_rounds": 5}
    reply = live_run(page, "heroic.engagement", small)
    expected = api.run("heroic.engagement", small)
    assert reply["ok"] and reply["result"] == json.loads(json.dumps(expected["result"]))


def test_carried_wounds_past_the_exact_limit_are_answered_with_their_bound(page: Page) -> None:
    """Five orcs against three knights carrying every point (1,980 pairs of HP totals,
    past the 250 the exact walk follows), typed into the form at 390 px: the pruned walk's
    answer, equal to CPython's, with its bound in the headline on screen."""
    instant_goto(page, "../groups/")
    root = widget(page, "heroic.engagement")
    assert wait_settled(page, root) == "ready"
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        wait_result(page, root, lambda: root.locator('[name="a_members"]').fill("5"))
        wait_result(page, root, lambda: root.locator('[name="b_members"]').fill("3"))
        reply = wait_result(page, root,
                            lambda: root.locator('[name="wounds"]').select_option("carry"))
        assert reply["ok"], reply
        raw = {**api.spec("heroic.engagement")["initial"], "a_members": 5, "b_members": 3,
               "wounds": "carry"}
        expected = api.run("heroic.engagement", raw)["result"]
        bound = reply["result"]["error_bound"]
        assert 0 < bound <= 1e-6 and bound == pytest.approx(expected["error_bound"], rel=1e-9)
        assert reply["result"]["outcomes"] == pytest.approx(expected["outcomes"], abs=1e-12)
        wait_settled(page, root)
        headline = root.locator(".calc-headline").first
        assert "exact to within" in headline.inner_text().lower()
        headline.scroll_into_view_if_needed()
        box = headline.bounding_box()
        assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 844
    finally:
        page.set_viewport_size({"width": 1366, "height": 900})


def test_the_source_fight_carrying_every_point_is_a_labelled_simulation(page: Page) -> None:
    """The page's own twelve orcs against eight knights with carried wounds (12,672 pairs
    of HP totals, past what the pruned walk may follow in time), chosen in the form at
    390 px: a seeded simulation, the same figures as CPython's, each chance on screen
    with its 95% interval and the explanation saying it is a simulation and why."""
    instant_goto(page, "../groups/")
    root = widget(page, "heroic.engagement")
    assert wait_settled(page, root) == "ready"
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        # the page's own sides, whatever an earlier test left in the form; carried wounds
        # chosen last, so that choosing them is what the reply answers
        wounds = root.locator('[name="wounds"]')
        if wounds.input_value() == "carry":
            wait_result(page, root, lambda: wounds.select_option("drop"))
        for name, value in (("a_members", "12"), ("b_members", "8")):
            field = root.locator(f'[name="{name}"]')
            if field.input_value() != value:
                wait_result(page, root, lambda f=field, v=value: f.fill(v))
        reply = wait_result(page, root,
                            lambda: root.locator('[name="wounds"]').select_option("carry"))
        assert reply["ok"], reply
        raw = {**api.spec("heroic.engagement")["initial"], "wounds": "carry"}
        expected = json.loads(json.dumps(api.run("heroic.engagement", raw)["result"]))
        text = simulation_shown(page, root, reply["result"], expected, "Orcs broken", 844)
        assert "12,672 pairs of HP totals" in text
    finally:
        page.set_viewport_size({"width": 1366, "height": 900})
