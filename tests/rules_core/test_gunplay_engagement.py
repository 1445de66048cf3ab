"""gunplay.engagement: sustained fire over rounds against brute force, hand-worked cases
and a seeded simulation."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache
from itertools import product

import pytest

from rules_core import api, solver
from rules_core.gunplay.duel import Duel
from rules_core.gunplay.fight import (
    A_DOWN,
    B_DOWN,
    BOTH_DOWN,
    BOTH_EMPTY,
    OUT_OF_AMMO,
    SAME_TIME,
    TARGET_DOWN,
    TURNS,
    Fire,
)
from rules_core.gunplay.tables import AIM_PER_ACTION
from tests.rules_core.support import play_many

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
    estimate = play_many(fire, max_rounds=20, trials=3000, rng=random.Random(15))
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
    # one shooter, no duel: its averages name the shooter and the target
    assert "On average the shooter uses 16.2 rounds and the target takes 2.89 hits" \
        in reply["explanation"]
    assert "first shooter" not in reply["explanation"]
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


# --- aim, magazines and reloads, duels (issue 29) ------------------------------------
#
# The model below is written from the rules, action by action, independently of the
# solver's chain: each shooter holds a list of magazines, every firing action either
# fires a burst (each bullet checked against DC + recoil x its place, the DC lowered by
# AIM_PER_ACTION for each aim action while the aim holds) or swaps in the next magazine;
# every d10 face of every burst is its own branch, counted 1/10 each.


Gun = tuple[tuple[int, ...], int]  # (magazines: the loaded one first, reload actions owed)


def magazines(fire: Fire) -> tuple[int, ...]:
    size = fire.magazine or fire.ammo
    return (size,) * (fire.ammo // size) + ((fire.ammo % size,) if fire.ammo % size else ())


def shots_from(fire: Fire, rounds_in: int) -> int:
    if rounds_in >= fire.burst:
        return fire.burst
    return rounds_in if fire.short_burst else 0


def can_fire(fire: Fire, gun: Gun) -> bool:
    mags, owed = gun
    return bool(owed or (mags and shots_from(fire, mags[0]))
                or (len(mags) > 1 and shots_from(fire, mags[1])))


def one_step(fire: Fire, gun: Gun, hits: int, first: bool, faces: list[int]
             ) -> tuple[Gun, int, bool, int] | None:
    """One firing action fed with faces (one if it fires): weapon, hits, whether the
    round's first burst is still to come, rounds fired; None when the weapon is empty."""
    mags, owed = gun
    if owed:
        return (mags, owed - 1), hits, first, 0
    shots = shots_from(fire, mags[0]) if mags else 0
    if not shots:
        if len(mags) > 1 and shots_from(fire, mags[1]):
            return (mags[1:], fire.reload_actions - 1), hits, first, 0
        return None
    aim = fire.aim if (first or fire.aim_every_burst) else 0
    dc = fire.dc + AIM_PER_ACTION * aim
    total = faces.pop(0) + fire.bonus
    hits = min(fire.hits_needed,
               hits + sum(1 for i in range(shots) if total >= dc + fire.recoil * i))
    return ((mags[0] - shots,) + mags[1:], owed), hits, False, shots


def one_round(fire: Fire, gun: Gun, hits: int, faces: list[int]) -> tuple[Gun, int, int]:
    """One shooter's round fed with faces (as many as it fires): weapon, hits, rounds
    fired this round."""
    fired, first = 0, True
    for _ in range(fire.bursts_per_round):
        if hits >= fire.hits_needed:
            break
        step = one_step(fire, gun, hits, first, faces)
        if step is None:
            break
        gun, hits, first, shots = step
        fired += shots
    return gun, hits, fired


def pair_round(duel: Duel, ga: Gun, on_b: int, gb: Gun, on_a: int, fa: list[int],
               fb: list[int]) -> tuple[Gun, int, Gun, int, int]:
    """Both shooters action by action: the k-th actions together, stopping once a pair
    has downed someone. Weapons, hits on B, on A, rounds A fired."""
    first_a = first_b = True
    fired = 0
    for k in range(max(duel.a.bursts_per_round, duel.b.bursts_per_round)):
        if on_b >= duel.a.hits_needed or on_a >= duel.b.hits_needed:
            break
        step_a = one_step(duel.a, ga, on_b, first_a, fa) if k < duel.a.bursts_per_round \
            else None
        step_b = one_step(duel.b, gb, on_a, first_b, fb) if k < duel.b.bursts_per_round \
            else None
        if step_a:
            ga, on_b, first_a, shots = step_a
            fired += shots
        if step_b:
            gb, on_a, first_b, _ = step_b
    return ga, on_b, gb, on_a, fired


def bursts_this_round(fire: Fire, gun: Gun) -> int:
    """Faces the round needs if the target stands throughout."""
    faces = [10] * 10 * fire.bursts_per_round
    tough = Fire(**{**fire.__dict__, "hits_needed": 10 ** 6})
    one_round(tough, gun, 0, faces)
    return 10 * fire.bursts_per_round - len(faces)


def end_of(duel: Duel | None, fire: Fire, ga: Gun, on_b: int, gb: Gun | None, on_a: int
           ) -> str | None:
    if duel is None:
        if on_b >= fire.hits_needed:
            return TARGET_DOWN
        return None if can_fire(fire, ga) else OUT_OF_AMMO
    a_down, b_down = on_a >= duel.b.hits_needed, on_b >= duel.a.hits_needed
    if a_down and b_down:
        return BOTH_DOWN
    if b_down or a_down:
        return B_DOWN if b_down else A_DOWN
    assert gb is not None
    return None if can_fire(duel.a, ga) or can_fire(duel.b, gb) else BOTH_EMPTY


def model(fight: Fire | Duel, rounds: int) -> dict[tuple[str, int, int, int, int], Fraction]:
    """(outcome, the round it came in, rounds A fired, hits on B, hits on A) -> exact
    chance."""
    duel = fight if isinstance(fight, Duel) else None
    a = fight.a if duel else fight
    b = duel.b if duel else None

    @cache
    def go(ga: Gun, on_b: int, gb: Gun | None, on_a: int, spent: int, left: int
           ) -> tuple[tuple[tuple[str, int, int, int, int], Fraction], ...]:
        over = end_of(duel, a, ga, on_b, gb, on_a)
        if over or not left:
            key = (over or solver.STILL_FIGHTING, rounds - left, spent, on_b, on_a)
            return ((key, Fraction(1)),)
        out: dict[tuple[str, int, int, int, int], Fraction] = {}
        ka = bursts_this_round(a, ga)
        kb = bursts_this_round(b, gb) if b and gb is not None else 0
        for faces in product(range(1, 11), repeat=ka + kb):
            fa, fb = list(faces[:ka]), list(faces[ka:])
            if b is None or gb is None:
                na, nb_hits, fired = one_round(a, ga, on_b, fa)
                nxt = (na, nb_hits, gb, on_a, spent + fired)
            elif duel and duel.order == SAME_TIME and duel.by_action:
                na, nb_hits, nb, na_hits, fired = pair_round(duel, ga, on_b, gb, on_a, fa, fb)
                nxt = (na, nb_hits, nb, na_hits, spent + fired)
            elif duel and duel.order == SAME_TIME:
                na, nb_hits, fired = one_round(a, ga, on_b, fa)
                nb, na_hits, _ = one_round(b, gb, on_a, fb)
                nxt = (na, nb_hits, nb, na_hits, spent + fired)
            elif duel and not duel.b_first:
                na, nb_hits, fired = one_round(a, ga, on_b, fa)
                nb, na_hits = gb, on_a
                if nb_hits < a.hits_needed:
                    nb, na_hits, _ = one_round(b, gb, on_a, fb)
                nxt = (na, nb_hits, nb, na_hits, spent + fired)
            else:
                nb, na_hits, _ = one_round(b, gb, on_a, fb)
                na, nb_hits, fired = ga, on_b, 0
                if na_hits < b.hits_needed:
                    na, nb_hits, fired = one_round(a, ga, on_b, fa)
                nxt = (na, nb_hits, nb, na_hits, spent + fired)
            for key, p in go(*nxt, left - 1):
                out[key] = out.get(key, Fraction(0)) + p / 10 ** (ka + kb)
        return tuple(out.items())

    start_b = (magazines(b), 0) if b else None
    return dict(go((magazines(a), 0), 0, start_b, 0, 0, rounds))


def marginals(found: dict[tuple[str, int, int, int, int], Fraction]
              ) -> tuple[dict[str, Fraction], list[dict[int, Fraction]]]:
    outcomes: dict[str, Fraction] = {}
    sides: list[dict[int, Fraction]] = [{}, {}, {}]
    for (name, _, *lost), p in found.items():
        outcomes[name] = outcomes.get(name, Fraction(0)) + p
        for i, n in enumerate(lost):
            sides[i][n] = sides[i].get(n, Fraction(0)) + p
    return outcomes, sides


def ended_by_round(found: dict[tuple[str, int, int, int, int], Fraction], rounds: int
                   ) -> list[dict[str, Fraction]]:
    """The chance of each outcome by the end of each round, as the solver reports it."""
    rows: list[dict[str, Fraction]] = []
    for r in range(1, rounds + 1):
        row: dict[str, Fraction] = {}
        for (name, when, *_), p in found.items():
            if name != solver.STILL_FIGHTING and when <= r:
                row[name] = row.get(name, Fraction(0)) + p
        rows.append(row)
    return rows


ONE = dict(dc=9, bonus=2, burst=2, recoil=2, ammo=7, hits_needed=3)
FIGHTS = [
    (Fire(**ONE, magazine=3), 4),  # three magazines: 3, 3 and the odd round
    (Fire(**ONE, magazine=3, short_burst=False), 4),  # leftovers stay in each magazine
    (Fire(**{**ONE, "burst": 1}, magazine=2, reload_actions=2), 5),  # a reload across rounds
    (Fire(**ONE, magazine=4, bursts_per_round=2, aim=1), 3),  # aim: the first burst only
    (Fire(**ONE, magazine=4, bursts_per_round=2, aim=1, aim_every_burst=True), 3),
    (Fire(**{**ONE, "dc": 11}, aim=2), 3),
    (Duel(Fire(**{**ONE, "ammo": 4}), Fire(dc=8, bonus=0, burst=1, recoil=0, ammo=3,
                                          hits_needed=2), TURNS), 4),
    (Duel(Fire(**{**ONE, "ammo": 4}), Fire(dc=8, bonus=0, burst=1, recoil=0, ammo=3,
                                          hits_needed=2), TURNS, b_first=True), 4),
    (Duel(Fire(**{**ONE, "ammo": 4}, magazine=2), Fire(dc=8, bonus=1, burst=1, recoil=0,
                                                       ammo=3, hits_needed=1, aim=1),
          SAME_TIME), 4),
    (Duel(Fire(dc=7, bonus=0, burst=1, recoil=0, ammo=3, hits_needed=1),
          Fire(dc=7, bonus=0, burst=1, recoil=0, ammo=3, hits_needed=1), SAME_TIME), 3),
    # issue 42: at the same time, action by action (several firing actions, a reload, aim)
    (Duel(Fire(**{**ONE, "ammo": 5}, magazine=2, bursts_per_round=2, aim=1),
          Fire(dc=8, bonus=1, burst=1, recoil=0, ammo=4, hits_needed=2, bursts_per_round=3),
          SAME_TIME, by_action=True), 2),
    (Duel(Fire(dc=7, bonus=0, burst=2, recoil=1, ammo=4, hits_needed=1, bursts_per_round=2),
          Fire(dc=6, bonus=0, burst=1, recoil=0, ammo=4, hits_needed=2, bursts_per_round=2),
          SAME_TIME, by_action=True), 3),
]


@pytest.mark.parametrize("fight, rounds", FIGHTS)
def test_aim_magazines_and_duels_match_the_action_by_action_model(fight: Fire | Duel,
                                                                  rounds: int) -> None:
    answer = solver.solve(fight, max_rounds=rounds)
    found = model(fight, rounds)
    outcomes, sides = marginals(found)
    assert sum(outcomes.values()) == 1
    assert {k: v for k, v in answer.outcomes.items() if v} == outcomes
    for r, row in enumerate(ended_by_round(found, rounds)):
        assert {k: v for k, v in answer.by_round[r].items() if v} == row, r + 1
    for key, dist in zip("abc", sides):
        if key in answer.losses:
            assert answer.losses[key] == dict(sorted(dist.items())), key


def test_both_down_when_both_fire_at_once() -> None:
    # one shot each, DC 7 from +0: each hits 4/10; both down 16/100 in round one, and the
    # turns reading can never leave both down
    at_once = Duel(Fire(dc=7, bonus=0, burst=1, recoil=0, ammo=1, hits_needed=1),
                   Fire(dc=7, bonus=0, burst=1, recoil=0, ammo=1, hits_needed=1), SAME_TIME)
    odds = solver.solve(at_once, max_rounds=3).outcomes
    assert odds[BOTH_DOWN] == Fraction(16, 100)
    assert odds[A_DOWN] == odds[B_DOWN] == Fraction(24, 100)
    assert odds[BOTH_EMPTY] == Fraction(36, 100)
    turns = solver.solve(Duel(at_once.a, at_once.b, TURNS), max_rounds=3).outcomes
    assert BOTH_DOWN not in turns
    assert turns[B_DOWN] == Fraction(4, 10) and turns[A_DOWN] == Fraction(6, 10) * Fraction(4, 10)


def test_aim_lowers_the_dc_by_the_rule_per_action() -> None:
    # a single shot at DC 14 from +3 needs 11: impossible; two aim actions make it DC 10
    # (needs 7+: 4/10)
    base = {"dc": 14, "bonus": 3, "burst": 1, "recoil": 0, "ammo": 1, "hits_needed": 1}
    assert ok(base)["outcomes_exact"][TARGET_DOWN] == "0"
    aimed = ok({**base, "aim": 2})["outcomes_exact"][TARGET_DOWN]
    assert Fraction(aimed) == Fraction(10 - (14 + 2 * AIM_PER_ACTION - 3) + 1, 10)


def test_the_aim_reading_matters_only_with_several_bursts_a_round() -> None:
    base = {"dc": 13, "bonus": 4, "burst": 1, "recoil": 0, "ammo": 6, "hits_needed": 2,
            "aim": 1, "max_rounds": 3}
    one = [ok({**base, "aim_every_burst": e})["outcomes_exact"] for e in (False, True)]
    assert one[0] == one[1]
    two = [ok({**base, "bursts_per_round": 2, "aim_every_burst": e})["outcomes_exact"]
           for e in (False, True)]
    assert Fraction(two[1][TARGET_DOWN]) > Fraction(two[0][TARGET_DOWN])
    # the figures the Rulings page quotes
    # 2 hits from 6 shots: three at 4/10 and three at 2/10, or all six at 4/10
    assert two[0][TARGET_DOWN] == "1829/3125" and two[1][TARGET_DOWN] == "2396/3125"


def test_a_reload_costs_a_firing_action() -> None:
    # 4 single shots in magazines of 2, one action a round: shot, shot, reload, shot, shot
    result = ok({"dc": 30, "bonus": 0, "burst": 1, "recoil": 0, "ammo": 4, "magazine": 2,
                 "hits_needed": 1, "max_rounds": 10})
    assert result["outcomes_exact"] == {TARGET_DOWN: "0", OUT_OF_AMMO: "1"}
    assert result["end_round_exact"] == {"5": "1"}
    assert (result["bursts_in_weapon"], result["reloads"], result["rounds_to_empty"]) == (4, 1, 5)
    slow = ok({"dc": 30, "bonus": 0, "burst": 1, "recoil": 0, "ammo": 4, "magazine": 2,
               "reload_actions": 3, "hits_needed": 1, "max_rounds": 10})
    assert slow["end_round_exact"] == {"7": "1"}


@pytest.mark.parametrize("inputs", [
    {"duel": SAME_TIME, "magazine": 10, "b_magazine": 5, "aim": 1, "bursts_per_round": 2,
     "max_rounds": 8},
    {"duel": SAME_TIME, "same_time": "action", "magazine": 10, "b_magazine": 5, "aim": 1,
     "bursts_per_round": 2, "b_bursts_per_round": 3, "max_rounds": 8},
    {"duel": "turns_b", "b_burst": 3, "b_ammo": 9, "b_magazine": 4, "hits_needed": 2},
    {"magazine": 7, "burst": 3, "bursts_per_round": 2, "aim": 2, "aim_every_burst": True,
     "short_burst": False, "max_rounds": 6},
])
def test_seeded_fights_replay_through_the_model_and_match_the_exact_odds(inputs: dict) -> None:
    full = api.run(NAME, inputs)
    assert full["ok"], full
    exact = {k: Fraction(v) for k, v in full["result"]["outcomes_exact"].items()}
    counts: dict[str, int] = {}
    trials = 400
    for seed in range(trials):
        rolled = api.roll(NAME, inputs, random.Random(seed))["result"]
        assert exact[rolled["outcome"]] > 0
        counts[rolled["outcome"]] = counts.get(rolled["outcome"], 0) + 1
        assert len(rolled["log"]) == rolled["rounds"]
        assert all(1 <= d["face"] <= 10 for d in rolled["dice"])
    for name, p in exact.items():
        est = solver.wilson(counts.get(name, 0), trials, z=4.0)
        assert est.low <= float(p) <= est.high, (name, est, float(p))


@pytest.mark.parametrize("fight, rounds", FIGHTS[6:])
def test_played_duels_follow_the_rules_face_by_face(fight: Duel, rounds: int) -> None:
    # every die a played duel rolls, fed back through the model's own rounds (each
    # shooter's faces in the order rolled), ends where the played fight ended
    for seed in range(30):
        played = solver.play(fight, max_rounds=rounds, rng=random.Random(seed))
        fa = [d["face"] for d in played.dice if d["die"].startswith("A ")]
        fb = [d["face"] for d in played.dice if d["die"].startswith("B ")]
        assert len(fa) + len(fb) == len(played.dice)
        ga, on_b, gb, on_a = (magazines(fight.a), 0), 0, (magazines(fight.b), 0), 0
        for _ in range(played.rounds):
            if fight.order == SAME_TIME and fight.by_action:
                ga, on_b, gb, on_a, _ = pair_round(fight, ga, on_b, gb, on_a, fa, fb)
                continue
            if fight.order == SAME_TIME:
                (ga, on_b, _), (gb, on_a, _) = (one_round(fight.a, ga, on_b, fa),
                                                one_round(fight.b, gb, on_a, fb))
                continue
            for who in ("b", "a") if fight.b_first else ("a", "b"):
                if on_b >= fight.a.hits_needed or on_a >= fight.b.hits_needed:
                    break
                if who == "a":
                    ga, on_b, _ = one_round(fight.a, ga, on_b, fa)
                else:
                    gb, on_a, _ = one_round(fight.b, gb, on_a, fb)
        assert (on_b, on_a) == (played.state[1], played.state[3])
        assert end_of(fight, fight.a, ga, on_b, gb, on_a) == (
            None if played.outcome == solver.STILL_FIGHTING else played.outcome)
        assert fa == [] and fb == []


@pytest.mark.parametrize("one_each", [
    {},
    {"aim": 2, "b_aim": 1, "magazine": 6, "b_magazine": 2, "b_reload_actions": 2},
    {"burst": 5, "recoil": 1, "hits_needed": 4, "b_burst": 2, "b_hits_needed": 3,
     "ammo": 12, "short_burst": False, "max_rounds": 30},
])
def test_the_two_same_time_readings_agree_with_one_firing_action_each(one_each: dict) -> None:
    """Issue 42: with one firing action a round each, a round is a single pair of
    actions, so settling it action by action is settling the whole round."""
    whole = ok({"duel": SAME_TIME, **one_each})
    paired = ok({"duel": SAME_TIME, "same_time": "action", **one_each})
    for key in ("outcomes_exact", "by_round_exact", "losses_a_exact", "losses_b_exact",
                "losses_c_exact"):
        assert whole[key] == paired[key], key
    # more than one firing action a round: a shooter downed by the first pair fires no more
    two = {"duel": SAME_TIME, "bursts_per_round": 2, "b_bursts_per_round": 2, **one_each}
    assert ok(two)["outcomes_exact"] != ok({**two, "same_time": "action"})["outcomes_exact"]


def test_rulings_numbers_for_a_duel_action_by_action() -> None:
    """The worked case on the Rulings page: the starting duel with two firing actions a
    round each."""
    two = {"duel": SAME_TIME, "bursts_per_round": 2, "b_bursts_per_round": 2}
    whole, paired = ok(two)["outcomes"], ok({**two, "same_time": "action"})["outcomes"]
    figures = [round(100 * r[k], 2) for r in (whole, paired) for k in (B_DOWN, A_DOWN, BOTH_DOWN)]
    assert figures == [33.06, 44.88, 22.02, 37.83, 50.08, 12.05]


@pytest.mark.parametrize("inputs, field, words", [
    ({"magazine": 40}, "magazine", "is more than the 30 rounds carried"),
    ({"duel": SAME_TIME, "same_time": "pairs"}, "same_time", "Action by action"),
    ({"magazine": 2, "burst": 3, "short_burst": False}, "burst", "a magazine of 2"),
    ({"duel": "turns", "b_magazine": 16}, "b_magazine", "is more than the 15"),
    ({"aim": 6}, "aim", "from 0 to 5"),
    ({"reload_actions": 0}, "reload_actions", "from 1 to 4"),
    ({"duel": "both"}, "duel", "received"),
])
def test_new_inputs_are_refused_with_the_field_what_came_and_what_is_allowed(
        inputs: dict, field: str, words: str) -> None:
    reply = api.run(NAME, inputs)
    assert not reply["ok"] and reply["error"]["field"] == field
    assert words in reply["error"]["message"]


def test_a_duel_needs_no_second_shooter_when_there_is_no_return_fire() -> None:
    # the second shooter's fields are hidden without a duel, and refused if sent
    reply = api.run(NAME, {"b_hits_needed": 3})
    assert not reply["ok"] and reply["error"]["field"] == "b_hits_needed"
    duel = api.run(NAME, {"duel": "turns"})
    assert [c["key"] for c in duel["display"]["charts"]] == \
        ["outcomes", "end_round", "losses_a", "losses_b", "losses_c"]
    assert "/rulings/#a-duel-of-two-shooters" in duel["explanation"]
    assert "On average the first shooter uses" in duel["explanation"]
    assert "rounds and the second shooter takes" in duel["explanation"]
    # the second shooter's single shots are shots, not bursts of one
    assert "each a single shot settled by one roll of 1d10 + 5. From DC 12 the roll must " \
        "reach 12 to hit. The load gives 15 shots, so" in duel["explanation"]
    assert "bursts of 3 settled" not in duel["explanation"]
    # and a lone shooter of single shots from magazines: shots, reloads, no bursts at all
    single = api.run(NAME, {"burst": 1, "recoil": 0, "magazine": 10, "ammo": 30})["explanation"]
    assert "When the magazine cannot fire the next shot, the next firing action" in single
    assert "The load gives 30 shots and 2 reloads" in single
    assert "when the weapon cannot fire another shot." in single
    assert "burst of" not in single and "next burst" not in single
