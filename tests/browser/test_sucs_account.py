"""The account of a SUCS battle played with real dice, as a person reads it (issue 43.1,
43.2): two rosters with the same kinds of unit fight on the army builder's page, at 390 px
and 1366 px; every action names its side's unit, each die sits with its roll, one word
("turn") for the unit of time; the text copy and the session log keep the same lines. And
two of the smaller things (43.6): the "Back to top" pill never covers a widget's
control, and a longer exact fraction wraps between digit groups on a phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page

from tests.browser.support import RUNTIME_TIMEOUT_MS, goto_once, wait_result, wait_settled, widget
from tests.crossbrowser import page_scripts
from tests.rules_core.test_sucs_account import BLUE, RED, UNITS

pytestmark = pytest.mark.browser

SIDES = {"a": "Red platoon", "b": "Blue company"}
ATTACK = re.compile(r"^(?P<who>.+?) fires at (?P<target>.+?): attack roll (?P<total>\d+) "
                    r"against \d+ needed(?:, damage equal to armor, d6 (?P<d6>\d))?: "
                    r"(?:destroyed|suppressed|no effect)")

#: every turn block as the page shows it: heading, each action's words, side and dice by
#: roll, the state after it (text, as a person reads it); the WebKit smoke suite reads it so
READ = "root => " + page_scripts.TURNS


@pytest.fixture(scope="module")
def battle(module_page: Page, site) -> Locator:  # type: ignore[no-untyped-def]
    module_page.goto(site.url + "sucs/roster/")
    root = widget(module_page, "sucs.roster_battle")
    assert wait_settled(module_page, root) == "ready"
    for name, roster in (("roster_a", RED), ("roster_b", BLUE)):
        box = root.locator(f'.calc-field[data-field="{name}"] textarea, '
                           f'.calc-field[data-field="{name}"] input').first
        reply = wait_result(module_page, root, lambda box=box, roster=roster: box.fill(roster))
        assert reply["ok"], reply
    return root


def check_account(blocks: list[dict], summary: str) -> int:
    """Every line of the account as read off the page: returns the actions checked."""
    assert blocks and [b["heading"] for b in blocks] == [f"Turn {n}" for n in range(1, len(blocks) + 1)]
    checked = 0
    for n, block in enumerate(blocks, 1):
        assert block["after"].startswith(f"After turn {n}: Red platoon: "), block["after"]
        assert "; Blue company: " in block["after"]
        opening = block["actions"][0]
        assert opening["side"] == "" and opening["words"].startswith("Initiative, 2d6 each: ")
        assert [r["what"].rstrip(":").split(",")[0] for r in opening["rolls"]][:2] == list(SIDES.values())
        assert all(len(r["faces"]) == 2 for r in opening["rolls"])
        for action in block["actions"][1:]:
            own = SIDES[action["side"]]  # every action is marked with its side...
            assert action["words"].startswith(own + " ")  # ...and names it first
            found = ATTACK.match(action["words"])
            if found is None:
                assert re.fullmatch(r".+ reorganizes: \d suppression markers? removed\.",
                                    action["words"]), action["words"]
                assert action["rolls"] == []
                continue
            assert found["who"] in UNITS and found["target"] in UNITS
            assert not found["target"].startswith(own)
            rolls = {r["what"]: r["faces"] for r in action["rolls"]}
            assert sum(rolls["attack roll 2d6:"]) == int(found["total"])  # its own dice
            if found["d6"]:
                assert rolls["d6 (damage equal to armor):"] == [int(found["d6"])]
            checked += 1
    assert not re.search(r"\bround\b", summary, re.I)
    return checked


def test_two_rosters_of_the_same_kinds_are_told_side_by_side(battle: Locator, site) -> None:  # type: ignore[no-untyped-def]
    page = battle.page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site.url.rstrip("/"))
    # names everywhere: the headline, the charts and the explanation
    headline = battle.locator(".calc-headline").first.evaluate("el => el.textContent")
    assert "Red platoon holds the field" in headline and "Blue company holds the field" in headline
    assert "Side A" not in headline and "Side B" not in headline
    titles = battle.locator(".calc-chart-title").all_text_contents()
    assert "Turn the battle ends in" in titles and "Red platoon points lost" in titles
    explanation = battle.locator(".calc-explanation-body").evaluate("el => el.textContent")
    assert "By turn" in explanation and "By round" not in explanation
    assert "Red platoon's commanders are officer x1" in explanation
    for width, height in ((390, 844), (1366, 900)):
        page.set_viewport_size({"width": width, "height": height})
        battle.locator(".calc-roll-current").evaluate("el => el.replaceChildren()")
        battle.locator('button[data-action="roll"]').click()
        battle.locator(".calc-roll-current .calc-turn").first.wait_for(timeout=RUNTIME_TIMEOUT_MS)
        blocks = page.evaluate(READ, battle.element_handle())
        whole = battle.locator(".calc-roll-current").evaluate("el => el.textContent")
        assert check_account(blocks, whole) >= 2
        assert page.evaluate("() => document.documentElement.scrollWidth - innerWidth") <= 0
        # the dice are labelled for a screen reader by the words beside them
        group = battle.locator(".calc-roll-current .calc-roll-group").first
        assert group.evaluate("g => g.textContent").strip().startswith("Red platoon")
    before = page.evaluate("() => JSON.parse(localStorage.getItem('tcr:/:session-log') || '[]')")
    button = battle.locator('[data-action="copy-account"]')
    button.click()
    page.wait_for_function("el => el.dataset.copied", arg=button.element_handle())
    lines = page.evaluate("() => navigator.clipboard.readText()").splitlines()
    assert lines[0] == battle.locator(".calc-roll-summary").first.evaluate("el => el.textContent")
    # the copy is the page's account line for line, each die after its own action
    expected = []
    for block in page.evaluate(READ, battle.element_handle()):
        expected.append(block["heading"])
        for action in block["actions"]:
            dice = "; ".join(f"{r['what'].rstrip(':')}: {', '.join(map(str, r['faces']))}"
                             for r in action["rolls"])
            expected.append(action["words"] + (f" [{dice}]" if dice else ""))
        expected.append(block["after"])
    assert lines[1:] == expected
    assert before and before[0]["account"] == lines[1:] and before[0]["outcome"] == lines[0]


SCROLL = """([selector, to]) => new Promise(resolve => {
  const settle = () => requestAnimationFrame(() => requestAnimationFrame(resolve));
  const before = window.scrollY;
  addEventListener('scroll', settle, { once: true });
  if (to === 'foot') window.scrollTo(0, document.documentElement.scrollHeight);
  else {
    const box = document.querySelector(selector).getBoundingClientRect();
    window.scrollTo(0, window.scrollY + box.top + 120);
  }
  if (window.scrollY === before) { removeEventListener('scroll', settle); settle(); }
})"""

#: the widget's controls the pill's box overlaps while it can be seen and pressed
COVERED = """selector => {
  const pill = document.querySelector('.md-top');
  const style = getComputedStyle(pill);
  if (pill.hidden || style.visibility === 'hidden' || style.pointerEvents === 'none'
      || Number(style.opacity) === 0) return [];
  const p = pill.getBoundingClientRect();
  return [...document.querySelectorAll(selector + ' :is(button, input, select, textarea, summary)')]
    .filter(c => { const r = c.getBoundingClientRect();
      return r.width && r.top < p.bottom && r.bottom > p.top && r.left < p.right && r.right > p.left; })
    .map(c => c.outerHTML.slice(0, 80));
}"""


def test_back_to_top_never_covers_a_widgets_control(battle: Locator) -> None:
    page = battle.page
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        for selector in ('.calc[data-calculator="sucs.roster_battle"]', ".calc-app"):
            page.evaluate(SCROLL, [selector, "foot"])
            page.evaluate(SCROLL, [selector, "widget"])  # a scroll up, over the widget
            # the theme has shown the pill for the scroll up, and it was set aside
            page.wait_for_function("() => !document.querySelector('.md-top').hidden")
            page.wait_for_function(
                "() => document.querySelector('.md-top').classList.contains('calc-top-over')")
            assert page.evaluate(COVERED, selector) == []
        # above every widget, the pill is back
        page.evaluate("() => window.scrollTo(0, 0)")
        page.wait_for_function(
            "() => !document.querySelector('.md-top').classList.contains('calc-top-over')")
    finally:
        page.set_viewport_size({"width": 1366, "height": 900})


def test_a_longer_exact_fraction_wraps_between_digit_groups_on_a_phone(site, battle: Locator) -> None:  # type: ignore[no-untyped-def]
    page = battle.page
    goto_once(page, site, "cortex/enemies/")
    root = widget(page, "cortex.on_fire")  # fractions of up to 43 characters
    assert wait_settled(page, root) == "ready"
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        cells = root.locator("td.calc-exact-wrap")
        assert cells.count() >= 1
        table = cells.first.locator("xpath=ancestor::details[1]")
        table.evaluate("d => { d.open = true; }")
        toggle = table.locator(".calc-show-exact input")
        if toggle.count() and not toggle.is_checked():
            toggle.check()  # the reader opts in to the fractions
        longest = max(range(cells.count()), key=lambda i: len(cells.nth(i).get_attribute("data-exact") or ""))
        cell = cells.nth(longest)
        assert cell.is_visible()
        shape = cell.evaluate("""td => ({
          lines: new Set([...td.querySelectorAll('.calc-digits')].map(s => Math.round(s.getBoundingClientRect().top))).size,
          split: [...td.querySelectorAll('.calc-digits')].filter(s => s.getClientRects().length !== 1).length,
          text: td.textContent, over: td.scrollWidth - td.clientWidth,
        })""")
        assert shape["text"] == cell.get_attribute("data-exact")  # the whole fraction, in order
        assert shape["lines"] >= 2, shape  # too long for the phone's column: it wraps...
        assert shape["split"] == 0 and shape["over"] <= 0  # ...between groups, within the cell
        assert page.evaluate("() => document.documentElement.scrollWidth - innerWidth") <= 0
    finally:
        page.set_viewport_size({"width": 1366, "height": 900})
