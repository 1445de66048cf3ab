"""Specialist and cover helpers: every chance against enumeration of every die face."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from fractions import Fraction

import pytest

from rules_core import api
from rules_core.cortex.contest import effect_dice, resolve, ways


def brute_by(attacker: list[int], defender: list[int],
             key: Callable[[tuple[int, ...]], int]) -> dict[int, Fraction]:
    """The contest with every face of both pools enumerated, grouped by ``key`` of the
    effect dice the attacker earns (an empty tuple when it fails)."""
    d_totals: dict[int, int] = {}
    for faces in itertools.product(*[range(1, s + 1) for s in defender]):
        t = resolve(list(zip(defender, faces))).total
        d_totals[t] = d_totals.get(t, 0) + 1
    n = ways(attacker) * ways(defender)
    out: dict[int, Fraction] = {}
    for faces in itertools.product(*[range(1, s + 1) for s in attacker]):
        roll = resolve(list(zip(attacker, faces)))
        for d_total, count in d_totals.items():
            k = key(effect_dice(roll.remaining, roll.total - d_total))
            out[k] = out.get(k, 0) + Fraction(count, n)
    return out


def brute(attacker: list[int], defender: list[int]) -> dict[int, Fraction]:
    """Effect die of the contest (0: the attacker fails), every face enumerated."""
    return brute_by(attacker, defender, lambda dice: dice[0] if dice else 0)


def brute_count(attacker: list[int], defender: list[int]) -> dict[int, Fraction]:
    """How many effect dice the attacker gets (0: fails)."""
    return brute_by(attacker, defender, len)


def at_least(dist: dict[int, Fraction], size: int) -> Fraction:
    return sum((p for s, p in dist.items() if s >= size), Fraction(0))


def result(name: str, inputs: dict) -> dict:
    reply = api.run(name, inputs)
    assert reply["ok"], reply
    return reply["result"]


@pytest.mark.parametrize("pool, fallen", [([8, 6, 6], 8), ([10, 8], 6), ([6, 6, 6, 4], 4)])
def test_medic_against_3d8(pool: list[int], fallen: int) -> None:
    got = result("cortex.medic", {"pool": pool, "fallen": fallen})
    assert Fraction(got["p_success_exact"]) == at_least(brute(pool, [8, 8, 8]), fallen)


@pytest.mark.parametrize("pool, grenadier, dice, targets, defence", [
    ([8, 6], 6, 1, 1, [8, 6]),
    ([8, 8, 6], 6, 0, 2, [6, 6]),
    ([6, 4], 4, 2, 2, [8, 4]),
])
def test_grenadier_targets_hit(pool, grenadier, dice, targets, defence) -> None:
    got = result("cortex.grenadier", {"pool": pool, "grenadier": grenadier, "edge_dice": dice,
                                      "edge_targets": targets, "defence": defence})
    counts = brute_count(pool + [grenadier] * dice, defence)
    expected: dict[int, Fraction] = {}
    for k, p in counts.items():
        hit = min(k, targets + 1)
        expected[hit] = expected.get(hit, 0) + p
    assert {int(k): Fraction(v) for k, v in got["targets_hit_exact"].items() if Fraction(v)} == \
        {k: v for k, v in expected.items() if v}
    assert sum(Fraction(v) for v in got["targets_hit_exact"].values()) == 1


def test_grenadier_must_be_in_the_unit_and_roll_deals_a_die_per_target() -> None:
    bad = api.run("cortex.grenadier", {"pool": "d8 d8", "grenadier": 6, "defence": "d6"})
    assert bad["error"]["field"] == "grenadier" and "Grenadier's quality die" in \
        bad["error"]["message"]
    for seed in range(20):
        rolled = api.roll("cortex.grenadier", {"pool": "d8 d8 d6 d6", "grenadier": 6,
                                               "edge_targets": 2, "defence": "d4 d4"},
                          random.Random(seed))["result"]
        assert 0 <= rolled["targets_hit"] <= 3


def test_suppressed_helps_allies_and_costs_the_unit() -> None:
    inputs = {"pool": "d8 d6 d6", "gunner": 6, "edge": 2, "ally": "d8 d6",
              "defence": "d8 d6", "other": "d6 d6"}
    got = result("cortex.suppressed", inputs)
    assert Fraction(got["ally_after_exact"]) == 1 - brute([8, 6, 6], [8, 6])[0]
    assert Fraction(got["ally_before_exact"]) == 1 - brute([8, 6], [8, 6])[0]
    assert got["unit_after_exact"] == got["unit_before_exact"]  # its d6 out, the condition's in
    assert Fraction(got["unit_elsewhere_exact"]) == 1 - brute([8, 6], [6, 6])[0]
    assert got["unit_pool_while_suppressing"] == [8, 6]
    bad = api.run("cortex.suppressed", {**inputs, "gunner": 10})
    assert bad["error"]["field"] == "gunner"
    lone = api.run("cortex.suppressed", {**inputs, "pool": "d6"})
    assert lone["error"]["field"] == "pool" and "Unit's quality dice" in lone["error"]["message"]
    rolled = api.roll("cortex.suppressed", inputs, random.Random(1))["result"]
    assert len(rolled["dice"]) == 3 + 2


def test_on_fire_turns_by_hand() -> None:
    inputs = {"fire": 6, "pool": "d8 d6", "difficulty": "d6", "turns": 4}
    got = result("cortex.on_fire", inputs)
    p = at_least(brute([8, 6], [6]), 6)
    assert Fraction(got["p_out_exact"]) == p
    expected = {0: p, 1: (1 - p) * p, 2: (1 - p) ** 2 * p, 3: (1 - p) ** 3 * p, 4: (1 - p) ** 4}
    assert {int(k): Fraction(v) for k, v in got["burns_exact"].items()} == expected
    never = result("cortex.on_fire", {**inputs, "tries": False})
    assert never["burns_exact"]["4"] == "1" and never["expected_burns"] == 4
    rolled = api.roll("cortex.on_fire", inputs, random.Random(3))["result"]
    assert 0 <= rolled["burns"] <= 4 and len(rolled["log"]) >= 1


@pytest.mark.parametrize("pool, difficulty, rating", [([8, 8, 6], [6, 6], 6), ([10, 6], [8], 4)])
def test_in_cover_is_capped_at_the_rating(pool, difficulty, rating) -> None:
    got = result("cortex.in_cover", {"pool": pool, "difficulty": difficulty, "rating": rating})
    expected: dict[int, Fraction] = {}
    for die, p in brute(pool, difficulty).items():
        key = min(die, rating) if die else 0
        expected[key] = expected.get(key, 0) + p
    assert {int(k): Fraction(v) for k, v in got["in_cover_exact"].items() if Fraction(v)} == \
        {k: v for k, v in expected.items() if v}
    assert max(int(k) for k, v in got["in_cover_exact"].items() if Fraction(v)) <= rating
    rolled = api.roll("cortex.in_cover", {"pool": pool, "difficulty": difficulty,
                                          "rating": rating}, random.Random(2))["result"]
    assert rolled["in_cover"] <= rating


def test_flanking_needs_an_effect_die_at_least_the_cover() -> None:
    got = result("cortex.flanking", {"pool": "d8 d8 d6", "defence": "d8 d6", "cover": 8})
    assert Fraction(got["p_flanked_exact"]) == at_least(brute([8, 8, 6], [8, 6]), 8)
    assert got["p_flanked"] < got["p_win"]
    rolled = api.roll("cortex.flanking", {"pool": "d8 d8 d6", "defence": "d8 d6", "cover": 8},
                      random.Random(4))["result"]
    assert isinstance(rolled["flanked"], bool) and rolled["summary"]


def test_page_and_rulings_figures() -> None:
    medic = result("cortex.medic", {"pool": "d8 d8 d6", "fallen": 8})
    assert (round(medic["p_win"], 2), round(medic["p_success"], 3)) == (0.38, 0.149)
    assert result("cortex.medic", {"pool": "d8", "fallen": 8})["p_success"] == 0
    cover = result("cortex.in_cover", {"pool": "d8 d8 d6", "difficulty": "d6 d6", "rating": 6})
    assert round(cover["p_win"], 2) == 0.77 and 0.31 < cover["p_capped"] < 0.34
    flank = {n: result("cortex.flanking", {"pool": "d8 d8 d6", "defence": "d8 d6 d6",
                                           "cover": 6, "needs": n})["p_flanked"]
             for n in ("at_least", "larger")}
    assert (round(flank["at_least"], 3), round(flank["larger"], 3)) == (0.395, 0.221)
    assert flank["larger"] == float(at_least(brute([8, 8, 6], [8, 6, 6]), 8))
    fire = {e: result("cortex.on_fire", {"fire": 8, "pool": "d8 d6 d6", "difficulty": "d8 d6",
                                         "turns": 5, "early": e}) for e in (False, True)}
    assert [round(fire[e]["expected_burns"], 2) for e in (False, True)] == [3.60, 4.03]
    assert min(int(k) for k in fire[True]["burns_exact"]) == 1
