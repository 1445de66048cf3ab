"""GURPS Heroic Combat: ranged attacks, morale, and the tactic and action references."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from rules_core import api
from rules_core.heroic import morale
from rules_core.heroic.ranged import P_STRAY_ROLL, group_bonus, range_band, shots_allowed
from rules_core.heroic.tables import TACTIC_BY_KEY, TACTICS

TOTALS = Counter(sum(d) for d in itertools.product(range(1, 7), repeat=3))


def p_contest(a: int, d: int) -> Fraction:
    return Fraction(sum(na * nd for x, na in TOTALS.items() for y, nd in TOTALS.items()
                        if a - x > d - y), 216 * 216)


def test_tactic_names_and_modifiers() -> None:
    assert [t.name for t in TACTICS] == ["Charge", "Offensive", "Balanced", "Defensive",
                                         "All-Out Defensive", "Aimed Shooting", "Hold Position",
                                         "Retreat"]
    assert [(t.melee, t.ranged, t.defense) for t in TACTICS] == [
        (4, 0, -4), (2, 0, -2), (0, 0, 0), (-2, -2, 2), (-4, -4, 4), (-2, 2, -2), (0, 0, 2),
        (None, None, -4)]


@pytest.mark.parametrize("tactic,fast,draw,shots", [
    ("balanced", True, False, 3), ("balanced", True, True, 4), ("charge", True, True, 4),
    ("aimed_shooting", True, False, 2), ("aimed_shooting", True, True, 3),
    ("balanced", False, True, 1), ("aimed_shooting", False, False, 1),
    ("retreat", True, True, 0), ("retreat", False, False, 0),
])
def test_shots_allowed(tactic, fast, draw, shots) -> None:
    assert shots_allowed(TACTIC_BY_KEY[tactic], fast, draw) == shots


@pytest.mark.parametrize("size,bonus", [(1, 0), (4, 0), (5, 1), (8, 1), (9, 2), (12, 2), (13, 3),
                                        (16, 3), (17, 4), (10_000, 4)])
def test_group_bonus_edges(size, bonus) -> None:
    assert group_bonus(size) == bonus


@pytest.mark.parametrize("yards,band", [(0, "close"), (2, "close"), (2.5, "short"), (3, "short"),
                                        (20, "short"), (20.5, "medium"), (100, "medium"),
                                        (101, "long"), (500, "long"), (500.5, "extreme"),
                                        (10_000, "extreme")])
def test_range_bands(yards, band) -> None:
    assert range_band(yards)[0] == band


BASE = {"attacker_skill": 14, "distance_yd": 10, "defense": "dodge", "dodge": 8}


def run_ranged(**extra):
    reply = api.run("heroic.ranged", {**BASE, **extra})
    assert reply["ok"], reply
    return reply["result"]


def test_effective_skill_terms() -> None:
    r = run_ranged(shots_at_target=3, group_size=9, into_melee=True, other_modifier=-1)
    assert r["attacker_effective"] == 14 + 0 + 4 + 2 - 3 - 4 - 1
    assert r["defender_effective"] == 10
    r = run_ranged(tactic="aimed_shooting", acc=3)
    assert r["attacker_effective"] == 14 + 2 + 3 - 3
    r = run_ranged(tactic="aimed_shooting", acc=3, group_size=5)  # no aim bonus into a group
    assert r["attacker_effective"] == 14 + 1 - 3
    r = run_ranged(tactic="defensive", moved_far=True, bulk=-6, distance_yd=1)
    assert r["attacker_effective"] == 14 - 2 - 6 - 6 and r["range_band"] == "close"
    r = run_ranged(tactic="offensive", moved_far=True, bulk=-1, distance_yd=150)
    assert r["attacker_effective"] == 14 + 0 - 2 - 11 and r["range_penalty"] == -11


def test_defences() -> None:
    r = run_ranged(defense="parry_missile", dodge=None, parry_missile=13, defense_bonus=1,
                   defender_tactic="all_out_defensive")
    assert r["defender_effective"] == (13 + 1 - 3) * 2 + 4
    r = run_ranged(defense="skill", dodge=None, defender_skill=12, defense_bonus=2)
    assert r["defender_effective"] == 14


@pytest.mark.parametrize("shots", [1, 2, 3, 4])
def test_hits_capped_by_projectiles_brute_force(shots) -> None:
    r = run_ranged(shots_at_target=shots, fast_draw=True, attacker_skill=20, speed_factor=2)
    a, d = r["attacker_effective"], r["defender_effective"]
    counts: Counter[int] = Counter()
    for dice in itertools.product(range(1, 7), repeat=6):
        mov = (a - sum(dice[:3])) - (d - sum(dice[3:]))
        counts[0 if mov <= 0 else min(shots, 1 + mov // 2)] += 1
    expected = {h: Fraction(n, 6 ** 6) for h, n in counts.items()}
    got = {int(k): Fraction(v) for k, v in r["hits_exact"].items() if Fraction(v)}
    assert got == expected and max(got) <= shots


def test_stray_hit_chance() -> None:
    assert P_STRAY_ROLL == Fraction(81, 216)
    r = run_ranged(into_melee=True, bystander_defense=9)
    a, d = r["attacker_effective"], r["defender_effective"]
    miss = 1 - p_contest(a, d)
    assert Fraction(r["p_win_exact"]) == p_contest(a, d)
    assert Fraction(r["p_stray_given_miss_exact"]) == Fraction(81, 216) * p_contest(a, 9)
    assert Fraction(r["p_stray_exact"]) == miss * Fraction(81, 216) * p_contest(a, 9)
    assert "p_stray" not in run_ranged()


@pytest.mark.parametrize("inputs,field,words", [
    ({"tactic": "retreat"}, "tactic", "no attacks"),
    ({"shots_at_target": 4}, "shots_at_target", "at most 3"),
    ({"shots_at_target": 2, "reload": "slow"}, "shots_at_target", "at most 1"),
    ({"tactic": "aimed_shooting", "shots_at_target": 3}, "shots_at_target", "at most 2"),
    ({"distance_yd": -1}, "distance_yd", "received -1"),
    ({"group_size": 1.5}, "group_size", "1.5"),
    ({"attacker_skill": 99}, "attacker_skill", "received 99"),
])
def test_bad_ranged_input(inputs, field, words) -> None:
    reply = api.run("heroic.ranged", {**BASE, **inputs})
    assert not reply["ok"]
    assert reply["error"]["field"] == field and words in reply["error"]["message"]


def test_ranged_roll_follows_the_contest() -> None:
    inputs = {**BASE, "into_melee": True, "bystander_defense": 8}
    r = run_ranged(into_melee=True, bystander_defense=8)
    strays = 0
    for seed in range(60):
        res = api.roll("heroic.ranged", inputs, random.Random(seed))["result"]
        faces = [d["face"] for d in res["dice"]]
        mov = (r["attacker_effective"] - sum(faces[:3])) - (r["defender_effective"] - sum(faces[3:6]))
        assert res["contest"]["margin_of_victory"] == mov
        assert (len(faces) > 6) == (mov <= 0)
        if len(faces) == 15:
            stray_mov = (r["attacker_effective"] - sum(faces[9:12])) - (8 - sum(faces[12:15]))
            assert res["stray_hit"] == (stray_mov > 0)
            strays += 1
        else:
            assert not res["stray_hit"]
    assert strays > 0


# --- morale ---------------------------------------------------------------------------

def run_morale(**inputs):
    reply = api.run("heroic.morale", inputs)
    assert reply["ok"], reply
    return reply["result"]


@pytest.mark.parametrize("start,now,fell,due", [
    (12, 9, 3, False), (12, 8, 4, True), (12, 8, 0, False), (12, 7, 1, True),
    (10, 7, 3, False), (10, 6, 1, True), (3, 2, 1, True), (1, 1, 0, False),
])
def test_when_a_check_is_due(start, now, fell, due) -> None:
    r = run_morale(group_start=start, group_now=now, fell_this_round=fell, opponents=100)
    assert r["check_due"] is due


def test_group_modifiers() -> None:
    r = run_morale(group_start=12, group_now=6, opponents=3, cornered=True, fearlessness=2,
                   cowardice=3)
    assert [m["value"] for m in r["modifiers"]] == [-5, 2, -5, -2, 3]
    assert r["total_modifier"] == -7
    r = run_morale(group_start=12, group_now=4, opponents=3)
    assert [m["value"] for m in r["modifiers"]] == [-2, 5]  # 2/3 lost: +5 instead of +2


def test_solitary_modifiers() -> None:
    r = run_morale(subject="solitary", hp_start=30, hp_lost=10, hp_lost_this_round=4, opponents=4)
    assert r["check_due"] and r["modifiers"] == []
    r = run_morale(subject="solitary", hp_start=30, hp_lost=15, opponents=4)
    assert [m["value"] for m in r["modifiers"]] == [2]
    r = run_morale(subject="solitary", hp_start=30, hp_lost=45, hp_lost_this_round=0, opponents=4)
    assert [m["value"] for m in r["modifiers"]] == [5] and not r["check_due"]


@pytest.mark.parametrize("modifier", range(-12, 13))
def test_p_break_brute_force(modifier) -> None:
    hits = sum(1 for dice in itertools.product(range(1, 7), repeat=3) if sum(dice) + modifier >= 13)
    assert morale.p_break(modifier) == Fraction(hits, 216)


def test_p_break_through_the_api() -> None:
    r = run_morale(group_start=12, group_now=7, opponents=6)
    assert r["total_modifier"] == -2 and Fraction(r["p_break_exact"]) == Fraction(20, 216)
    at_least_13 = sum(Fraction(v) for k, v in r["totals_exact"].items() if int(k) >= 13)
    assert at_least_13 == Fraction(r["p_break_exact"])


@pytest.mark.parametrize("inputs,field,words", [
    ({"group_start": 8, "group_now": 10}, "group_now", "more than the 8"),
    ({"group_start": 8, "group_now": 0}, "group_now", "nobody"),
    ({"group_start": 8, "group_now": 6, "fell_this_round": 3}, "fell_this_round", "more than the 2"),
    ({"group_start": 8.5, "group_now": 6}, "group_start", "8.5"),
    ({"subject": "solitary", "hp_start": 20, "hp_lost": 5, "hp_lost_this_round": 6},
     "hp_lost_this_round", "more than the 5"),
])
def test_bad_morale_input(inputs, field, words) -> None:
    reply = api.run("heroic.morale", {"opponents": 4, **inputs})
    assert not reply["ok"]
    assert reply["error"]["field"] == field and words in reply["error"]["message"]


def test_morale_roll_uses_the_verdict_function() -> None:
    inputs = {"group_start": 12, "group_now": 5, "opponents": 6}
    total = run_morale(**inputs)["total_modifier"]
    for seed in range(40):
        res = api.roll("heroic.morale", inputs, random.Random(seed))["result"]
        faces = [d["face"] for d in res["dice"]]
        assert len(faces) == 3 and res["total"] == sum(faces) + total
        assert res["breaks"] == (sum(faces) + total >= 13)
        assert ("BREAKS" in res["summary"]) == res["breaks"]
        assert "+".join(map(str, faces)) in res["summary"]


# --- reference widgets ------------------------------------------------------------------

def test_tactic_reference() -> None:
    r = api.run("heroic.tactic", {"tactic": "all_out_defensive"})["result"]
    assert r["withdrawal"] and r["defense"] == 4 and r["melee"] == -4
    r = api.run("heroic.tactic", {"tactic": "retreat"})["result"]
    assert r["melee"] is None and r["shots_fast"] == 0 and not r["actions_allowed"]
    r = api.run("heroic.tactic", {"tactic": "aimed_shooting"})["result"]
    assert (r["shots_fast"], r["shots_fast_draw"], r["shots_slow"]) == (2, 3, 1)


def test_action_reference() -> None:
    r = api.run("heroic.action", {"action": "ready_heavy_shield"})["result"]
    assert r["class"] == "medium" and r["allowed"] and len(r["ways"]) == 2
    r = api.run("heroic.action", {"action": "wait", "tactic": "retreat"})["result"]
    assert r["class"] == "long" and not r["allowed"] and r["ways"] == []
    reply = api.run("heroic.action", {"action": "juggle"})
    assert not reply["ok"] and reply["error"]["field"] == "action"
