"""Issue 42 in the SUCS whole fight: the activation order as a reading, a modifier to a
unit's attack rolls, and a unit's other weapons. Each against an exact model written
here for a few units (every die of every attack enumerated, turn by turn, no state
merged), on every outcome, every round and the losses; seeded fights with real dice (the
quick player and the played account) against the exact odds; and the forms."""

from __future__ import annotations

import functools
import random
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from rules_core import api, solver
from rules_core.fields import validate
from rules_core.sucs import calc_actions_fight, calc_roster_battle
from rules_core.sucs.calc_actions_fight import fight_of, parse_side
from rules_core.sucs.fight import Fight
from rules_core.sucs.quick import play_quickly
from rules_core.sucs.tables import MAX_ROLL_MODIFIER
from rules_core.sucs.turn import Fighter as F
from rules_core.sucs.turn import Rules
from tests.rules_core.sim_check import drawn, exact_after, sampled_fits
from tests.rules_core.test_sucs_engagement import attack_faces, might_damage

A_WINS, B_WINS = "Side A wins", "Side B wins"
Unit = tuple[int, int] | None


def model(a: tuple[F, ...], b: tuple[F, ...], turns: int, order: str = "least_suppressed",
          choice: str = "best") -> dict[str, Any]:
    """The exact odds of a ranged fight written out again from the rules (the reading
    "reorganize": up to two markers come off, then the unit attacks if it had fewer than
    two; the two-roll rule; initiative 1/2 each, ties rolled again), for every unit state
    kept apart: {"outcomes", "by_round" (cumulative), "losses"}."""
    rules = Rules()
    units = {"a": a, "b": b}

    def other(side: str) -> str:
        return "b" if side == "a" else "a"

    def rank(side: str, i: int) -> int:
        return next(j for j, u in enumerate(units[side]) if u.stats == units[side][i].stats)

    @functools.cache
    def faces(side: str, i: int, t: int, w: int) -> tuple[Any, ...]:
        me = units[side][i]
        att = replace(me, attack=me.weapon(w)[0])
        return attack_faces(att, units[other(side)][t], me.roll_modifier, rules)

    def kill(side: str, i: int, t: int, w: int) -> Fraction:
        f = faces(side, i, t, w)
        return Fraction(sum(n for (o, _), n in f if o == "destroyed"), sum(n for _, n in f))

    def hurts(side: str, i: int, t: int, w: int) -> bool:
        return any(o != "no_effect" for (o, _), _n in faces(side, i, t, w))

    def aim(state: dict[str, tuple[Unit, ...]], side: str, i: int) -> tuple[int, list[int]]:
        enemy = other(side)
        alive = [t for t, u in enumerate(state[enemy]) if u is not None]

        def targets(w: int) -> list[int]:
            ranked = sorted(alive, key=lambda t: (-kill(side, i, t, w), rank(enemy, t),
                                                  -state[enemy][t][0], -state[enemy][t][1], t))
            return ranked[:units[side][i].weapon(w)[1]]
        weapons = range(1 + len(units[side][i].alt_weapons))
        if choice == "fallback":
            ok = [w for w in weapons if any(hurts(side, i, t, w) for t in alive)]
            w = ok[0] if ok else 0
            return w, targets(w)
        best, most = 0, Fraction(-1)
        for w in weapons:
            expected = sum((kill(side, i, t, w) for t in targets(w)), Fraction(0))
            if expected > most:
                best, most = w, expected
        return best, targets(best)

    def queue(state: dict[str, tuple[Unit, ...]], side: str) -> tuple[int, ...]:
        mine = state[side]
        alive = [i for i, u in enumerate(mine) if u is not None]
        if order == "list":
            return tuple(alive)

        def chance(i: int) -> Fraction:
            if mine[i][0] >= 2:
                return Fraction(0)
            w, ts = aim(state, side, i)
            return kill(side, i, ts[0], w) if ts else Fraction(0)
        return tuple(sorted(alive, key=lambda i: (
            -chance(i) if order == "likeliest" else 0, rank(side, i), mine[i][0], mine[i][1], i)))

    def activate(state: dict[str, tuple[Unit, ...]], side: str, i: int
                 ) -> list[tuple[dict[str, tuple[Unit, ...]], Fraction]]:
        m, n = state[side][i]
        attacks = m < 2
        mine = list(state[side])
        mine[i] = (m - min(m, 2), n)
        state = {**state, side: tuple(mine)}
        if not attacks:
            return [(state, Fraction(1))]
        w, targets = aim(state, side, i)
        me = units[side][i]
        paths = [(state, Fraction(1))]
        enemy = other(side)
        for t in targets:
            nxt = []
            for st, p in paths:
                if st[enemy][t] is None:
                    nxt.append((st, p))
                    continue
                f = faces(side, i, t, w)
                total = sum(c for _, c in f)
                for (outcome, rolled), c in f:
                    them = list(st[enemy])
                    tm, tn = them[t]
                    if outcome == "destroyed":
                        them[t] = None
                    elif outcome == "suppressed":
                        them[t] = (tm + 1, tn)
                    elif rolled and might_damage(replace(me, attack=me.weapon(w)[0]),
                                                 units[enemy][t], rules, me.roll_modifier):
                        them[t] = (tm + 1, 0) if tn == 1 else (tm, 1)
                    nxt.append(({**st, enemy: tuple(them)}, p * Fraction(c, total)))
            paths = nxt
        return paths

    def gone(st: dict[str, tuple[Unit, ...]]) -> bool:
        return all(u is None for u in st["a"]) or all(u is None for u in st["b"])

    def rest(st: dict[str, tuple[Unit, ...]], qa: tuple[int, ...], qb: tuple[int, ...],
             side: str) -> list[tuple[dict[str, tuple[Unit, ...]], Fraction]]:
        qa = tuple(i for i in qa if st["a"][i] is not None)
        qb = tuple(i for i in qb if st["b"][i] is not None)
        if gone(st) or not (qa or qb):
            return [(st, Fraction(1))]
        q = {"a": qa, "b": qb}
        if not q[side]:
            side = other(side)
        i = q[side][0]
        q[side] = q[side][1:]
        out = []
        for st2, p in activate(st, side, i):
            out += [(st3, p * p3) for st3, p3 in rest(st2, q["a"], q["b"], other(side))]
        return out

    def key(st: dict[str, tuple[Unit, ...]]) -> tuple[Any, ...]:
        return (st["a"], st["b"])

    live = {((((0, 0),) * len(a)), (((0, 0),) * len(b))): Fraction(1)}
    by_round = []
    for _ in range(turns):
        nxt: dict[tuple[Any, ...], Fraction] = {}
        for (sa, sb), p in live.items():
            st = {"a": sa, "b": sb}
            if gone(st):
                nxt[(sa, sb)] = nxt.get((sa, sb), 0) + p
                continue
            for first in "ab":
                for end, q in rest(st, queue(st, "a"), queue(st, "b"), first):
                    nxt[key(end)] = nxt.get(key(end), 0) + p * q / 2
        live = nxt
        row: dict[str, Fraction] = {}
        for (sa, sb), p in live.items():
            won = A_WINS if all(u is None for u in sb) else B_WINS if all(
                u is None for u in sa) else None
            if won:
                row[won] = row.get(won, 0) + p
        by_round.append(row)
    outcomes = dict(by_round[-1])
    outcomes[solver.STILL_FIGHTING] = 1 - sum(outcomes.values())
    losses: dict[str, dict[int, Fraction]] = {"a": {}, "b": {}}
    for (sa, sb), p in live.items():
        for s, units_left in (("a", sa), ("b", sb)):
            n = sum(u is None for u in units_left)
            losses[s][n] = losses[s].get(n, 0) + p
    return {"outcomes": outcomes, "by_round": by_round, "losses": losses}


def nonzero(d: dict[Any, Fraction]) -> dict[Any, Fraction]:
    return {k: v for k, v in d.items() if v}


def agrees(fight: Fight, turns: int, **how: str) -> solver.Odds:
    """The fight's exact walk equals the model on every outcome, every round and the
    losses; and the pruned walk at a floor of 0 equals it too."""
    exact = solver.solve(fight, max_rounds=turns)
    want = model(fight.units["a"], fight.units["b"], turns, **how)
    assert nonzero(exact.outcomes) == nonzero(want["outcomes"])
    assert [nonzero({k: v for k, v in row.items() if k != solver.STILL_FIGHTING})
            for row in exact.by_round] == [nonzero(r) for r in want["by_round"]]
    assert {s: nonzero(d) for s, d in exact.losses.items()} == \
        {s: nonzero(d) for s, d in want["losses"].items()}
    pruned = solver.solve_pruned(fight, max_rounds=turns, floor=0.0)
    for name, p in exact.outcomes.items():
        assert pruned.outcomes.get(name, 0.0) == pytest.approx(float(p), abs=1e-12)
    return exact


# ---- the activation order ----------------------------------------------------------

RIFLES = F("A", 3, 1)
LISTS = {"least_suppressed": "276865/373248", "list": "4489865/5971968"}


@pytest.mark.parametrize("order", ["least_suppressed", "list", "likeliest"])
def test_the_smallest_case_of_the_activation_order(order: str) -> None:
    """Side A 3/1/0, 3/1/0 against side B 4/1/0, ranged, two turns: B is destroyed with
    276865/373248 when the least suppressed acts first (the default), 4489865/5971968 in
    list order (issue 42); the likeliest first is the default here (both rifles alike)."""
    fight = Fight((RIFLES, RIFLES), (F("B", 4, 1),), Rules(order=order))
    exact = agrees(fight, 2, order=order)
    assert exact.outcomes[A_WINS] == Fraction(LISTS.get(order, LISTS["least_suppressed"]))
    form = api.run("sucs.engagement", {"side_a": "3/1/0, 3/1/0", "side_b": "4/1/0",
                                        "max_rounds": 2, "order": order})["result"]
    assert form["outcomes_exact"][A_WINS] == LISTS.get(order, LISTS["least_suppressed"])


ORDER_CASES = [
    # the better shot listed second: the likeliest puts it first
    ((F("A", 3, 1), F("A", 5, 1)), (F("B", 4, 1),), 3),
    ((F("A", 3, 1), F("A", 5, 1)), (F("B", 4, 1), F("B", 3, 1, armor=1)), 2),
    ((F("A", 4, 1, armor=1), F("A", 4, 1, armor=1)), (F("B", 3, 2), F("B", 4, 1)), 2),
]


@pytest.mark.parametrize("order", ["least_suppressed", "list", "likeliest"])
@pytest.mark.parametrize("a,b,turns", ORDER_CASES)
def test_every_activation_order_matches_the_model(a, b, turns, order) -> None:
    agrees(Fight(a, b, Rules(order=order)), turns, order=order)


#: the Rulings page's worked case for the likeliest first: side A wins with
ELITE_FIRST = {"least_suppressed": "32732460371/34828517376",
               "list": "32732460371/34828517376", "likeliest": "16091843573/17414258688"}


def test_the_orders_differ_where_the_rulings_page_says() -> None:
    """The worked case on the Rulings page: 3/1/0, 5/1/0 against 4/1/0, three turns. The
    elite first is worse for side A: B's shot then falls on the rifles (first of A's
    list, both unarmored) before they have fired, where otherwise they had already."""
    a, b = (F("A1", 3, 1), F("A2", 5, 1)), (F("B1", 4, 1),)
    won = {o: solver.solve(Fight(a, b, Rules(order=o)), max_rounds=3).outcomes[A_WINS]
           for o in ("least_suppressed", "list", "likeliest")}
    assert won == {o: Fraction(v) for o, v in ELITE_FIRST.items()}


# ---- the modifier to attack rolls ---------------------------------------------------

MODIFIER_CASES = [
    ((F("A", 3, 1, roll_modifier=2), F("A", 3, 1, armor=1, roll_modifier=2)),
     (F("B", 4, 1, roll_modifier=-1),), 3),
    ((F("A", 3, 2, armor=1, roll_modifier=-3),), (F("B", 4, 1, armor=1, roll_modifier=1),
                                                   F("B", 2, 1)), 3),
    ((F("A", 1, 1, targets=2, roll_modifier=MAX_ROLL_MODIFIER),),
     (F("B", 5, 1, roll_modifier=-MAX_ROLL_MODIFIER), F("B", 3, 1)), 3),
]


@pytest.mark.parametrize("a,b,turns", MODIFIER_CASES)
def test_the_modifier_to_attack_rolls_matches_the_model(a, b, turns) -> None:
    agrees(Fight(a, b, Rules()), turns)


def test_the_modifier_changes_the_engagement_and_is_refused_past_its_range() -> None:
    base = {"side_a": "3/1/0", "side_b": "3/1/0", "max_rounds": 3}
    plain = api.run("sucs.engagement", base)["result"]["outcomes_exact"]
    helped = api.run("sucs.engagement", {**base, "a_roll_modifier": 2})["result"]
    assert Fraction(helped["outcomes_exact"][A_WINS]) > Fraction(plain[A_WINS])
    assert "+2 to its attack rolls" in helped["units"]["a"][0]
    for name in ("sucs.engagement", "sucs.roster_battle"):
        start = api.spec(name)["initial"]
        bad = api.run(name, {**start, "b_roll_modifier": MAX_ROLL_MODIFIER + 1})
        assert not bad["ok"]
        msg = bad["error"]["message"]
        assert bad["error"]["field"] == "b_roll_modifier"
        assert f"received {MAX_ROLL_MODIFIER + 1}" in msg and \
            f"{-MAX_ROLL_MODIFIER} to {MAX_ROLL_MODIFIER}" in msg, msg
        assert "modifier" in calc_field_label(name, "b_roll_modifier").lower()


def calc_field_label(name: str, field: str) -> str:
    fields = {"sucs.engagement": calc_actions_fight.FIELDS,
              "sucs.roster_battle": calc_roster_battle.FIELDS}[name]
    return next(f.label for f in fields if f.name == field)


# ---- other weapons ------------------------------------------------------------------

TANK = F("Tank", 3, 3, armor=2, alt_weapons=((1, 2),))
WEAPON_CASES = [
    # the cannon for the armored target, the machine gun for two riflemen
    ((TANK,), (F("B", 3, 1), F("B", 3, 1)), 3),
    ((TANK,), (F("B", 4, 1, armor=2), F("B", 3, 1)), 3),
    ((F("A", 3, 0, alt_weapons=((1, 1), (2, 1))),), (F("B", 3, 1, armor=1),), 3),
    ((F("A", 4, 0, alt_weapons=((0, 2),)), F("A", 3, 1)), (F("B", 3, 1, armor=1), F("B", 3, 1)), 2),
    # the main weapon cannot hurt armor 2: "fallback" turns to the other once B2 is gone
    ((F("A", 3, 0, alt_weapons=((2, 1),)),), (F("B", 3, 1, armor=2), F("B", 3, 1)), 3),
]


@pytest.mark.parametrize("choice", ["best", "fallback"])
@pytest.mark.parametrize("a,b,turns", WEAPON_CASES)
def test_other_weapons_match_the_model(a, b, turns, choice) -> None:
    agrees(Fight(a, b, Rules(weapon_choice=choice)), turns, choice=choice)


def test_a_second_weapon_changes_the_odds_and_the_account_names_it() -> None:
    """The machine gun makes the tank likelier to clear two riflemen; a played fight says
    which weapon each attack used."""
    b = (F("B1", 3, 1), F("B2", 3, 1))
    with_mg = solver.solve(Fight((TANK,), b, Rules()), max_rounds=3).outcomes[A_WINS]
    cannon = solver.solve(Fight((replace(TANK, alt_weapons=()),), b, Rules()),
                          max_rounds=3).outcomes[A_WINS]
    assert with_mg > cannon
    fight = Fight((TANK,), b, Rules())
    log = " ".join(solver.play(fight, max_rounds=3, rng=random.Random(3)).log)
    assert "Side A Tank fires at Side B B1 with its weapon 2 (attack 1x2)" in log, log


def test_the_engagement_reads_other_weapons_and_refuses_too_many() -> None:
    (unit,) = parse_side("side_a", "3/3 or 1x2/2")
    assert (unit.attack, unit.targets, unit.alt_weapons) == (3, 1, ((1, 2),))
    bad = api.run("sucs.engagement", {"side_a": "3/3 or 1x2 or 2 or 1/2"})
    assert not bad["ok"] and bad["error"]["field"] == "side_a"
    assert "4 weapons" in bad["error"]["message"] and "at most 3" in bad["error"]["message"]
    bad = api.run("sucs.engagement", {"side_a": "3/3 or 1x9/2"})
    assert "units hit must be from 1 to 6; received 9" in bad["error"]["message"]


def _roster(name: str, units: list[tuple[str, int, dict[str, Any]]]) -> str:
    return calc_roster_battle.starter(name, units)


def test_the_army_battle_fires_the_weapons_the_builder_charges_for() -> None:
    """The roster line's unit (alt_weapons "1,1", priced at half by the builder) is the
    unit that fights: the battle's fighter has the machine gun, and it changes the odds."""
    tank = {"quality": 3, "attack": 3, "armor": 2, "alt_weapons": "1,1"}
    rifles = {"quality": 3, "attack": 1, "armor": 0}
    inputs = {"roster_a": _roster("Tanks", [("Tank", 1, tank)]),
              "roster_b": _roster("Rifles", [("Rifles", 2, rifles)]), "turns": 4}
    battle = calc_roster_battle.battle_of(validate(calc_roster_battle.FIELDS, inputs))
    assert battle.units["a"][0].alt_weapons == ((1, 2),)
    armed = api.run("sucs.roster_battle", inputs)["result"]
    plain = api.run("sucs.roster_battle", {**inputs, "roster_a": _roster(
        "Tanks", [("Tank", 1, {**tank, "alt_weapons": ""})])})["result"]
    assert armed["outcomes"]["Tanks holds the field"] > plain["outcomes"]["Tanks holds the field"]
    exact = solver.solve(battle, max_rounds=4)
    want = model(battle.units["a"], battle.units["b"], 4)
    assert float(want["outcomes"][A_WINS]) == pytest.approx(
        armed["outcomes"]["Tanks holds the field"], abs=1e-12)
    assert exact.outcomes["Side A holds the field"] == want["outcomes"][A_WINS]


def test_the_army_battle_takes_the_order_and_the_modifier() -> None:
    rifles = {"quality": 3, "attack": 1, "armor": 0}
    vets = {"quality": 5, "attack": 1, "armor": 0}
    inputs = {"roster_a": _roster("A", [("Rifles", 1, rifles), ("Elite", 1, vets)]),
              "roster_b": _roster("B", [("Vets", 1, {"quality": 4, "attack": 1})]),
              "turns": 4}
    answers = {o: api.run("sucs.roster_battle", {**inputs, "order": o})["result"]["outcomes"]
               for o in ("least_suppressed", "list", "likeliest")}
    assert answers["likeliest"] != answers["list"]
    battle = calc_roster_battle.battle_of(validate(calc_roster_battle.FIELDS, {
        **inputs, "order": "likeliest", "a_roll_modifier": 1, "b_roll_modifier": -2}))
    assert [u.roll_modifier for u in battle.units["a"] + battle.units["b"]] == [1, 1, -2]
    exact = solver.solve(battle, max_rounds=4)
    want = model(battle.units["a"], battle.units["b"], 4, order="likeliest")
    assert exact.outcomes["Side A holds the field"] == want["outcomes"][A_WINS]


# ---- real dice ----------------------------------------------------------------------

QUICK = {
    "list order": (Fight((F("A", 3, 1), F("A", 3, 1)), (F("B", 4, 1), F("B", 3, 1)),
                         Rules(order="list")), 2),
    "likeliest first, modifiers": (Fight((F("A", 3, 1, roll_modifier=1), F("A", 5, 1)),
                                         (F("B", 4, 1, roll_modifier=-1), F("B", 3, 1)),
                                         Rules(order="likeliest")), 2),
    "a tank's two weapons": (Fight((TANK, F("A", 3, 1)), (F("B", 3, 1), F("B", 4, 1, armor=2)),
                                   Rules()), 2),
    "the main weapon first, in melee": (Fight((TANK,), (F("B", 3, 1), F("B", 3, 0)),
                                              Rules(weapon_choice="fallback", melee=True)), 2),
    # a strike back between the two attacks of automatic fire changes the second's penalty
    "automatic fire in melee, a second weapon, markers as a penalty": (
        Fight((F("A", 3, 1, targets=2, armor=1, alt_weapons=((2, 1),)),
               F("A", 4, 1, targets=2, armor=1)),
              (F("B", 3, 1), F("B", 5, 1)), Rules(melee=True, suppression="penalty"),
              markers=(1, 0)), 2),
}


@pytest.mark.parametrize("name", QUICK)
def test_the_quick_player_draws_every_turn_at_the_exact_chances(name: str) -> None:
    """As tests/rules_core/test_sucs_quick.py: 6,000 seeded fights, a chi-square test at
    one in 10,000 after each turn, no state drawn the exact walk cannot reach."""
    fight, turns = QUICK[name]
    for rounds in range(1, turns + 1):
        counts = drawn(lambda r, rng: play_quickly(fight, r, rng), rounds, 6_000, rounds,
                       lambda rnd, played: (rnd[0], fight.canonical(rnd[1])) if played else rnd)
        assert sampled_fits(exact_after(fight, rounds), counts) == "", (name, rounds)


@pytest.mark.parametrize("extra", [
    {"order": "list", "a_roll_modifier": 1},
    {"order": "likeliest", "b_roll_modifier": -2, "side_a": "3/3 or 1x2/1, 4/1/0"},
    {"weapon_choice": "fallback", "side_a": "3/0 or 1x2/1, 3/1/0", "mode": "melee",
     "max_rounds": 3},
])
def test_the_played_account_agrees_with_the_exact_odds(extra: dict[str, Any]) -> None:
    """400 fights played with real dice through the played account's code (Fight.sample):
    each outcome's count within a 99.9% Wilson interval (z = 3.3) of the exact chance."""
    inputs = {"side_a": "3/1/0, 3/1/1", "side_b": "4/1/0, 3/2/1", "max_rounds": 20, **extra}
    exact = api.run("sucs.engagement", inputs)["result"]["outcomes_exact"]
    fight = fight_of(validate(calc_actions_fight.FIELDS, inputs))
    rng = random.Random(42)
    counts: dict[str, int] = {}
    trials = 400
    for _ in range(trials):
        played = solver.play(fight, max_rounds=inputs["max_rounds"], rng=rng)
        counts[played.outcome] = counts.get(played.outcome, 0) + 1
    for name, p in exact.items():
        est = solver.wilson(counts.get(name, 0), trials, z=3.3)
        assert est.low <= float(Fraction(p)) <= est.high, name
