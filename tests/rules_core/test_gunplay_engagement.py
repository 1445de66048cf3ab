"""gunplay.engagement: sustained fire over rounds against brute force, hand-worked cases
and a seeded simulation."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product

import pytest

from rules_core import api, solver
from rules_core.gunplay.fight import OUT_OF_AMMO, TARGET_DOWN, Fire

NAME = "gunplay.engagement"


def ok(inputs: dict, roll: bool = False) -> dict:
    reply = (api.roll if roll else api.run)(NAME, inputs)
    assert reply["ok"], reply
    return reply["result"]


def brute(fire: Fire, max_rounds: int) -> tuple[dict[str, Fraction], dict[int, dict[str, Fraction]],
                                                dict[int, Fraction]]:
    """Every sequence of d10 faces, one per burst, counted bullet by bullet from the rule
    (bullet i needs DC + recoil x (i - 1)); bursts grouped into combat rounds.

    Returns the outcomes, the chance of each outcome by each round, and the rounds fired.
    """
    outcomes: dict[str, Fraction] = {}
    by_round: dict[int, dict[str, Fraction]] = {}
    fired: dict[int, Fraction] = {}
    bursts_max = max_rounds * fire.bursts_per_round
    for seq_len in range(bursts_max + 1):
        for faces in product(range(1, 11), repeat=seq_len):
            left, hits, ended, ended_at = fire.ammo, 0, None, None
            for i, face in enumerate(faces):
                if hits >= fire.hits_needed:
                    ended = TARGET_DOWN
                    break
                shots = fire.burst if left >= fire.burst else (left if fire.short_burst else 0)
                if shots == 0:
                    ended = OUT_OF_AMMO
                    break
                total = face + fire.bonus
                hits += sum(1 for b in range(shots) if total >= fire.dc + fire.recoil * b)
                hits = min(hits, fire.hits_needed)
                left -= shots
                ended_at = i // fire.bursts_per_round + 1
            else:
                shots = fire.burst if left >= fire.burst else (left if fire.short_burst else 0)
                if hits >= fire.hits_needed:
                    ended = TARGET_DOWN
                elif shots == 0:
                    ended = OUT_OF_AMMO
                elif seq_len == bursts_max:
                    ended, ended_at = solver.STILL_FIGHTING, None
                else:
                    continue  # the fight goes on: a longer sequence covers it
                # the sequence is exactly the fight: count it
                p = Fraction(1, 10 ** seq_len)
                outcomes[ended] = outcomes.get(ended, Fraction(0)) + p
                fired[fire.ammo - left] = fired.get(fire.ammo - left, Fraction(0)) + p
                if ended_at is not None:
                    row = by_round.setdefault(ended_at, {})
                    row[ended] = row.get(ended, Fraction(0)) + p
            # a break: the fight ended before the last face, so a shorter sequence counts it
    return outcomes, by_round, fired


@pytest.mark.parametrize("fire, rounds", [
    (Fire(dc=6, bonus=0, burst=2, recoil=2, ammo=6, hits_needed=2), 4),
    (Fire(dc=8, bonus=2, burst=3, recoil=1, ammo=7, hits_needed=3), 3),
    (Fire(dc=8, bonus=2, burst=3, recoil=1, ammo=7, hits_needed=3, short_burst=False), 3),
    (Fire(dc=9, bonus=1, burst=1, recoil=0, ammo=5, hits_needed=2, bursts_per_round=2), 2),
    (Fire(dc=7, bonus=0, burst=2, recoil=3, ammo=9, hits_needed=9), 2),
])
def test_engagement_matches_every_sequence_of_faces(fire: Fire, rounds: int) -> None:
    answer = solver.solve(fire, max_rounds=rounds)
    outcomes, by_round, fired = brute(fire, rounds)
    assert sum(outcomes.values()) == 1
    assert {k: v for k, v in answer.outcomes.items() if v} == outcomes
    running: dict[str, Fraction] = {}
    for r in range(1, rounds + 1):
        for name, p in by_round.get(r, {}).items():
            running[name] = running.get(name, Fraction(0)) + p
        assert {k: v for k, v in answer.by_round[r - 1].items() if v} == running
    assert answer.losses["a"] == dict(sorted(fired.items()))


def test_one_shot_a_round_at_even_odds_ends_by_round_r_with_one_minus_half_to_the_r() -> None:
    # d10 + 0 against DC 6: faces 6 to 10 hit, exactly 1/2
    result = ok({"dc": 6, "bonus": 0, "burst": 1, "recoil": 0, "ammo": 200,
                 "hits_needed": 1, "max_rounds": 12})
    for r in range(1, 13):
        assert Fraction(result["by_round_exact"][str(r)][TARGET_DOWN]) == 1 - Fraction(1, 2) ** r
    assert Fraction(result["outcomes_exact"][solver.STILL_FIGHTING]) == Fraction(1, 2) ** 12
    assert Fraction(result["expected_rounds_exact"]) == 2 - Fraction(1, 2) ** 11


def test_two_hits_from_three_shots_at_even_odds_is_a_coin_toss() -> None:
    # at least 2 successes in 3 fair trials: 4/8; stopping early does not change it
    result = ok({"dc": 6, "bonus": 0, "burst": 1, "recoil": 0, "ammo": 3, "hits_needed": 2})
    assert result["outcomes_exact"] == {TARGET_DOWN: "1/2", OUT_OF_AMMO: "1/2"}
    # ends in round 2 on two hits (1/4), in round 3 otherwise
    assert result["end_round_exact"] == {"2": "1/4", "3": "3/4"}
    # rounds fired: 2 (hit, hit) else 3
    assert result["losses_a_exact"] == {"2": "1/4", "3": "3/4"}
    assert result["losses_b_exact"] == {"0": "1/8", "1": "3/8", "2": "1/2"}


def test_source_burst_example_in_one_round() -> None:
    # the source's burst (DC 16, recoil 2, three rounds) from +9: totals 10 to 19 and
    # the bullets need 16, 18 and 20, so two hits need 18+: faces 9 and 10
    result = ok({"dc": 16, "bonus": 9, "burst": 3, "recoil": 2, "ammo": 3, "hits_needed": 2})
    assert result["outcomes_exact"][TARGET_DOWN] == "1/5"


def test_short_last_burst_reading_changes_the_numbers() -> None:
    base = {"dc": 10, "bonus": 3, "burst": 3, "recoil": 2, "ammo": 10, "hits_needed": 4}
    short = ok({**base, "short_burst": True})
    full = ok({**base, "short_burst": False})
    assert short["losses_a_exact"].keys() <= {"3", "6", "9", "10"}
    assert full["losses_a_exact"].keys() <= {"3", "6", "9"}
    # the figures the Rulings page quotes
    assert short["outcomes_exact"][TARGET_DOWN] == "118/625"
    assert full["outcomes_exact"][TARGET_DOWN] == "16/125"


def test_simulation_agrees_with_the_exact_belt_of_100() -> None:
    fire = Fire(dc=13, bonus=4, burst=5, recoil=1, ammo=100, hits_needed=12)
    exact = solver.solve(fire, max_rounds=20).outcomes
    estimate = solver.simulate(fire, max_rounds=20, trials=3000, rng=random.Random(15))
    for name, est in estimate.items():
        assert abs(est.p - float(exact[name])) < 0.04, (name, est, exact[name])


def test_belt_of_100_is_answered_exactly() -> None:
    result = ok({"ammo": 100, "burst": 1, "recoil": 0, "hits_needed": 100, "max_rounds": 100})
    assert sum(Fraction(v) for v in result["outcomes_exact"].values()) == 1
    # every one of 100 single shots must hit; at DC 12 from +5 the d10 needs 7+: 4/10
    assert Fraction(result["outcomes_exact"][TARGET_DOWN]) == Fraction(2, 5) ** 100


def test_result_shape_and_explanation() -> None:
    reply = api.run(NAME, {})
    assert reply["ok"]
    result = reply["result"]
    assert sum(Fraction(v) for v in result["outcomes_exact"].values()) == 1
    assert sum(Fraction(v) for v in result["end_round_exact"].values()) == 1
    for side in ("a", "b"):
        assert sum(Fraction(v) for v in result[f"losses_{side}_exact"].values()) == 1
    assert len(result["by_round_exact"]) == 20
    assert "/gunplay/bursts/#bursts-and-full-auto" in reply["explanation"]
    assert "/rulings/#sustained-fire-over-several-rounds" in reply["explanation"]
    assert [c["key"] for c in reply["display"]["charts"]] == \
        ["outcomes", "end_round", "losses_a", "losses_b"]


@pytest.mark.parametrize("seed", range(12))
def test_roll_plays_the_fight_to_an_outcome_of_the_exact_answer(seed: int) -> None:
    inputs = {"ammo": 12, "burst": 3, "hits_needed": 3, "bursts_per_round": 2, "max_rounds": 3}
    exact = ok(inputs)["outcomes_exact"]
    rolled = api.roll(NAME, inputs, random.Random(seed))["result"]
    assert rolled["outcome"] in exact
    assert len(rolled["log"]) == rolled["rounds"] and rolled["log"][0].startswith("Round 1:")
    assert all(d["die"] == "d10" and 1 <= d["face"] <= 10 for d in rolled["dice"])
    assert rolled["rounds_fired"] == 3 * len(rolled["dice"])
    assert rolled["summary"].startswith(rolled["outcome"])


def test_a_burst_longer_than_the_weapon_holds_is_refused_without_short_bursts() -> None:
    reply = api.run(NAME, {"ammo": 5, "burst": 10, "short_burst": False})
    assert not reply["ok"]
    assert reply["error"]["field"] == "burst"
    assert "Rounds per burst" in reply["error"]["message"]
    assert "allow a short last burst" in reply["error"]["message"]


@pytest.mark.parametrize("inputs, field", [
    ({"ammo": 0}, "ammo"), ({"ammo": 201}, "ammo"), ({"hits_needed": 0}, "hits_needed"),
    ({"bursts_per_round": 6}, "bursts_per_round"), ({"max_rounds": 0}, "max_rounds"),
    ({"shells": 3}, "shells"),
])
def test_bad_inputs_name_the_field(inputs: dict, field: str) -> None:
    reply = api.run(NAME, inputs)
    assert not reply["ok"] and reply["error"]["field"] == field
