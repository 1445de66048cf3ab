"""Weapon handling: finding a hidden weapon, suppressing fire, the reference tables."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product

import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_core import api
from rules_core.catalog import rules_tables
from rules_core.gunplay.hiding import Search, weapon_found

FACES = range(1, 11)


def ok(name: str, inputs: dict) -> dict:
    reply = api.run(name, inputs)
    assert reply["ok"], reply
    return reply


# --- hidden weapons (ruling: "Searching for a hidden weapon") ------------------------

def brute_found(stealth: int, notice: int, easier: int) -> Fraction:
    found = sum(n + notice >= h + stealth - easier for h, n in product(FACES, repeat=2))
    return Fraction(found, 100)


@given(stealth=st.integers(-30, 50), notice=st.integers(-30, 50),
       method=st.sampled_from(["hands_on", "distance"]))
def test_search_odds_equal_enumeration(stealth: int, notice: int, method: str) -> None:
    result = ok("gunplay.weapon_search", {"stealth": stealth, "notice": notice,
                                          "method": method})["result"]
    expected = brute_found(stealth, notice, 5 if method == "hands_on" else 0)
    assert Fraction(result["p_found_exact"]) == expected
    assert result["outcome_exact"] == {"found": str(expected), "hidden": str(1 - expected)}


def test_search_odds_agree_with_icepool() -> None:
    for stealth, notice in ((4, 2), (0, 0), (7, -1)):
        die = (icepool.d10 + notice) >= (icepool.d10 + stealth - 5)
        p = Fraction(die.quantity(True), die.denominator())
        assert ok("gunplay.weapon_search", {"stealth": stealth, "notice": notice,
                                            "method": "hands_on"})["result"]["p_found_exact"] == str(p)


def test_courier_example_from_the_page() -> None:
    # stealth 4 rolls 6: total 10; a hands-on search with notice +2 needs 5, a 3+ on the die
    assert [weapon_found(10, face + 2, Search.HANDS_ON) for face in FACES] == [False] * 2 + [True] * 8
    assert [weapon_found(10, face + 2, Search.DISTANCE) for face in FACES] == [False] * 7 + [True] * 3


def test_tie_goes_to_the_searcher() -> None:
    assert weapon_found(12, 12, Search.DISTANCE)
    assert weapon_found(12, 7, Search.HANDS_ON)
    assert not weapon_found(12, 6, Search.HANDS_ON)


def test_search_roll_rolls_two_d10s_through_the_same_rule() -> None:
    rng = random.Random(11)
    for _ in range(100):
        result = api.roll("gunplay.weapon_search", {"stealth": 3, "notice": 1,
                                                    "method": "hands_on"}, rng)["result"]
        hide, look = (d["face"] for d in result["dice"])
        assert result["found"] == weapon_found(hide + 3, look + 1, Search.HANDS_ON)


# --- suppressing fire ---------------------------------------------------------------

def test_suppression_rule_of_thumb() -> None:
    result = ok("gunplay.suppression", {"lanes": 1, "open_groups": 0, "actions": 4})["result"]
    assert result == {"per_action": [1, 1], "total": [4, 4]}
    result = ok("gunplay.suppression", {"lanes": 2, "open_groups": 2, "actions": 5,
                                        "magazine": 30})["result"]
    assert result["per_action"] == [2 + 6, 2 + 10]
    assert result["total"] == [40, 60]
    assert result["actions_covered"] == [3, 2] and result["runs_dry"] is True


def test_suppression_with_enough_rounds() -> None:
    result = ok("gunplay.suppression", {"lanes": 1, "actions": 10, "magazine": 30})["result"]
    assert result["actions_covered"] == [10, 10] and result["runs_dry"] is False


def test_suppression_needs_something_to_suppress() -> None:
    reply = api.run("gunplay.suppression", {"lanes": 0, "open_groups": 0, "actions": 3})
    assert not reply["ok"] and reply["error"]["field"] == "lanes"
    assert "at least one" in reply["error"]["message"]


# --- reference tables ----------------------------------------------------------------

def test_reference_tables_carry_the_source_figures() -> None:
    tables = rules_tables()
    actions = {row[0]: row[1] for row in tables["gunplay.actions"]()["rows"]}
    assert actions["Reload (swap the magazine and make ready)"].startswith("1 action ")
    assert [v for k, v in actions.items() if k.startswith("Draw")] == ["1 action", "2 actions"]
    assert actions["Take careful aim"] == "1 action each, -2 difficulty"
    malfunctions = {row[0]: row for row in tables["gunplay.malfunctions"]()["rows"]}
    assert malfunctions["Failure to feed"][2:4] == ["1 action", "yes"]
    assert malfunctions["Stovepipe (failure to eject)"][2:4] == ["1 action", "yes"]
    assert malfunctions["Squib load"][2:4] == ["not given (GM's call)", "not stated"]  # ruling
    suppression = tables["gunplay.suppression"]()["rows"]
    assert [row[1] for row in suppression] == ["1", "3 to 5"]
    bands = tables["gunplay.range_bands"]()["rows"]
    assert [row[1] for row in bands] == ["0", "1/8", "1/4", "1/2"]


@pytest.mark.parametrize("name", ["gunplay.size_range", "gunplay.movement", "gunplay.stance",
                                  "gunplay.range_bands", "gunplay.example_weapons",
                                  "gunplay.actions", "gunplay.malfunctions", "gunplay.suppression"])
def test_tables_are_rectangular(name: str) -> None:
    table = rules_tables()[name]()
    assert table["caption"] and all(len(row) == len(table["header"]) for row in table["rows"])


def test_stance_and_movement_tables_match_the_source() -> None:
    stance = rules_tables()["gunplay.stance"]()["rows"]
    assert [row[1:] for row in stance] == [["-1", "Medium"], ["-2", "Small"], ["-3", "Tiny"],
                                           ["+2", "Tiny"]]
    movement = rules_tables()["gunplay.movement"]()["rows"]
    assert [row[1] for row in movement] == ["-2", "0", "+2", "+4"]
