"""A fight played with real dice is told round by round (issue 29, item 5): each round's
line says what happened and what stood after it, each round shows its own dice, the
whole account can be copied as text, and the session log keeps it."""

from __future__ import annotations

import re
from html import unescape

import pytest

from calculators.fence import initial_inputs
from calculators.render import roll_html, roll_record
from rules_core import api
from rules_core.catalog import calculators

#: fights told one line a round (SUCS is told action by action: below)
FIGHTS = ("heroic.engagement", "cortex.engagement", "gunplay.engagement", "phases.engagement")


def played(name: str) -> dict:
    """One fight at the page's starting inputs, with real (system) dice."""
    reply = api.roll(name, initial_inputs(calculators()[name].fields, {}))
    assert reply["ok"], reply
    return reply


@pytest.mark.parametrize("name", FIGHTS)
def test_every_round_is_told_with_its_own_dice(name: str) -> None:
    for _ in range(3):
        reply = played(name)
        result = reply["result"]
        rounds = [line for line in result["log"] if re.match(r"Round \d+: ", line)]
        assert [int(re.match(r"Round (\d+)", line).group(1)) for line in rounds] == \
            list(range(1, len(rounds) + 1))  # type: ignore[union-attr]
        told = {d["round"] for d in result["dice"] if "round" in d}
        assert told <= set(range(1, len(rounds) + 1)) and told, name
        html = roll_html(reply)
        assert html.count('<li><p class="calc-round-line">') == len(result["log"])
        # every die is shown once, in its round's list
        assert html.count('class="calc-die"') == len(result["dice"])
        text = unescape(re.search(r'data-text="([^"]*)"', html).group(1))  # type: ignore[union-attr]
        assert text.splitlines() == [result["summary"], *result["log"]]
        record = roll_record(api.spec(name), {}, reply)
        assert record["account"] == result["log"]


@pytest.mark.parametrize("name", ("sucs.engagement", "sucs.roster_battle"))
def test_a_sucs_fight_is_told_turn_by_turn_action_by_action(name: str) -> None:
    """Each turn a block (its heading, one line per action with that action's dice, the
    state after it); the page shows every die of the account once, with its action; the
    text copy and the session log are the same lines."""
    for _ in range(3):
        reply = played(name)
        result = reply["result"]
        told = result["account"]
        assert [b["heading"] for b in told] == [f"Turn {n}" for n in range(1, len(told) + 1)]
        assert all(b["after"].startswith(f"After turn {n}: ") for n, b in enumerate(told, 1))
        html = roll_html(reply)
        assert html.count('<li class="calc-turn">') == len(told)
        faces = sum(len(r["faces"]) for b in told for a in b["actions"] for r in a["rolls"])
        assert html.count('class="calc-die"') == faces and faces > 0
        # the dice shown are the dice rolled, in order, less any d6 rolled and not needed
        shown = iter(d["face"] for d in result["dice"])
        assert all(any(f == d for d in shown) for b in told for a in b["actions"]
                   for r in a["rolls"] for f in r["faces"])
        text = unescape(re.search(r'data-text="([^"]*)"', html).group(1))  # type: ignore[union-attr]
        assert text.splitlines() == [result["summary"], *result["log"]]
        assert roll_record(api.spec(name), {}, reply)["account"] == result["log"]
        last = told[-1]["after"]
        for side, name_ in result.get("names", {"a": "Side A", "b": "Side B"}).items():
            other = "b" if side == "a" else "a"
            if result["outcome"].startswith(name_):
                names = result.get("names", {"a": "Side A", "b": "Side B"})
                assert f"{names[other]}: none left" in last, last


@pytest.mark.parametrize("name", ("cortex.engagement",))
def test_each_round_says_what_stands_after_it(name: str) -> None:
    for _ in range(5):
        result = played(name)["result"]
        assert all("Standing: " in line for line in result["log"] if line.startswith("Round "))
        last = result["log"][-1]
        if result["outcome"] == "Side A wins":
            assert re.search(r"[sS]ide B (none left|nobody)", last), last
        if result["outcome"] == "Side B wins":
            assert re.search(r"[sS]ide A (none left|nobody)", last), last


def test_a_roll_that_is_not_a_fight_keeps_its_one_line_of_dice() -> None:
    html = roll_html({"result": {"summary": "Hit", "dice": [{"die": "d10", "face": 7}]}})
    assert "calc-roll-account" not in html and html.count('class="calc-die"') == 1
    assert roll_record({"name": "x", "title": "X", "fields": []}, {},
                       {"result": {"summary": "Hit", "dice": []}})["account"] == []


def test_the_account_is_escaped() -> None:
    html = roll_html({"result": {"summary": "<b>", "log": ["Round 1: <script>x</script>", "<i>"],
                                 "dice": [{"die": "d6<", "face": 3, "round": 1}]}})
    assert "<script>" not in html and "<i>" not in html and "&lt;script&gt;" in html
