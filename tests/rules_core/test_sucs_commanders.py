"""SUCS commanders lost in a fight (source: Special rules for commanders): once a side has
lost every commander, its units left act once a turn and out of command. Checked against
a brute-force oracle written here, which enumerates every die of every activation of a
few units a side, and through the army builder's battle."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from fractions import Fraction

import pytest

from rules_core import api, solver
from rules_core.sucs import roster
from rules_core.sucs.fight import Fight
from rules_core.sucs.turn import Fighter, Rules
from tests.rules_core.test_sucs_engagement import attack_faces, might_damage


def oracle(a, b, turns, rules):
    """Outcome chances after ``turns`` turns of an exchange of fire: both sides' units in
    order (kind, fewest markers), taking turns; each fires at the enemy it is likeliest to
    destroy (ties: the enemy's kind order, the most suppressed, the list); a side whose
    commanders are all destroyed acts once a turn and out of command."""
    units = {"a": a, "b": b}
    ranks = {}
    for s, us in units.items():
        kinds = []
        for u in us:
            if u.stats not in kinds:
                kinds.append(u.stats)
        ranks[s] = [kinds.index(u.stats) for u in us]
    leaders = {s: [i for i, u in enumerate(us) if u.commander] for s, us in units.items()}

    def side_of(st, s):
        return st[0] if s == "a" else st[1]

    def put(st, s, i, v):
        row = list(side_of(st, s))
        row[i] = v
        return (tuple(row), st[1]) if s == "a" else (st[0], tuple(row))

    def leaderless(st, s):
        if not leaders[s]:
            return rules.no_commander == "leaderless"
        return all(side_of(st, s)[i] is None for i in leaders[s])

    def kill(att, tgt):
        faces = attack_faces(att, tgt, 0, rules)
        return Fraction(sum(n for (o, _), n in faces if o == "destroyed"), sum(n for _, n in faces))

    def act(st, s, i):
        e = "b" if s == "a" else "a"
        m, n = side_of(st, s)[i]
        lost = leaderless(st, s)
        if units[s][i].one_action or lost:
            removed, attacks = min(m, 1), m == 0
        else:
            removed, attacks = min(m, 2), m < 2
        st = put(st, s, i, (m - removed, n))
        if not attacks:
            return {st: Fraction(1)}
        att = replace(units[s][i], out_of_command=units[s][i].out_of_command or lost)
        them = side_of(st, e)
        alive = [t for t, u in enumerate(them) if u is not None]
        alive.sort(key=lambda t: (-kill(att, units[e][t]), ranks[e][t], -them[t][0], -them[t][1], t))
        paths = {st: Fraction(1)}
        for t in alive[:att.targets]:
            tgt = units[e][t]
            faces = attack_faces(att, tgt, 0, rules)
            total = sum(w for _, w in faces)
            nxt = {}
            for s1, p in paths.items():
                for (outcome, rolled), ways in faces:
                    v = side_of(s1, e)[t]
                    if outcome == "destroyed":
                        v = None
                    elif outcome == "suppressed":
                        v = (v[0] + 1, v[1])
                    elif rolled and might_damage(att, tgt, rules):
                        v = (v[0] + 1, 0) if v[1] == 1 else (v[0], 1)
                    s2 = put(s1, e, t, v)
                    nxt[s2] = nxt.get(s2, 0) + p * Fraction(ways, total)
            paths = nxt
        return paths

    def over(st):
        return all(u is None for u in st[0]) or all(u is None for u in st[1])

    def rest(st, qa, qb, s):
        qa = [i for i in qa if st[0][i] is not None]
        qb = [i for i in qb if st[1][i] is not None]
        if not (qa or qb) or over(st):
            return {st: Fraction(1)}
        if not (qa if s == "a" else qb):
            s = "b" if s == "a" else "a"
        i = (qa if s == "a" else qb)[0]
        qa, qb = (qa[1:], qb) if s == "a" else (qa, qb[1:])
        out = {}
        for s2, p in act(st, s, i).items():
            for s3, p3 in rest(s2, qa, qb, "b" if s == "a" else "a").items():
                out[s3] = out.get(s3, 0) + p * p3
        return out

    def queue(st, s):
        row = side_of(st, s)
        return sorted((i for i, u in enumerate(row) if u is not None),
                      key=lambda i: (ranks[s][i], *row[i], i))

    live = {(tuple((0, 0) for _ in a), tuple((0, 0) for _ in b)): Fraction(1)}
    for _ in range(turns):
        nxt = {}
        for st, p in live.items():
            if over(st):
                nxt[st] = nxt.get(st, 0) + p
                continue
            for first in "ab":
                for s2, q in rest(st, queue(st, "a"), queue(st, "b"), first).items():
                    nxt[s2] = nxt.get(s2, 0) + p * q / 2
        live = nxt
    totals = {}
    for (sa, sb), p in live.items():
        name = "Side A wins" if all(u is None for u in sb) else "Side B wins" \
            if all(u is None for u in sa) else solver.STILL_FIGHTING
        totals[name] = totals.get(name, 0) + p
    return totals


def unit(name, q=3, a=1, r=0, **kw):
    return Fighter(name, q, a, armor=r, **kw)


CASES = [
    # a lieutenant and a rifle squad of the same numbers against veterans: the veterans'
    # likeliest kill is a tie, the commander's kind comes first
    ((unit("Lt", commander=True), unit("Rifles")), (unit("Vets", q=4, a=2, r=1),), {}),
    # an armored commander and a gun team hitting both
    ((unit("Cpt", q=4, a=1, r=1, commander=True), unit("Rifles")),
     (unit("Guns", a=1, targets=2),), {}),
    # two commanders: one alone lost changes nothing
    ((unit("Lt", commander=True), unit("Sgt", q=2, commander=True)),
     (unit("Vets", q=4, a=2, r=1),), {}),
    # no commander on side A, read as leaderless from the start; side B loses its own
    ((unit("Rifles"), unit("Rifles")), (unit("Cpt", q=4, commander=True), unit("Guns", q=2)),
     {"no_commander": "leaderless"}),
    ((unit("Rifles"), unit("Rifles")), (unit("Cpt", q=4, commander=True), unit("Guns", q=2)),
     {}),
]


@pytest.mark.parametrize("a,b,rules", CASES)
def test_commanders_lost_match_the_brute_force_oracle(a, b, rules) -> None:
    turns = 3
    exact = solver.solve(Fight(a, b, Rules(**rules)), max_rounds=turns).outcomes
    brute = oracle(a, b, turns, Rules(**rules))
    assert {k: v for k, v in exact.items() if v} == {k: v for k, v in brute.items() if v}


def test_losing_the_last_commander_matters_and_a_side_without_one_is_as_the_reading_says() -> None:
    a, b = (unit("Lt", commander=True), unit("Rifles")), (unit("Vets", q=4, a=2, r=1),)
    led = solver.solve(Fight(a, b), max_rounds=3).outcomes["Side A wins"]
    never = solver.solve(Fight((unit("Lt"), unit("Rifles")), b), max_rounds=3).outcomes
    unled = solver.solve(Fight((unit("Lt"), unit("Rifles")), b,
                               Rules(no_commander="leaderless")), max_rounds=3).outcomes
    # the commander is a liability: when it falls the squad left acts once, out of command
    assert unled["Side A wins"] < led < never["Side A wins"]


def test_armies_without_commanders_read_as_unled_are_the_engagements_switches() -> None:
    a, b = (unit("A1"), unit("A2", a=2)), (unit("B1", q=4, r=1),)
    plain = solver.solve(Fight(a, b), max_rounds=3).outcomes
    # with no commander on either side, reading both as unled is the same fight as the
    # engagement calculator's own switches (one action, out of command) on every unit
    unled = solver.solve(Fight(a, b, Rules(no_commander="leaderless")), max_rounds=3).outcomes
    switched = solver.solve(Fight(tuple(replace(u, one_action=True, out_of_command=True) for u in a),
                                  tuple(replace(u, one_action=True, out_of_command=True) for u in b)),
                            max_rounds=3).outcomes
    assert unled == switched != plain


@pytest.mark.parametrize("a,b,rules", CASES[:2])
def test_the_pruned_walk_dropping_nothing_follows_commanders_lost(a, b, rules) -> None:
    exact = solver.solve(Fight(a, b, Rules(**rules)), max_rounds=4)
    pruned = solver.solve_pruned(Fight(a, b, Rules(**rules)), max_rounds=4, floor=0.0)
    assert pruned.pruned == 0
    for name, p in exact.outcomes.items():
        assert pruned.outcomes.get(name, 0.0) == pytest.approx(float(p), abs=1e-12)


def army(name, units):
    return json.dumps({**roster.blank(name, 0), "units": [
        {"name": n, "count": c, "preset": None, "stats": st} for n, c, st in units]})


RIFLES = {"quality": 3, "attack": 1, "armor": 0}
VETERANS = {"quality": 4, "attack": 2, "armor": 1}


def platoon(commander: bool) -> str:
    return army("Platoon", [("Lieutenant", 1, {**RIFLES, "commander": commander}),
                            ("Rifle squad", 2, RIFLES)])


def test_the_battle_loses_a_rosters_last_commander_and_says_so() -> None:
    """A platoon led by a lieutenant (a rifle squad's numbers, marked Commander) against
    two veteran squads, six turns: the figures of the Rulings page."""
    raiders = army("Raiders", [("Veterans", 2, VETERANS)])
    led = api.run("sucs.roster_battle", {"roster_a": platoon(True), "roster_b": raiders})
    plain = api.run("sucs.roster_battle", {"roster_a": platoon(False), "roster_b": raiders})
    unled = api.run("sucs.roster_battle", {"roster_a": platoon(False), "roster_b": raiders,
                                           "no_commander": "leaderless"})
    assert led["ok"] and plain["ok"] and unled["ok"]
    held = {k: round(r["result"]["outcomes"]["Platoon holds the field"] * 100, 2)
            for k, r in (("led", led), ("plain", plain), ("unled", unled))}
    assert held == {"led": 14.29, "plain": 25.61, "unled": 19.31}
    assert led["result"]["method"] == "exact"
    assert "Platoon's commanders are Lieutenant x1" in led["explanation"]
    assert "Raiders has none and fights with two actions a turn" in led["explanation"]
    assert "Platoon has none, so its units act once a turn" in unled["explanation"]
    # played with dice, the account says when a side fights on without a commander
    logs = [api.roll("sucs.roster_battle", {"roster_a": platoon(True), "roster_b": raiders},
                     random.Random(seed))["result"]["log"] for seed in range(30)]
    assert any("no commander left: one action a turn, out of command" in line
               for log in logs for line in log)
