"""phases.engagement with the enemy's damage track (issue 42): every offense partial
success, success or ultra success deals damage, and the fight can end with the goal
reached, the enemy down or the party down. Checked against the rules written out in the
test's oracle on every outcome, every round and both tallies, by hand for one round, and
with seeded dice."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from rules_core import api, solver
from rules_core.phases.fight import ENEMY_DOWN, GOAL, MAX_WORK, WORN_DOWN, Fight
from rules_core.phases.tables import Phase
from tests.rules_core.phases_oracle import fight_oracle
from tests.rules_core.support import play_many, refused

NAME = "phases.engagement"


@pytest.mark.parametrize("fight, rounds", [
    (Fight(5, 5, 6, enemy_hits=4), 5),
    (Fight(5, 5, 6, damage_limit=4, enemy_hits=5), 6),
    (Fight(7, 4, 5, "always", "always", damage_limit=5, enemy_hits=3), 5),
    (Fight(6, 6, 4, first_phase=Phase.DEFENCE, damage_limit=3, enemy_hits=6), 6),
    (Fight(7, 5, 6, damage_limit=6, party_size=3, hits_each=2, enemy_hits=6), 6),
    (Fight(6, 5, 5, damage_limit=6, party_size=3, hits_each=2, spread=True, enemy_hits=4,
           other_tasks=True), 5),
    (Fight(2, 2, 3, damage_limit=2, enemy_hits=2), 6),
    (Fight(3, 7, 20, damage_limit=4, party_size=2, hits_each=2, enemy_hits=7), 7),
])
def test_chain_matches_the_oracle_every_round_and_both_tallies(fight: Fight,
                                                               rounds: int) -> None:
    totals, by_round, final = fight_oracle(fight, rounds)
    answer = solver.solve(fight, max_rounds=rounds, max_work=MAX_WORK * rounds)
    assert {k: v for k, v in answer.outcomes.items() if v} == totals
    for r, row in enumerate(by_round):
        assert {k: v for k, v in answer.by_round[r].items() if v} == \
            {k: v for k, v in row.items() if v}, r + 1
    for key, index in (("a", 1), ("b", 2)):
        tally: dict[int, Fraction] = {}
        for state, p in final.items():
            tally[state[index]] = tally.get(state[index], Fraction(0)) + p
        if key == "a" and fight.damage_limit is None:
            assert "a" not in answer.losses
            continue
        assert answer.losses[key] == dict(sorted(tally.items())), key


def test_one_round_matches_every_face() -> None:
    """One offense action (2 dice) and one defence action (2 dice), a lone character: the
    enemy falls to one damaging attack (7+ on the best two, or 6 6), unless that same
    roll is 10+ with the goal at 1 mark: then the goal is reached first."""
    fight = Fight(2, 2, 2, damage_limit=1, enemy_hits=1)
    tally: dict[str, int] = {}
    for a, b, c, d in itertools.product(range(1, 7), repeat=4):
        marks = (a + b >= 10) + (c + d >= 10)
        if a + b >= 7:
            end = ENEMY_DOWN
        elif c + d <= 6:
            end = WORN_DOWN
        else:
            end = GOAL if marks >= 2 else solver.STILL_FIGHTING
        tally[end] = tally.get(end, 0) + 1
    answer = solver.solve(fight, max_rounds=1, max_work=MAX_WORK).outcomes
    assert {k: v for k, v in answer.items() if v} == {k: Fraction(n, 36 ** 2)
                                                      for k, n in tally.items()}


def test_a_success_that_fills_the_tracker_reaches_the_goal() -> None:
    # goal of 1 and an enemy down at one hit: a 10+ offense does both; the goal counts
    fight = Fight(2, 2, 1, enemy_hits=1)
    answer = solver.solve(fight, max_rounds=1, max_work=MAX_WORK).outcomes
    assert answer[GOAL] == Fraction(6, 36) + Fraction(15, 36) * Fraction(6, 36)
    assert answer[ENEMY_DOWN] == Fraction(15, 36)


def test_api_builds_the_fight_the_oracle_plays() -> None:
    reply = api.run(NAME, {"goal_spaces": 5, "damage_limit": 4, "enemy_track": 9,
                           "enemy_damage": 2, "max_rounds": 6})
    assert reply["ok"], reply
    totals = fight_oracle(Fight(5, 5, 5, damage_limit=4, enemy_hits=5), 6)[0]
    assert {k: Fraction(v) for k, v in reply["result"]["outcomes_exact"].items()} == \
        {k: totals.get(k, Fraction(0)) for k in reply["result"]["outcomes_exact"]}
    assert "losses_b_exact" in reply["result"]
    assert "/rulings/#damage-to-the-enemy" in reply["explanation"]
    assert "5th damaging attack" in reply["explanation"]


def test_without_a_track_nothing_changes() -> None:
    assert api.run(NAME, {}) == api.run(NAME, {"enemy_track": None, "enemy_damage": 1})


@pytest.mark.parametrize("kw", [
    {"enemy_track": 6, "damage_limit": 4},
    {"enemy_track": 5, "party_size": 3, "hit_points": 2, "offense_dice": 6},
])
def test_seeded_dice_agree_with_the_exact_odds(kw: dict) -> None:
    exact = api.run(NAME, kw)["result"]["outcomes"]
    trials = 600
    counts: dict[str, int] = {}
    for seed in range(trials):
        rolled = api.roll(NAME, kw, random.Random(seed))["result"]
        counts[rolled["outcome"]] = counts.get(rolled["outcome"], 0) + 1
        if rolled["outcome"] == ENEMY_DOWN:
            assert f"damaging attacks on the enemy {kw['enemy_track']}/" in rolled["summary"]
    for name, p in exact.items():
        est = solver.wilson(counts.get(name, 0), trials, z=4.0)
        assert est.low <= p <= est.high, (name, est, p)
    fight = Fight(5, 5, 6, damage_limit=4, enemy_hits=5)
    want = solver.solve(fight, max_rounds=20, max_work=MAX_WORK).outcomes
    for name, est in play_many(fight, max_rounds=20, trials=800,
                               rng=random.Random(42)).items():
        assert est.low - 0.01 <= float(want[name]) <= est.high + 0.01, (name, est)


@pytest.mark.parametrize("kw, field, bits", [
    ({"enemy_track": 0}, "enemy_track", ("0", "40")),
    ({"enemy_track": 41}, "enemy_track", ("41",)),
    ({"enemy_damage": 2}, "enemy_damage", ("received 2", "damage track")),
    ({"enemy_track": 6, "enemy_damage": 0}, "enemy_damage", ("0", "20")),
])
def test_bad_inputs_are_refused_naming_the_field(kw: dict, field: str, bits: tuple) -> None:
    refused(NAME, kw, field, *bits)


@pytest.mark.parametrize("kw, bits", [
    ({"enemy_track": 40, "damage_limit": 20, "goal_spaces": 20, "max_rounds": 7},
     ("2,400", "2,800")),
    ({"enemy_track": 40, "damage_limit": 6, "goal_spaces": 20, "max_rounds": 10},
     ("40 damaging attacks", "48,000")),
    ({"enemy_track": 40, "goal_spaces": 20, "party_size": 4, "hit_points": 3},
     ("(20 x 12)", "the 400", "9,600")),
])
def test_past_the_exact_walks_size_is_answered_saying_why(kw: dict, bits: tuple) -> None:
    """Once refused for their size (issue 46.6), now answered without the exact walk:
    simulated, saying why with the figures, each chance with its 95% interval."""
    result = api.run(NAME, kw)["result"]
    assert result["method"] == "simulation", result["method"]
    for bit in bits:
        assert bit in result["simulated_because"], (bit, result["simulated_because"])
    for name, p in result["outcomes"].items():
        low, high = result["intervals"][name]
        assert low - 1e-12 <= p <= high + 1e-12


def test_rulings_worked_case() -> None:
    base = {"damage_limit": 4}
    plain = api.run(NAME, base)["result"]["outcomes"]
    tracked = api.run(NAME, {**base, "enemy_track": 6})["result"]["outcomes"]
    assert [f"{plain[k]:.2%}" for k in (GOAL, WORN_DOWN)] == ["9.72%", "90.28%"]
    assert [f"{tracked[k]:.2%}" for k in (GOAL, ENEMY_DOWN, WORN_DOWN)] == \
        ["3.17%", "39.54%", "57.29%"]
    # a track of 12 at 2 a hit is 6 damaging attacks, the same fight
    halved = api.run(NAME, {**base, "enemy_track": 12, "enemy_damage": 2})["result"]
    assert halved["outcomes"] == tracked


def test_past_the_work_budget_the_pruned_walk_answers() -> None:
    """Once refused past the exact walk's work budget, now answered within its bound."""
    result = api.run(NAME, {"offense_dice": 7, "defence_dice": 7, "enemy_track": 4,
                            "goal_spaces": 20, "max_rounds": 100})["result"]
    assert result["method"] == "pruned" and 0 < result["error_bound"] <= solver.MAX_ERROR
    assert abs(sum(result["outcomes"].values()) + result["error_bound"] - 1) < 1e-9
