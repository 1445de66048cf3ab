"""Heroic Combat readings made switchable, impossible states refused, and the helpers
(initiative, the HT roll, fatigue, casualties), each against hand-worked or brute-force
figures."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import icepool
import pytest

from rules_core import api
from rules_core.dice.distribution import from_icepool
from rules_core.fields import initial_inputs
from rules_core.heroic import contest
from rules_core.heroic.calc_groups_fight import ENGAGEMENT
from rules_core.heroic.calc_index import initiative_odds
from rules_core.heroic.calc_melee import ht_success
from rules_core.heroic.calc_morale import fatigue_lost
from rules_core.heroic.damage import Damage, per_roll_injury
from rules_core.heroic.groups import group_injury

DODGER = {"attacker_skill": 14, "attacker_tactic": "balanced", "defense": "dodge", "dodge": 8,
          "defender_tactic": "all_out_defensive"}


def brute_win(a: int, d: int) -> Fraction:
    """Attacker wins a Quick Contest: every pair of 3d6 totals, enumerated."""
    three = [sum(f) for f in itertools.product(range(1, 7), repeat=3)]
    wins = sum(1 for x in three for y in three if (a - x) > (d - y))
    return Fraction(wins, 216 * 216)


@pytest.mark.parametrize("reading,skill,percent", [("after", 14, "45.4%"),
                                                   ("before", 18, "14.5%")])
def test_tactic_before_or_after_the_dodge_conversion(reading, skill, percent):
    out = api.run("heroic.melee", {**DODGER, "dodge_tactic": reading})
    assert out["ok"], out
    res = out["result"]
    assert res["defender_effective"] == skill  # (8-3)x2+4 = 14 or (8+4-3)x2 = 18
    assert Fraction(res["p_win_exact"]) == brute_win(14, skill)
    assert f"{res['p_win'] * 100:.1f}%" == percent


def test_the_default_reading_is_after_the_conversion():
    assert api.run("heroic.melee", DODGER)["result"]["defender_effective"] == 14


def test_hits_assigned_beyond_the_hits_scored_are_refused():
    sherman = {"attacker_skill": 14, "defender_skill": 11, "attacker_roll": 8,
               "defender_roll": 13}
    assert api.run("heroic.melee", {**sherman, "hits_assigned": 2})["ok"]  # 3 hits scored
    out = api.run("heroic.melee", {**sherman, "hits_assigned": 3})
    assert out["error"]["field"] == "hits_assigned"
    assert "Hits already given to other targets" in out["error"]["message"]
    assert "from 0 to 2" in out["error"]["message"]
    # without rolls: more than the contest could ever score
    top = max(h for h, p in contest.hit_distribution(14, 11, 4).items() if p)
    out = api.run("heroic.melee", {"attacker_skill": 14, "defender_skill": 11,
                                   "hits_assigned": top})
    assert out["error"]["field"] == "hits_assigned"


def test_more_attackers_than_can_reach_are_refused():
    assert api.run("heroic.melee", {"attacker_skill": 10, "defender_skill": 10,
                                    "attackers": 6, "defenders": 1})["ok"]
    for name in ("heroic.melee", "heroic.numbers"):
        raw = {"attackers": 7, "defenders": 1}
        if name == "heroic.melee":
            raw.update(attacker_skill=10, defender_skill=10)
        out = api.run(name, raw)
        assert out["error"]["field"] == "attackers"
        assert "Attackers is 7" in out["error"]["message"]
        assert "from 1 to 6" in out["error"]["message"]


@pytest.mark.parametrize("attackers,reach,bonus,mult", [
    (7, 8, 14, 3),     # the rulings page's troll: 7:1 is reachable only past six
    (8, 8, 16, 4),     # and 8:1 past 7:1
    (13, 20, 16, 5),
    (6, 6, 12, 3),
])
def test_more_room_around_a_large_foe_reaches_the_last_rows(attackers, reach, bonus, mult):
    for name in ("heroic.numbers", "heroic.melee"):
        raw = {"attackers": attackers, "defenders": 1, "reach_per_defender": reach}
        if name == "heroic.melee":
            raw.update(attacker_skill=10, defender_skill=10)
        out = api.run(name, raw)
        assert out["ok"], out
        assert (out["result"]["skill_bonus"], out["result"]["hit_multiplier"]) == (bonus, mult)
        if name == "heroic.melee":
            assert Fraction(out["result"]["p_win_exact"]) == brute_win(10 + bonus, 10)
    out = api.run("heroic.numbers", {"attackers": reach + 1, "defenders": 1,
                                     "reach_per_defender": reach})
    assert out["error"]["field"] == "attackers"
    assert f"from 1 to {reach}" in out["error"]["message"]


@pytest.mark.parametrize("value", [0, 61, 2.5, "six"])
def test_reach_per_defender_out_of_range_is_refused(value):
    for name in ("heroic.numbers", "heroic.melee", "heroic.engagement"):
        raw = {"attackers": 2, "defenders": 1, "attacker_skill": 10, "defender_skill": 10}
        if name == "heroic.engagement":
            raw = initial_inputs(ENGAGEMENT.fields)
        elif name == "heroic.numbers":
            raw = {"attackers": 2, "defenders": 1}
        out = api.run(name, {**raw, "reach_per_defender": value})
        assert out["error"]["field"] == "reach_per_defender", out
        assert "Most attackers around one defender" in out["error"]["message"]


@pytest.mark.parametrize("reach,bonus", [(6, 12), (7, 14), (8, 14)])
def test_the_whole_fight_lets_only_the_reach_strike(reach, bonus):
    # seven attackers, one defender of 1 HP that cannot hurt them, nobody checks morale:
    # the defender falls in round 1 exactly when the group wins its one contest, at
    # +12 with six striking (x3) or +14 with all seven (x3)
    raw = {"a_members": 7, "a_skill": 10, "a_dr": 100, "a_morale": False,
           "b_members": 1, "b_skill": 10, "b_hp": 1, "b_dr": 0, "b_morale": False,
           "reach_per_defender": reach, "max_rounds": 1}
    out = api.run("heroic.engagement", {**initial_inputs(ENGAGEMENT.fields), **raw})
    assert out["ok"], out
    assert Fraction(out["result"]["outcomes_exact"]["Knights wiped out"]) \
        == brute_win(10 + bonus, 10)
    assert f"at most {reach} around each foe" in out["explanation"]


@pytest.mark.parametrize("action", ["reload_2", "ready_unwieldy", "grip"])
def test_actions_that_are_part_of_the_attack_cost_nothing(action):
    out = api.run("heroic.action", {"action": action, "tactic": "balanced"})["result"]
    assert out["part_of_attack"] and out["ways"] == []
    alone = api.run("heroic.action", {"action": action, "tactic": "balanced",
                                      "with_attack": False})["result"]
    assert not alone["part_of_attack"] and alone["ways"]


def test_other_actions_still_cost_movement_or_minus_six():
    out = api.run("heroic.action", {"action": "reload_4", "tactic": "balanced"})
    assert out["ok"] and not out["result"]["part_of_attack"]
    assert api.run("heroic.action", {"action": "draw", "tactic": "balanced",
                                     "with_attack": True})["error"]["field"] == "with_attack"


def test_initiative_odds_against_the_36_pairs():
    pairs = list(itertools.product(range(1, 7), repeat=2))
    a = Fraction(sum(x > y for x, y in pairs), 36)
    tie = Fraction(sum(x == y for x, y in pairs), 36)
    assert initiative_odds("simultaneous") == {"Side A first": a, "Side B first": a,
                                               "Both at once": tie}
    assert initiative_odds("reroll") == {"Side A first": Fraction(1, 2),
                                         "Side B first": Fraction(1, 2)}
    rolled = api.roll("heroic.initiative", {"ties": "simultaneous"}, random.Random(3))
    assert rolled["result"]["outcome"] in {"Side A first", "Side B first", "Both at once"}


@pytest.mark.parametrize("ht,stays", [(10, Fraction(27, 54)), (3, Fraction(4, 216)),
                                      (20, Fraction(212, 216)), (11, Fraction(135, 216))])
def test_ht_roll_odds_with_the_always_rules(ht, stays):
    ways = sum(1 for f in itertools.product(range(1, 7), repeat=3) if ht_success(sum(f), ht))
    assert Fraction(ways, 216) == stays
    out = api.run("heroic.incapacitation", {"hp": 11, "current_hp": 0, "ht": ht})["result"]
    assert Fraction(out["p_stays_exact"]) == stays
    assert out["roll_due"] and out["at_zero"]


def test_major_wound_flag():
    base = {"hp": 11, "current_hp": 5, "ht": 10}
    assert not api.run("heroic.incapacitation", {**base, "largest_injury": 5})["result"]["roll_due"]
    out = api.run("heroic.incapacitation", {**base, "largest_injury": 6})["result"]
    assert out["major_wound"] and out["roll_due"]  # 6 is more than half of 11
    bad = api.run("heroic.incapacitation", {**base, "current_hp": 12})
    assert bad["error"]["field"] == "current_hp" and "Current HP" in bad["error"]["message"]


@pytest.mark.parametrize("rounds,enc,heat,times,lost", [
    (2, 0, "normal", 0, 0), (3, 0, "normal", 1, 1), (6, 1, "normal", 2, 4),
    (9, 4, "hot", 3, 18), (7, 2, "hot_heavy", 2, 10)])
def test_fatigue_every_third_round(rounds, enc, heat, times, lost):
    assert fatigue_lost(rounds, enc, heat) == (times, lost)
    out = api.run("heroic.fatigue", {"rounds": rounds, "encumbrance": enc, "heat": heat,
                                     "fp": 10})["result"]
    assert out["fp_lost"] == lost and out["fp_left"] == 10 - lost


def test_casualties_from_five_hits_of_2d_against_the_knights():
    raw = {"hits": 5, "damage": "2d", "dr": 6, "wounding_multiplier": 1.5, "hp": 11,
           "count": 8}
    out = api.run("heroic.casualties", raw)["result"]
    down = {int(k): Fraction(v) for k, v in out["down_exact"].items()}
    assert sum(down.values()) == 1
    # brute force over the ten dice: the total, DR 30 off, x1.5, full shares of 11 lost
    sums = from_icepool(10 @ icepool.d6)
    ref: dict[int, Fraction] = {}
    for total, p in sums.items():
        inj = group_injury(total, 5, 6, Fraction(3, 2), 11, 88)
        ref[inj.newly_down] = ref.get(inj.newly_down, Fraction(0)) + p
    assert {k: v for k, v in down.items() if v} == ref
    rolled = api.roll("heroic.casualties", raw, random.Random(1))["result"]
    assert len(rolled["dice"]) == 10 and rolled["down"] in down


def test_per_roll_injury_matches_the_group_injury_variant():
    dmg = Damage(1, 2)
    dist = per_roll_injury(3, dmg, 4, Fraction(2))
    ref: dict[int, Fraction] = {}
    for faces in itertools.product(range(1, 7), repeat=3):
        rolls = [f + 2 for f in faces]
        inj = group_injury(sum(rolls), 3, 4, Fraction(2), 10, 100, rolls, True).injury
        ref[inj] = ref.get(inj, Fraction(0)) + Fraction(1, 216)
    assert dist == dict(sorted(ref.items()))


def test_casualties_refuse_bad_damage_by_label():
    out = api.run("heroic.casualties", {"hits": 2, "damage": "2x", "hp": 10, "count": 2})
    assert out["error"]["field"] == "damage"
    assert out["error"]["message"].startswith("Damage per hit")


def test_the_ranged_calculator_offers_the_same_dodge_reading():
    raw = {"defense": "dodge", "dodge": 8, "defender_tactic": "all_out_defensive"}
    spec = api.spec("heroic.ranged")["initial"]
    after = api.run("heroic.ranged", {**spec, **raw})
    before = api.run("heroic.ranged", {**spec, **raw, "dodge_tactic": "before"})
    assert after["ok"] and before["ok"], (after, before)
    assert "(Dodge 8 + bonuses 0 - 3) x 2, All-Out Defensive +4" in after["explanation"]
    assert "(Dodge 8 + bonuses 0 + All-Out Defensive +4 - 3) x 2" in before["explanation"]
    assert before["result"]["p_win"] < after["result"]["p_win"]
