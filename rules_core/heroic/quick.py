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
    # each attack's injury table, by (side, free attack, attackers' standing, defenders')
    tables: dict[tuple[int, bool, int, int], tuple[int, int, tuple[int, ...], tuple[int, ...]]] = {}
    # ways out of 216 a side breaks, by what its check reads (:func:`model.morale_modifier`:
    # members standing before and after, or a lone creature's HP, and the foes standing)
    morale: dict[tuple[int, int, int, int], int] = {}

    def table(s: int, a_up: int, d_up: int, free: bool
              ) -> tuple[int, int, tuple[int, ...], tuple[int, ...]]:
        den, injuries, cumulative = model.drawable(fight, keys[s], a_up, d_up, free)
        tables[s, free, a_up, d_up] = known = (den.bit_length(), den, cumulative, injuries)
        return known

    def breaks(s: int, before: int, after: int, foe: int) -> int:
        e = 1 - s
        key = ((s, before, after, ups[e][foe]) if lone[s] else
               (s, ups[s][before], ups[s][after], ups[e][foe]))
        ways = morale.get(key)
        if ways is None:
            ways = morale[key] = model.break_ways(fight, keys[s], before, after, foe)
        return ways

    def play(max_rounds: int, rng: random.Random) -> tuple[model.State, int]:
        getrandbits = rng.getrandbits

        def injury(s: int, a_up: int, d_up: int, free: bool) -> int:
            """Side ``s``'s attack with ``a_up`` striking on ``d_up`` standing, drawn."""
            known = tables.get((s, free, a_up, d_up)) or table(s, a_up, d_up, free)
            bits, den, cumulative, injuries = known
            r = getrandbits(bits)
            while r >= den:
                r = getrandbits(bits)
            return injuries[bisect_right(cumulative, r)]

        def after(e: int, pool: int, hurt: int) -> int:
            """:func:`model.after_injury`."""
            left = pool - hurt if pool > hurt else 0
            return left if carry else ups[e][left] * hp[e]

        pools = [full[0], full[1]]
        played = 0
        while played < max_rounds:
            played += 1
            pa, pb = pools
            # 1d each: the higher attacks first; ties rolled again, or blows at once
            first = getrandbits(1) if rerolled else below(rng, 36) // 15
            if first == 2:  # 6 ties in 36: both strike with the numbers they start with
                ua, ub = ups[0][pa], ups[1][pb]
                if ua and ub:
                    pools[1] = after(1, pb, injury(0, ua, ub, False))
                    pools[0] = after(0, pa, injury(1, ub, ua, False))
            else:
                for s in (first, 1 - first):
                    e = 1 - s
                    a_up, d_up = ups[s][pools[s]], ups[e][pools[e]]
                    if a_up and d_up:
                        pools[e] = after(e, pools[e], injury(s, a_up, d_up, False))
            ua, ub = ups[0][pools[0]], ups[1][pools[1]]
            if not (ua and ub):
                name = model.BOTH_WIPED if not (ua or ub) else wiped[0] if not ua else wiped[1]
                return ("end", name, *pools), played
            ka, kb = breaks(0, pa, pools[0], pools[1]), breaks(1, pb, pools[1], pools[0])
            fled_a = ka and below(rng, model.DICE_WAYS) < ka
            fled_b = kb and below(rng, model.DICE_WAYS) < kb
            if fled_a and fled_b:
                return ("end", model.BOTH_BREAK, *pools), played
            if fled_a or fled_b:
                s = 0 if fled_a else 1
                e = 1 - s
                if flee:  # the other side's free attack as it goes
                    pools[s] = after(s, pools[s], injury(e, ups[e][pools[e]],
                                                         ups[s][pools[s]], True))
                return ("end", broken[s], *pools), played
        return ("fight", *pools), played

    return play


def play_quickly(fight: model.Fight, max_rounds: int, rng: random.Random
                 ) -> tuple[model.State, int]:
    """One fight with real chances and no account of it: (the state it stopped in, the
    rounds played). Every round is :func:`rules_core.heroic.fight.play_round`'s, played by
    the fight's quick player (the same round on the two pools, each attack's injury drawn
    from :func:`rules_core.heroic.fight.drawable`'s table and each morale check from its
    exact chance)."""
    return player(fight)(max_rounds, rng)
