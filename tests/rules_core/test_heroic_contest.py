"""GURPS Heroic Combat: the attack Quick Contest, hits and the melee calculator."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core import api
from rules_core.heroic import contest
from tests.rules_core.support import refused

FACES = range(1, 7)
TOTALS = Counter(sum(d) for d in itertools.product(FACES, repeat=3))


def brute_hits(a_skill: int, d_skill: int, sf: int, cap: int | None = None,
               mult: int = 1) -> dict[int, Fraction]:
    """Every 6-dice outcome, written out independently of the module under test."""
    counts: Counter[int] = Counter()
    for dice in itertools.product(FACES, repeat=6):
        mov = (a_skill - sum(dice[:3])) - (d_skill - sum(dice[3:]))
        hits = 0 if mov <= 0 else 1 + mov // sf
        if cap is not None:
            hits = min(hits, cap)
        counts[hits * mult] += 1
    return {h: Fraction(n, 6 ** 6) for h, n in counts.items()}


def weighted_hits(a_skill: int, d_skill: int, sf: int, cap: int | None = None,
                  mult: int = 1) -> dict[int, Fraction]:
    """Same enumeration over 3d6 totals with their counts (fast, for property tests)."""
    counts: Counter[int] = Counter()
    for a, na in TOTALS.items():
        for d, nd in TOTALS.items():
            mov = (a_skill - a) - (d_skill - d)
            hits = 0 if mov <= 0 else 1 + mov // sf
            if cap is not None:
                hits = min(hits, cap)
            counts[hits * mult] += na * nd
    return {h: Fraction(n, 6 ** 6) for h, n in counts.items()}


def nonzero(dist: dict[int, Fraction]) -> dict[int, Fraction]:
    return {k: v for k, v in dist.items() if v}


@pytest.mark.parametrize("a_skill,d_skill,sf,cap,mult", [
    (14, 11, 4, None, 1), (12, 16, 4, None, 5), (10, 10, 6, None, 1), (18, 6, 4, 3, 1),
    (3, 30, 4, None, 1),
])
def test_hit_distribution_matches_brute_force_over_six_dice(a_skill, d_skill, sf, cap, mult) -> None:
    dist = contest.hit_distribution(a_skill, d_skill, sf, cap=cap, multiplier=mult)
    assert nonzero(dist) == nonzero(brute_hits(a_skill, d_skill, sf, cap, mult))
    assert sum(dist.values()) == 1


@settings(max_examples=60, deadline=None)
@given(st.integers(-10, 40), st.integers(-10, 40), st.integers(1, 8),
       st.one_of(st.none(), st.integers(1, 4)), st.integers(1, 9))
def test_hit_distribution_property(a_skill, d_skill, sf, cap, mult) -> None:
    dist = contest.hit_distribution(a_skill, d_skill, sf, cap=cap, multiplier=mult)
    assert nonzero(dist) == nonzero(weighted_hits(a_skill, d_skill, sf, cap, mult))
    # every listed outcome is a multiple of the multiplier, zeros included for the gaps
    assert all(h % mult == 0 for h in dist)


@settings(max_examples=40, deadline=None)
@given(st.integers(-5, 35), st.integers(-5, 35))
def test_win_lose_and_tie_add_up(a_skill, d_skill) -> None:
    win = contest.p_win(contest.hit_distribution(a_skill, d_skill, 4))
    lose = contest.p_win(contest.hit_distribution(d_skill, a_skill, 4))
    tie = sum(Fraction(na * nd, 6 ** 6) for a, na in TOTALS.items() for d, nd in TOTALS.items()
              if a_skill - a == d_skill - d)
    assert win + lose + tie == 1
    if a_skill == d_skill:
        assert win == lose


def test_sherman_example() -> None:
    """Broadsword-14 rolling 8 against Axe/Mace-11 rolling 13: MoV 8, SF 4, three hits."""
    c = contest.resolve(14, 11, 8, 13, 4)
    assert (c.attacker_margin, c.defender_margin, c.margin_of_victory) == (6, -2, 8)
    assert c.attacker_wins and c.hits == 3
    # the hobgoblin: Broadsword-6 (14 - 2 x 4) rolling 11 against Spear-12 rolling 10
    skill = 14 + contest.next_target_penalty(4, 2)
    assert skill == 6
    second = contest.resolve(skill, 12, 11, 10, 4)
    assert not second.attacker_wins and second.hits == 0


def test_sherman_through_the_api() -> None:
    reply = api.run("heroic.melee", {"attacker_skill": 14, "defender_skill": 11,
                                     "attacker_roll": 8, "defender_roll": 13, "hits_assigned": 2})
    assert reply["ok"]
    r = reply["result"]
    assert r["contest"] == {"attacker_margin": 6, "defender_margin": -2, "margin_of_victory": 8,
                            "winner": "attacker", "hits": 3}
    assert r["hits"] == {"0": 0.0, "1": 0.0, "2": 0.0, "3": 1.0}
    assert r["next_target_penalty"] == -8 and r["next_target_skill"] == 6
    assert "3 hits" in reply["explanation"]


def test_orcs_against_knights_contest() -> None:
    """12 orcs with Axe/Mace-10 against 8 knights with Broadsword-16, rolls 9 and 15."""
    reply = api.run("heroic.melee", {"attacker_skill": 10, "defender_skill": 16, "attackers": 12,
                                     "defenders": 8, "attacker_roll": 9, "defender_roll": 15})
    r = reply["result"]
    assert r["skill_bonus"] == 2 and r["attacker_effective"] == 12 and r["hit_multiplier"] == 5
    assert r["contest"]["margin_of_victory"] == 2 and r["contest"]["hits"] == 5


@pytest.mark.parametrize("a,d,ar,dr,winner,mov", [
    (10, 8, 14, 15, "attacker", 3),   # both fail: the smaller failure wins
    (12, 12, 10, 10, "nobody", 0),    # equal margins: nobody wins
    (10, 14, 3, 4, "defender", -3),   # criticals do not change the margins (7 vs 10)
    (10, 10, 18, 17, "defender", -1),
])
def test_quick_contest_cases(a, d, ar, dr, winner, mov) -> None:
    reply = api.run("heroic.melee", {"attacker_skill": a, "defender_skill": d,
                                     "attacker_roll": ar, "defender_roll": dr})
    c = reply["result"]["contest"]
    assert c["winner"] == winner and c["margin_of_victory"] == mov
    assert c["hits"] == (1 + mov // 4 if mov > 0 else 0)


def test_one_roll_known_gives_the_conditional_odds() -> None:
    r = api.run("heroic.melee", {"attacker_skill": 14, "defender_skill": 11,
                                 "attacker_roll": 10})["result"]
    # attacker margin +4: wins when the defender's margin is +3 or less, i.e. rolls 8 or more
    expected = Fraction(sum(n for t, n in TOTALS.items() if t >= 8), 216)
    assert Fraction(r["p_win_exact"]) == expected


def test_default_melee_odds() -> None:
    r = api.run("heroic.melee", {"attacker_skill": 14, "defender_skill": 11})["result"]
    brute = weighted_hits(14, 11, 4)
    assert Fraction(r["p_win_exact"]) == 1 - brute[0]
    assert {int(k): Fraction(v) for k, v in r["hits_exact"].items() if Fraction(v)} == nonzero(brute)


def test_tactics_dodge_unwieldy_and_free_attack() -> None:
    r = api.run("heroic.melee", {
        "attacker_skill": 12, "attacker_tactic": "charge", "defense": "dodge", "dodge": 8,
        "defense_bonus": 1, "defender_tactic": "retreat", "move_advantage": 7,
        "speed_factor": 6})["result"]
    assert r["attacker_effective"] == 12 + 4 - 4          # Charge +4, free attack at worst -4
    assert r["defender_effective"] == (8 + 1 - 3) * 2 - 4  # bonuses before the x 2; Retreat -4
    assert Fraction(r["p_win_exact"]) == 1 - weighted_hits(12, 8, 6)[0]


@pytest.mark.parametrize("inputs,field,words", [
    ({"attacker_skill": 0, "defender_skill": 11}, "attacker_skill", "received 0"),
    ({"attacker_skill": 14, "defender_skill": 99}, "defender_skill", "received 99"),
    ({"attacker_skill": 14, "defender_skill": 11, "attackers": 2.5}, "attackers", "2.5"),
    ({"attacker_skill": 14, "defender_skill": 11, "attacker_tactic": "retreat"},
     "attacker_tactic", "no attacks"),
    ({"attacker_skill": 14, "defender_skill": 11, "attacker_roll": 2}, "attacker_roll", "3 to 18"),
    ({"attacker_skill": 14, "defender_skill": 11, "speed_factor": 0}, "speed_factor", "1 to 20"),
    ({"attacker_skill": 14, "defender_skill": 11, "dodge": 8}, "dodge", 'applies only when "Defender resists with"'),
])
def test_bad_melee_input(inputs, field, words) -> None:
    refused("heroic.melee", inputs, field, words)


def test_roll_uses_the_same_resolution() -> None:
    inputs = {"attacker_skill": 13, "defender_skill": 12, "attackers": 6, "defenders": 2}
    for seed in range(30):
        reply = api.roll("heroic.melee", inputs, random.Random(seed))
        dice = [d["face"] for d in reply["result"]["dice"]]
        assert len(dice) == 6 and all(1 <= f <= 6 for f in dice)
        expected = contest.resolve(13 + 6, 12, sum(dice[:3]), sum(dice[3:]), 4, multiplier=3)
        assert reply["result"]["contest"]["hits"] == expected.hits
        assert str(sum(dice[:3])) in reply["result"]["summary"]
