"""GURPS Heroic Combat: numerical superiority and pooled group injury."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_core import api
from rules_core.catalog import rules_tables
from rules_core.heroic.groups import hit_multiplier, skill_bonus
from rules_core.heroic.tables import PRINTED_MULTIPLIER


@pytest.mark.parametrize("attackers,defenders,bonus", [
    (1, 1, 0), (2, 3, 0), (8, 8, 0), (9, 8, 2),
    (3, 2, 2), (12, 8, 2),             # exactly 1.5 : 1 stays in the +2 row
    (31, 20, 4), (4, 2, 4), (16, 8, 4),  # exactly 2 : 1 stays in the +4 row
    (201, 100, 6), (3, 1, 6), (4, 1, 8), (5, 1, 10), (6, 1, 12),
    (7, 1, 14), (14, 2, 14),           # exactly 7 : 1 is +14
    (701, 100, 16), (15, 2, 16), (1000, 1, 16),
])
def test_ratio_table_boundaries(attackers, defenders, bonus) -> None:
    assert skill_bonus(attackers, defenders) == bonus


#: every band edge of the multiplier table, printed and continued
EDGES = [(1, 1), (2, 1), (3, 1), (4, 2), (5, 2), (6, 3), (7, 3), (8, 4), (10, 4), (11, 5),
         (15, 5), (16, 6), (20, 6), (21, 7), (30, 7), (31, 8), (50, 8), (51, 9), (70, 9),
         (71, 10), (100, 10), (101, 11), (150, 11), (151, 12), (200, 12), (201, 13), (300, 13),
         (301, 14), (500, 14), (501, 15), (700, 15), (701, 16), (1000, 16), (1001, 17)]


@pytest.mark.parametrize("attackers,multiplier", EDGES)
def test_hit_multiplier_band_edges(attackers, multiplier) -> None:
    assert hit_multiplier(attackers) == multiplier


def test_hit_multiplier_reproduces_the_printed_table() -> None:
    low = 1
    for top, mult in PRINTED_MULTIPLIER:
        for n in range(low, top + 1):
            assert hit_multiplier(n) == mult
        low = top + 1


@given(st.integers(1, 100_000))
def test_hit_multiplier_never_falls(n) -> None:
    assert hit_multiplier(n) <= hit_multiplier(n + 1) <= hit_multiplier(n) + 1


def test_orcs_and_knights_numbers() -> None:
    reply = api.run("heroic.numbers", {"attackers": 12, "defenders": 8})
    assert reply["result"]["skill_bonus"] == 2 and reply["result"]["hit_multiplier"] == 5
    assert reply["result"]["multiplier_band"] == [11, 15]


@pytest.mark.parametrize("inputs,field", [
    ({"attackers": 12.5, "defenders": 8}, "attackers"),
    ({"attackers": 12, "defenders": 0}, "defenders"),
    ({"attackers": "many", "defenders": 8}, "attackers"),
])
def test_bad_numbers(inputs, field) -> None:
    reply = api.run("heroic.numbers", inputs)
    assert not reply["ok"] and reply["error"]["field"] == field


KNIGHTS = {"dr": 6, "wounding_multiplier": 1.5, "hp": 11, "count": 8}


@pytest.mark.parametrize("damage", [38, "38", "4, 10, 7, 10, 7", [4, 10, 7, 10, 7], "4 10 7 10 7"])
def test_knights_example(damage) -> None:
    """38 damage in 5 hits, DR 6, cutting: injury 12; 88 HP becomes 76 (the source prints 66)."""
    inputs = {**KNIGHTS, "damage": damage}
    if not isinstance(damage, list) and "," not in str(damage) and " " not in str(damage):
        inputs["hits"] = 5
    r = api.run("heroic.group_injury", inputs)["result"]
    assert (r["total_damage"], r["dr_total"], r["penetrating"], r["injury"]) == (38, 30, 8, 12)
    assert (r["hp_before"], r["hp_after"]) == (88, 76) and r["hp_after"] != 66
    assert r["down"] == 1 and r["wounded_hp"] == 10 and r["standing"] == 7


def test_dr_larger_than_damage_is_no_injury() -> None:
    r = api.run("heroic.group_injury", {**KNIGHTS, "damage": 20, "hits": 5})["result"]
    assert r["penetrating"] == 0 and r["injury"] == 0
    assert r["hp_after"] == 88 and r["down"] == 0 and r["wounded_hp"] is None


def test_per_roll_variant() -> None:
    r = api.run("heroic.group_injury", {**KNIGHTS, "damage": "4, 10, 7, 10, 7",
                                        "dr_method": "per_roll"})["result"]
    assert r["penetrating"] == 0 + 4 + 1 + 4 + 1 and r["injury"] == 15 and r["hp_after"] == 73


@pytest.mark.parametrize("penetrating,mult,injury", [(5, 1.5, 7), (1, 0.5, 1), (3, 0.5, 1),
                                                      (7, 2, 14), (10, 1, 10)])
def test_rounding_down_with_a_minimum_of_one(penetrating, mult, injury) -> None:
    r = api.run("heroic.group_injury", {"damage": penetrating, "hits": 1, "dr": 0,
                                        "wounding_multiplier": mult, "hp": 10, "count": 3})
    assert r["result"]["injury"] == injury


def test_wounded_group_and_wipe_out() -> None:
    r = api.run("heroic.group_injury", {**KNIGHTS, "damage": 38, "hits": 5,
                                        "group_hp": 50})["result"]
    assert r["hp_after"] == 38 and r["standing"] == 4 and r["down"] == 4
    assert r["newly_down"] == 1 and r["wounded_hp"] == 5
    r = api.run("heroic.group_injury", {**KNIGHTS, "damage": 500, "hits": 5})["result"]
    assert r["hp_after"] == 0 and r["down"] == 8 and r["wounded_hp"] is None


@pytest.mark.parametrize("inputs,field,words", [
    ({"damage": 38}, "hits", "required"),
    ({"damage": "4, 10", "hits": 3}, "hits", "lists 2 rolls"),
    ({"damage": "four"}, "damage", "not a whole number"),
    ({"damage": [4, -1]}, "damage", "0 or more"),
    ({"damage": [4, 2.5]}, "damage", "whole number"),
    ({"damage": "", "hits": 1}, "damage", "empty"),
    ({"damage": 38, "hits": 5, "dr_method": "per_roll"}, "dr_method", "needs the rolls"),
    ({"damage": 38, "hits": 5, "group_hp": 89}, "group_hp", "more than the group's full 88"),
    ({"damage": 38, "hits": 5, "count": 7.5}, "count", "7.5"),
    ({"damage": 38, "hits": 5, "wounding_multiplier": 0}, "wounding_multiplier", "more than 0"),
])
def test_bad_injury_input(inputs, field, words) -> None:
    reply = api.run("heroic.group_injury", {**KNIGHTS, **inputs})
    assert not reply["ok"], reply
    assert reply["error"]["field"] == field and words in reply["error"]["message"]


def test_rules_tables_render() -> None:
    tables = rules_tables()
    for name in ("heroic.tactics", "heroic.ratio", "heroic.multiplier", "heroic.group_bonus",
                 "heroic.range_bands", "heroic.morale", "heroic.actions"):
        t = tables[name]()
        assert t["rows"] and all(len(row) == len(t["header"]) for row in t["rows"])
    mult = tables["heroic.multiplier"]()["rows"]
    assert ["31-50", "x8", "continued"] in mult and ["21-30", "x7", "printed"] in mult
    ratio = tables["heroic.ratio"]()["rows"]
    assert ratio[1] == ["over 1:1 up to 1.5:1", "+2"] and ratio[-1] == ["over 7:1", "+16"]
