"""Fireteam pools, firefight pools and the calculators around them."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from rules_core import api
from rules_core.cortex.contest import resolve
from rules_core.cortex.pools import InjuryRule, Member, injury_dice, operator_die
from rules_core.cortex.tables import drone_cost, drones_total


@pytest.mark.parametrize("da, cqb, die, key", [
    (6, 10, 10, "cqb_higher"),
    (8, 6, 10, "cqb_lower"),
    (8, 8, 10, "cqb_equal"),      # ruling: equal steps up like lower
    (12, 8, 12, "cqb_lower"),     # never past d12
    (12, 12, 12, "cqb_equal"),
    (6, None, 6, "direct_action"),
])
def test_operator_die_cqb_rule(da: int, cqb: int | None, die: int, key: str) -> None:
    assert operator_die(Member(da, cqb))[:2] == (die, key)


def test_fireteam_pool_pc_and_npc() -> None:
    reply = api.run("cortex.fireteam_pool", {
        "kind": "pc", "tactics": 8,
        "members": [{"direct_action": 8, "cqb": 10}, {"direct_action": 8},
                    {"direct_action": 10, "cqb": 6}, {"direct_action": 6, "cqb": 6}]})
    assert reply["ok"] and reply["result"]["pool"] == [8, 10, 8, 12, 8]
    assert [c["rule"] for c in reply["result"]["contributions"]] == [
        "cqb_higher", "direct_action", "cqb_lower", "cqb_equal"]
    typed = api.run("cortex.fireteam_pool", {"kind": "pc", "tactics": "d8",
                                             "members": "d8/d10, d8, d10 cqb d6, d6/d6"})
    assert typed["result"]["pool"] == reply["result"]["pool"]
    npc = api.run("cortex.fireteam_pool", {"kind": "npc", "quality": "d8 d8 d6"})
    assert npc["result"]["pool"] == [8, 8, 6]


@pytest.mark.parametrize("inputs, field", [
    ({"kind": "pc", "tactics": 8, "members": "d8, d8/d7, d6"}, "members.2.cqb"),
    ({"kind": "pc", "tactics": 8, "members": [{"direct_action": 5}, 8, 8]},
     "members.1.direct_action"),
    ({"kind": "pc", "tactics": 8, "members": [{"cqb": 8}, 6, 6]}, "members.1.direct_action"),
    ({"kind": "pc", "tactics": 8, "members": "d8, d8, d8, d8, d8, d8, d8"}, "members"),
    ({"kind": "pc", "tactics": 9, "members": "d8"}, "tactics"),
    ({"kind": "npc", "quality": "d8 d8 d8 d8 d8 d8 d8"}, "quality"),
    ({"kind": "npc", "quality": "d8", "members": "d8"}, "members"),
])
def test_fireteam_errors_name_the_field(inputs: dict, field: str) -> None:
    reply = api.run("cortex.fireteam_pool", inputs)
    assert not reply["ok"] and reply["error"]["field"] == field


@pytest.mark.parametrize("members", ["d8", "d8/d10, d6", [8, 8]])
def test_player_fireteam_of_one_or_two_is_refused(members) -> None:
    """Part I: player fireteams have 3 to 6 members (Fireteams as Characters)."""
    reply = api.run("cortex.fireteam_pool", {"kind": "pc", "tactics": 8, "members": members})
    assert not reply["ok"] and reply["error"]["field"] == "members"
    assert "3 to 6" in reply["error"]["message"] and "Members" in reply["error"]["message"]


@pytest.mark.parametrize("rule, dice, expected", [
    (InjuryRule.EVERY, [6, 8, 4], [8, 6, 4]),
    (InjuryRule.HIGHEST, [6, 8, 4], [8]),
    (InjuryRule.AVERAGE, [6, 8], [8]),     # 2.5 steps rounds up to 3 (d8)
    (InjuryRule.AVERAGE, [4, 6, 6], [6]),  # 1.67 steps rounds to 2 (d6)
    (InjuryRule.AVERAGE, [4, 12], [8]),    # 3 steps
    (InjuryRule.EVERY, [], []),
])
def test_injury_variants(rule: InjuryRule, dice: list[int], expected: list[int]) -> None:
    assert injury_dice(dice, rule) == expected


def firefight(**changes: object) -> dict:
    inputs = {**api.spec("cortex.firefight_pools")["initial"], **changes}
    reply = api.run("cortex.firefight_pools", inputs)
    assert reply["ok"], reply
    return reply["result"]


def test_firefight_pools_range_cover_armor_and_injuries() -> None:
    base = firefight(attacker_kind="character", attacker_approach=8, attacker_direct_action=10,
                     defender_kind="unit", defender_quality="d6 d6 d8", range="adjacent",
                     cover_rating=10)
    assert base["attack_pool"] == [10, 8]
    # quality d8 d6 d6, +d8 range, cover = lesser of lowest quality d6 and rating d10
    assert base["defence_pool"] == [8, 8, 6, 6, 6]
    far = firefight(defender_quality="d6 d6 d8", range="farther", cover_rating=4, armor=6)
    assert far["defence_pool"] == [10, 8, 6, 6, 6, 4]
    sniped = firefight(defender_quality="d6 d6 d8", range="same", cover_rating=4, armor=6,
                       marksman=True, exposed=True)
    assert sniped["defence_pool"] == [8, 6, 6]
    hurt = firefight(defender_quality="d6", range="same", cover_rating=None,
                     defender_injuries="d6 d8", attacker_injuries="d4", injury_rule="highest")
    assert hurt["attack_pool"] == [10, 8, 8] and hurt["defence_pool"] == [6, 4]
    char = firefight(defender_quality=None, defender_kind="character", defender_approach=6, defender_direct_action=8,
                     cover_rating=12, range="same")
    assert char["defence_pool"] == [8, 8, 6]  # cover limited by Direct Action d8


def test_hit_allocation_deals_numbers_most_exposed_first() -> None:
    reply = api.run("cortex.hit_allocation", {"members": "A, B, C, D, E", "face": 12})
    numbers = [a["numbers"] for a in reply["result"]["allocation"]]
    assert numbers == [[1, 6, 11], [2, 7, 12], [3, 8], [4, 9], [5, 10]]
    assert reply["result"]["hit_member"] == "B"
    assert reply["result"]["hit_exact"] == {"A": "1/4", "B": "1/4", "C": "1/6", "D": "1/6",
                                            "E": "1/6"}
    four = api.run("cortex.hit_allocation", {"members": ["A", "B", "C", "D"]})
    assert all(a["chance_exact"] == "1/4" for a in four["result"]["allocation"])
    bad = api.run("cortex.hit_allocation", {"members": "A, B"})
    assert bad["error"]["field"] == "members"
    dup = api.run("cortex.hit_allocation", {"members": "A, B, A"})
    assert dup["error"]["field"] == "members.3"


def test_drone_costs_double() -> None:
    assert [drone_cost(n) for n in range(1, 6)] == [1, 2, 4, 8, 16]
    assert drones_total(3) == 7 and drones_total(1) == 1
    reply = api.run("cortex.drones", {"drones": 4})
    assert reply["result"] == {"costs": [1, 2, 4, 8], "next_cost": 8, "total": 15}


def test_initiative_equals_brute_force() -> None:
    a, b = [8, 6], [6, 6, 4]
    tot = lambda sizes: [resolve(list(zip(sizes, f))).total  # noqa: E731
                         for f in itertools.product(*[range(1, s + 1) for s in sizes])]
    ta, tb = tot(a), tot(b)
    n = len(ta) * len(tb)
    wins = Fraction(sum(x > y for x in ta for y in tb), n)
    ties = Fraction(sum(x == y for x in ta for y in tb), n)
    result = api.run("cortex.initiative", {"players": a, "gm": b})["result"]
    assert result["p_players_exact"] == str(wins) and result["p_tie_exact"] == str(ties)
    assert result["p_players_choose_exact"] == str(wins / (1 - ties))


def test_pool_calculator_odds_and_roll_use_one_rule() -> None:
    result = api.run("cortex.pool", {"pool": "d6 d4"})["result"]
    brute: dict[str, Fraction] = {}
    for f in itertools.product(range(1, 7), range(1, 5)):
        t = str(resolve([(6, f[0]), (4, f[1])]).total)
        brute[t] = brute.get(t, 0) + Fraction(1, 24)
    assert {k: Fraction(v) for k, v in result["total_exact"].items()} == brute
    assert result["p_hitch_exact"] == str(1 - Fraction(5, 6) * Fraction(3, 4))
    rolled = api.roll("cortex.pool", {"pool": "d8 d8 d6 d6"}, random.Random(3))["result"]
    again = resolve([(int(d["die"][1:]), d["face"]) for d in rolled["dice"]])
    assert rolled["total"] == again.total and rolled["effect_die"] == again.effect_die


def test_odds_calculator_roll_and_result_shape() -> None:
    inputs = {"attacker": "d10 d8 d8 d6", "defender": [8, 6, 6], "unit": "d6 d6 d8",
              "plot_point": True, "rules": "part1", "surplus": "carried", "complication": 4}
    reply = api.run("cortex.odds", inputs)
    assert reply["ok"]
    for key in ("p_win", "margin", "effect_die", "extra_effect_dice", "taken_out"):
        assert key in reply["result"] and (key == "p_win" or key + "_exact" in reply["result"])
    assert set(reply["result"]["taken_out"]) == {"0", "1", "2", "3"}
    for seed in range(5):
        rolled = api.roll("cortex.odds", inputs, random.Random(seed))
        assert rolled["ok"] and rolled["result"]["summary"]
    no_unit = api.run("cortex.odds", {"attacker": [8], "defender": [8]})
    assert "taken_out" not in no_unit["result"]


def test_hit_allocation_as_written_uses_the_effect_die_face() -> None:
    """Part I as written: the number shown on the effect die (2 to its size) picks."""
    four = {"members": "A, B, C, D", "picker": "effect", "effect_die": 8}
    result = api.run("cortex.hit_allocation", four)["result"]
    # numbers A 1,5,9  B 2,6,10  C 3,7,11  D 4,8,12; a d8 effect die shows 2..8
    brute = {m: Fraction(sum(1 for f in range(2, 9) if f in nums), 7)
             for m, nums in zip("ABCD", ([1, 5, 9], [2, 6, 10], [3, 7, 11], [4, 8, 12]))}
    assert {m: Fraction(p) for m, p in result["hit_exact"].items()} == brute
    assert result["hit_exact"]["A"] == "1/7"
    d12 = api.run("cortex.hit_allocation", {"members": "A, B, C, D"})["result"]
    assert set(d12["hit_exact"].values()) == {"1/4"}
    six = api.run("cortex.hit_allocation", {"members": "A, B, C, D, E, F", "picker": "effect",
                                            "effect_die": 4})["result"]
    assert [a["chance_exact"] for a in six["allocation"]] == ["0", "1/3", "1/3", "1/3", "0", "0"]
    bad = api.run("cortex.hit_allocation", {**four, "face": 1})
    assert bad["error"]["field"] == "face" and "Number rolled" in bad["error"]["message"]
    assert api.run("cortex.hit_allocation", {**four, "face": 6})["result"]["hit_member"] == "B"
    for seed in range(30):
        rolled = api.roll("cortex.hit_allocation", four, random.Random(seed))["result"]
        assert 2 <= rolled["dice"][-1]["face"] <= 8 and rolled["member"] in "ABCD"
        assert all(d["face"] == 1 for d in rolled["dice"][:-1])
