"""Heroic group fights played quickly, for a simulation of thousands of them: the same round
as :func:`rules_core.heroic.fight.play_round` (the initiative, each side's group attack with
the numbers standing, the wipe-outs, the morale checks due, the free attack on a side that
flees), on two whole numbers, the pools, with every chance looked up in tables kept for the
fight.

Every draw is at its exact chance, with one uniform whole number (random bits, redrawn
when past the total: no rounding): the initiative out of 36 (or a side out of 2 when ties
are rolled again), each group attack's injury from its exact distribution
(:func:`rules_core.heroic.fight.injury_kernel`, as a cumulative table, found by bisection),
each morale check out of the 216 ways of 3d6 (:func:`rules_core.heroic.fight.break_ways`).
The tests check it against the exact round (:meth:`Fight.step`) on small fights
(tests/rules_core/test_heroic_quick.py).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable

from rules_core.heroic import fight as model
from rules_core.heroic.groups import standing
from rules_core.solver import below

#: one fight played: (max rounds, generator) -> (the end state, rounds played)
Player = Callable[[int, random.Random], "tuple[model.State, int]"]


def player(fight: model.Fight) -> Player:
    """The fight's quick player, made once and kept in the fight's memo with its tables."""
    kept = fight.memo.setdefault("quick.player", {})
    known: Player | None = kept.get(None)
    if known is None:
        known = kept[None] = _make_player(fight)
    return known


def _make_player(fight: model.Fight) -> Player:  # noqa: C901 (one round, kept in one place)
    rules = fight.rules
    carry = rules.carry_wounds
    keys = model.SIDES
    sides = (fight.a, fight.b)
    hp = (fight.a.hp, fight.b.hp)
    full = (fight.a.full_hp, fight.b.full_hp)
    lone = (fight.a.members == 1, fight.b.members == 1)
    # members standing, by pool
    ups = tuple([standing(p, hp[s]) for p in range(full[s] + 1)] for s in (0, 1))
    wiped = tuple(model.WIPED.format(side.name) for side in sides)
    broken = tuple(model.BREAKS.format(side.name) for side in sides)
    flee = rules.on_break == "flee"
    rerolled = rules.ties == "reroll"
    # each attack's injury table, by (side, free attack, attackers' standing, defenders'),
    # as one whole number (:func:`code`)
    span = max(full) + 2
    tables: dict[int, tuple[int, int, tuple[int, ...], tuple[int, ...]]] = {}
    # ways out of 216 a side breaks, by what its check reads (:func:`model.morale_modifier`:
    # members standing before and after, or a lone creature's HP, and the foes standing),
    # as one whole number
    morale: dict[int, int] = {}

    def code(s: int, x: int, y: int, z: int) -> int:
        """One whole number for a key of four small whole numbers (each below ``span``)."""
        return ((s * span + x) * span + y) * span + z

    def table(key: int, s: int, a_up: int, d_up: int, free: bool
              ) -> tuple[int, int, tuple[int, ...], tuple[int, ...]]:
        """The attack's table, made and kept under ``key`` (its :func:`code`)."""
        den, injuries, cumulative = model.drawable(fight, keys[s], a_up, d_up, free)
        tables[key] = known = (den.bit_length(), den, cumulative, injuries)
        return known

    def breaks(key: int, s: int, before: int, after: int, foe: int) -> int:
        """Side ``s``'s ways to break, worked out and kept under ``key`` (its :func:`code`:
        of the members standing before and after and the foes standing, or a lone
        creature's HP before and after and the foe's pool)."""
        ways = morale[key] = model.break_ways(fight, keys[s], before, after, foe)
        return ways

    # what an injury leaves of a pool (:func:`model.after_injury`), by (pool, injury) read
    # as pool - injury: carried wounds keep it, else the members standing at full HP
    left_of = tuple([p if carry else ups[s][p] * hp[s] for p in range(full[s] + 1)]
                    for s in (0, 1))
    side_b = span ** 3  # where side B's keys start (:func:`code` of side 1)

    def play(max_rounds: int, rng: random.Random) -> tuple[model.State, int]:
        # every draw inline, in the order of :func:`model.play_round` (each injury: random
        # bits redrawn past the table's total, then its bisection)
        getrandbits = rng.getrandbits
        get, ups_a, ups_b, after_a, after_b = tables.get, ups[0], ups[1], left_of[0], left_of[1]
        breaks_get = morale.get
        pa, pb = full
        played = 0
        while played < max_rounds:
            played += 1
            start_a, start_b = pa, pb
            # 1d each: the higher attacks first; ties rolled again, or blows at once
            if rerolled:
                first = getrandbits(1)
            else:
                r = getrandbits(6)
                while r >= 36:
                    r = getrandbits(6)
                first = r // 15
            if first == 2:  # 6 ties in 36: both strike with the numbers they start with
                ua, ub = ups_a[pa], ups_b[pb]
                if ua and ub:
                    t = get(k := ua * span + ub) or table(k, 0, ua, ub, False)
                    r = getrandbits(t[0])
                    while r >= t[1]:
                        r = getrandbits(t[0])
                    hurt = t[3][bisect_right(t[2], r)]
                    pb = after_b[pb - hurt] if pb > hurt else 0
                    t = get(k := side_b + ub * span + ua) or table(k, 1, ub, ua, False)
                    r = getrandbits(t[0])
                    while r >= t[1]:
                        r = getrandbits(t[0])
                    hurt = t[3][bisect_right(t[2], r)]
                    pa = after_a[pa - hurt] if pa > hurt else 0
            else:
                for s in (first, 1 - first):
                    ua, ub = ups_a[pa], ups_b[pb]
                    if ua and ub:
                        if s == 0:
                            t = get(k := ua * span + ub) or table(k, 0, ua, ub, False)
                        else:
                            t = get(k := side_b + ub * span + ua) or table(k, 1, ub, ua, False)
                        r = getrandbits(t[0])
                        while r >= t[1]:
                            r = getrandbits(t[0])
                        hurt = t[3][bisect_right(t[2], r)]
                        if s == 0:
                            pb = after_b[pb - hurt] if pb > hurt else 0
                        else:
                            pa = after_a[pa - hurt] if pa > hurt else 0
            ua, ub = ups_a[pa], ups_b[pb]
            if not (ua and ub):
                name = model.BOTH_WIPED if not (ua or ub) else wiped[0] if not ua else wiped[1]
                return ("end", name, pa, pb), played
            key = (start_a * span + pa) * span + pb if lone[0] else \
                (ups_a[start_a] * span + ua) * span + ub
            ka = breaks_get(key)
            if ka is None:
                ka = breaks(key, 0, start_a, pa, pb)
            key = side_b + ((start_b * span + pb) * span + pa if lone[1] else
                             (ups_b[start_b] * span + ub) * span + ua)
            kb = breaks_get(key)
            if kb is None:
                kb = breaks(key, 1, start_b, pb, pa)
            fled_a = ka and below(rng, model.DICE_WAYS) < ka
            fled_b = kb and below(rng, model.DICE_WAYS) < kb
            if fled_a and fled_b:
                return ("end", model.BOTH_BREAK, pa, pb), played
            if fled_a or fled_b:
                s = 0 if fled_a else 1
                if flee:  # the other side's free attack as it goes
                    e = 1 - s
                    pools = [pa, pb]
                    a_up, d_up = ups[e][pools[e]], ups[s][pools[s]]
                    t = get(k := code(e, 1, a_up, d_up)) or table(k, e, a_up, d_up, True)
                    r = getrandbits(t[0])
                    while r >= t[1]:
                        r = getrandbits(t[0])
                    hurt = t[3][bisect_right(t[2], r)]
                    pools[s] = left_of[s][pools[s] - hurt] if pools[s] > hurt else 0
                    pa, pb = pools
                return ("end", broken[s], pa, pb), played
        return ("fight", pa, pb), played

    return play


def play_quickly(fight: model.Fight, max_rounds: int, rng: random.Random
                 ) -> tuple[model.State, int]:
    """One fight with real chances and no account of it: (the state it stopped in, the
    rounds played). Every round is :func:`rules_core.heroic.fight.play_round`'s, played by
    the fight's quick player (the same round on the two pools, each attack's injury drawn
    from :func:`rules_core.heroic.fight.drawable`'s table and each morale check from its
    exact chance)."""
    return player(fight)(max_rounds, rng)
