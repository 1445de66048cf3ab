"""Exact odds of one attack: attacker's pool against the defender's pool.

Source: Cortex Prime contest (defender wins ties), Part I "Extra Effect Dice" and
"Inflicting Harm - NPCs", Part II "Attack and Defense". The attacker's roll is counted by
:func:`rules_core.cortex.contest.outcome_weights` (the same rule as
:func:`~rules_core.cortex.contest.resolve`), the defender's by its totals; the margin
then fixes how many effect dice the attacker gets (:func:`contest.effect_dice`) and
:func:`rules_core.cortex.effect.taken_out_count` says how many members they remove.

The whole engagement asks for hundreds of contests (:func:`effect_dice_weights`,
:func:`effect_dice_pairs`): they count the same rule size by size of die into tables
cached per pool (the attacker's rolls by total and leftover dice, the defender's rolls
each total beats by the effect dice asked for), so a pair of pools costs a few sums.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb
from operator import mul

from rules_core.cortex.contest import (
    MAX_EFFECT_DICE,
    EffectLimit,
    Key,
    effect_count,
    outcome_weights,
    ways,
)
from rules_core.cortex.dice import SIZES
from rules_core.cortex.effect import Rules, taken_out_count
from rules_core.cortex.tables import MAX_FIRETEAM


@dataclass(frozen=True)
class Target:
    """The unit the attack is aimed at, and how effect dice are assigned to it."""

    unit: tuple[int, ...]
    injury: int | None = None
    rules: Rules = Rules.PART2
    carry_surplus: bool = False


@dataclass(frozen=True)
class ContestOdds:
    """Exact distributions of one contest (probabilities as Fractions)."""

    p_win: Fraction
    margin: dict[int, Fraction]  # attacker total - defender total
    effect_die: dict[int, Fraction]  # size of the (first) effect die; 0 = no win
    extra_effect_dice: dict[int, Fraction]  # extra effect dice; 0 when the attack fails
    taken_out: dict[int, Fraction] | None  # members removed from the target unit


def _kept(target: Target | None) -> int:
    """How many of the largest leftover dice can matter for the target unit."""
    if target is None:
        return 1
    if target.rules is Rules.PART2:
        # each member removed needs a die of its own; the largest ones serve best
        return max(1, len(target.unit))
    return MAX_EFFECT_DICE  # Part I: small dice add up on a complication


@lru_cache(maxsize=2048)
def _attack(attacker: tuple[int, ...], keep: int) -> dict[Key, int]:
    """The attacker's rolls by (total, ``keep`` largest leftovers, leftover count): counted
    once for the largest unit (or every leftover kept), then cut down (cached per pool)."""
    base = MAX_FIRETEAM if keep <= MAX_FIRETEAM else MAX_EFFECT_DICE
    if keep == base:
        return outcome_weights(attacker, keep, MAX_EFFECT_DICE)
    out: dict[Key, int] = {}
    for (total, kept, left), w in _attack(attacker, base).items():
        key = (total, kept[:keep], left)
        out[key] = out.get(key, 0) + w
    return out


@lru_cache(maxsize=512)
def pool_totals(pool: tuple[int, ...]) -> dict[int, int]:
    """How many of the pool's equally likely rolls give each total (the best two dice
    that are not hitches; Cortex Prime), cached: the defender's side of every contest and
    each side of an initiative roll-off (Part II, Initiative)."""
    return {t: w for t, w in enumerate(_by_leftovers(pool, 0)[()]) if w}


def effect_weights(attacker: Sequence[int], defender: Sequence[int], keep: int,
                   plot_point: bool = False, limit: EffectLimit = EffectLimit.MARGIN
                   ) -> tuple[dict[tuple[tuple[int, ...], int], int], int]:
    """Exact counts of the attacker's winning rolls by (effect dice, dice used), and the
    number of equally likely rolls of both pools (the denominator).

    The effect dice are the ``keep`` largest of those the win earns (``limit``: one per 3
    points of margin, or every die left over), the dice used how many it earns in all
    (a d4 when none is left). Losing rolls are not listed.
    """
    att = _attack(tuple(attacker), keep)
    dfn = pool_totals(tuple(defender))
    # Everything but the margin depends on the defender only through how many effect
    # dice the margin asks for, so group the defender's totals that way per attacker total.
    wanted: dict[int, dict[int, int]] = {}
    for total in {key[0] for key in att}:
        by_count: dict[int, int] = {}
        for d_total, d_weight in dfn.items():
            count = effect_count(total - d_total, plot_point, limit)
            if count:
                by_count[count] = by_count.get(count, 0) + d_weight
        wanted[total] = by_count
    out: dict[tuple[tuple[int, ...], int], int] = {}
    for (total, kept, left), weight in att.items():
        for count, d_weight in wanted[total].items():
            key = (kept[:count], min(left, count)) if kept else ((4,), 1)
            out[key] = out.get(key, 0) + weight * d_weight
    return out, ways(attacker) * ways(defender)


# ---- the engagement's contests: tables per pool, a few sums per pair of pools ----------

#: the largest total a roll can make (two d12s): counts by total are lists over 0..TOP
TOP = 2 * max(SIZES)

#: per length of effect dice, the (dice, rolls whose leftovers start with them, rolls
#: whose leftovers are exactly them or None when none are) with each count by total
Prefixes = tuple[tuple[tuple[tuple[int, ...], list[int], list[int] | None], ...], ...]


def _ranks(n: int, t2: int, s2: int) -> tuple[int, int]:
    """Faces of a d``n`` that rank above the second die of the total (``t2`` on a
    d``s2``: the higher face first, then the smaller die), and faces that rank below it
    without being a hitch; a d``s2`` showing ``t2`` ties it."""
    above = max(0, n - t2) + (1 if t2 <= n < s2 else 0)
    below = max(0, min(n, t2 - 1) - 1) + (1 if s2 < n and t2 <= n else 0)
    return above, below


@lru_cache(maxsize=4096)
def _leftovers(m: int, below: int, ties: int) -> dict[int, int]:
    """Ways for ``m`` dice of one size, none above the second die of the total, by how
    many of them are left over: each shows one of the ``below`` faces under it, a hitch,
    or (``ties`` > 0: the total needs that many of them) the face that ties it, the ties
    past those needed being left over too."""
    out: dict[int, int] = {}
    for e in range(ties, m + 1) if ties else (0,):
        for r in range(m - e + 1):
            w = comb(m, e) * comb(m - e, r) * below ** r
            if w:
                out[r + e - ties] = out.get(r + e - ties, 0) + w
    return out


@lru_cache(maxsize=1024)
def _by_leftovers(pool: tuple[int, ...], base: int) -> dict[tuple[int, ...], list[int]]:
    """The pool's rolls by their ``base`` largest leftover dice (sizes, largest first),
    each counted by total (``base`` 0: the totals alone).

    The rule :func:`contest.outcome_weights` counts, conditioned the same way on the
    second die of the total (face ``t2`` on a d``s2``): one other die ranks above it, or
    none and two or more tie it; every other die ranks below it or is a hitch. Dice of
    one size are alike, so each size adds its leftovers by binomial counts
    (:func:`_leftovers`) and the sizes combine largest first.
    """
    groups = [(n, pool.count(n)) for n in sorted(set(pool), reverse=True)]
    out: dict[tuple[int, ...], list[int]] = {}

    def add(kept: tuple[int, ...], total: int, w: int) -> None:
        out.setdefault(kept, [0] * (TOP + 1))[total] += w

    add((), 0, 1)  # every die a hitch
    for n, m in groups:  # one die above 1, the others hitches
        for face in range(2, n + 1):
            add((), face, m)
    for s2, _ in groups:
        for t2 in range(2, s2 + 1):
            ranks = {n: _ranks(n, t2, s2) for n, _ in groups}
            # the die above the second: on a d``top``, or none (``top`` 0)
            for top in [0] + [n for n, _ in groups if ranks[n][0]]:
                states: dict[tuple[int, ...], int] = {(): 1}
                for n, m in groups:
                    host = n == top  # any one of these m dice is the die above
                    ties = (1 if top else 2) if n == s2 else 0
                    left = _leftovers(m - host, ranks[n][1], ties)
                    if not left:
                        break  # too few dice of size s2 to tie it
                    new: dict[tuple[int, ...], int] = {}
                    for kept, w in states.items():
                        for count, k in left.items():
                            key = (kept + (n,) * count)[:base]
                            new[key] = new.get(key, 0) + w * k * (m if host else 1)
                    states = new
                else:
                    faces = (list(range(t2 + 1, top + 1)) + ([t2] if top < s2 else [])
                             if top else [t2])
                    for kept, w in states.items():
                        by_total = out.setdefault(kept, [0] * (TOP + 1))
                        for face in faces:
                            by_total[t2 + face] += w
    return out


@lru_cache(maxsize=512)
def _prefix_table(attacker: tuple[int, ...], base: int) -> Prefixes:
    """The attacker's rolls by total, per first dice of its ``base`` largest leftovers:
    a win's effect dice are always such a prefix (or a d4 when no die is left: the rolls
    in entry 0), the margin only says how long. Built once per pool for every ``keep`` up
    to ``base``."""
    exact = _by_leftovers(attacker, base)
    starting: dict[tuple[int, ...], list[int]] = {}
    for kept, by_total in exact.items():
        for n in range(1, len(kept) + 1):
            sums = starting.get(kept[:n])
            starting[kept[:n]] = (by_total if sums is None
                                  else [a + b for a, b in zip(sums, by_total)])
    table: list[list[tuple[tuple[int, ...], list[int], list[int] | None]]] = [
        [] for _ in range(base + 1)]
    table[0].append(((), exact.get((), [0] * (TOP + 1)), None))
    for dice, by_total in starting.items():
        table[len(dice)].append((dice, by_total, exact.get(dice)))
    return tuple(tuple(row) for row in table)


@lru_cache(maxsize=8)
def _smallest_margins(plot_point: bool, limit: EffectLimit) -> tuple[int, ...]:
    """The smallest margin asking for c effect dice or more, for c from 0 to
    MAX_EFFECT_DICE + 1 (past the largest margin, TOP + 1, when none does)."""
    return tuple(next((m for m in range(1, TOP + 1) if effect_count(m, plot_point, limit) >= c),
                      TOP + 1) for c in range(MAX_EFFECT_DICE + 2))


@lru_cache(maxsize=2048)
def _beaten(defender: tuple[int, ...], plot_point: bool, limit: EffectLimit
            ) -> tuple[tuple[list[int], ...], tuple[list[int], ...]]:
    """The defender's rolls an attack total beats, by the effect dice the win asks for:
    ``at_least[c][t]`` the rolls a total of t beats asking for c dice or more (c up to
    MAX_EFFECT_DICE + 1), ``exactly[c][t]`` for exactly c. The dice asked for grow with
    the margin, so "c or more" is every defender total up to t less the smallest margin
    asking for c: one look-up in the defender's cumulative counts."""
    below, running = [], 0  # below[x]: defender rolls with a total of x or less
    totals = pool_totals(defender)
    for x in range(TOP + 1):
        running += totals.get(x, 0)
        below.append(running)
    at_least = [[below[t - low] if t >= low else 0 for t in range(TOP + 1)]
                for low in _smallest_margins(plot_point, limit)]
    exactly = [[a - b for a, b in zip(c_up, next_up)]
               for c_up, next_up in zip(at_least, at_least[1:])]
    return tuple(at_least), tuple(exactly)


def _dot(a: Sequence[int], b: Sequence[int]) -> int:
    return sum(map(mul, a, b))


def _base(keep: int) -> int:
    """The leftovers a table counts for ``keep``: a whole fireteam's, or every effect die."""
    return MAX_FIRETEAM if keep <= MAX_FIRETEAM else MAX_EFFECT_DICE


def effect_dice_weights(attacker: tuple[int, ...], defender: tuple[int, ...], keep: int,
                        plot_point: bool = False, limit: EffectLimit = EffectLimit.MARGIN
                        ) -> tuple[dict[tuple[int, ...], int], int]:
    """:func:`effect_weights` without the count of dice used: winning rolls by effect
    dice only, from tables cached per pool (the engagement calls it per state).

    Effect dice fewer than ``keep`` come from the wins asking for exactly that many
    (leftovers starting with them) and from those asking for more (leftovers exactly
    them); ``keep`` dice from every win asking for that many or more. Each is a sum over
    the attacker's totals of its rolls times the defender's rolls they beat so.
    """
    keep = min(keep, MAX_EFFECT_DICE)  # no win asks for more
    at_least, exactly = _beaten(defender, plot_point, limit)
    table = _prefix_table(attacker, _base(keep))
    out: dict[tuple[int, ...], int] = {}
    none_left = _dot(table[0][0][1], at_least[1])
    if none_left:
        out[(4,)] = none_left
    for n in range(1, keep + 1):
        for dice, starting, exact in table[n]:
            if n == keep:
                w = _dot(starting, at_least[n])
            else:
                w = _dot(starting, exactly[n]) + (_dot(exact, at_least[n + 1]) if exact else 0)
            if w:
                out[dice] = out.get(dice, 0) + w  # a d4 left over is the d4 of none left
    return out, ways(attacker) * ways(defender)


def effect_dice_pairs(attacker: tuple[int, ...], defender: tuple[int, ...], keep: int,
                      limit: EffectLimit = EffectLimit.MARGIN
                      ) -> tuple[dict[tuple[tuple[int, ...], tuple[int, ...]], int], int]:
    """Winning rolls by (effect dice without a plot point, effect dice with one), both
    the ``keep`` largest of those earned (source: Part I, Extra Effect Dice: a plot point
    buys one more die, if one is left over). Counted as :func:`effect_dice_weights` does:
    a win asking for fewer dice than are left gets the next one with the point."""
    keep = min(keep, MAX_EFFECT_DICE)
    at_least, exactly = _beaten(defender, False, limit)
    plus = effect_count(1, True, limit) - effect_count(1, False, limit)
    table = _prefix_table(attacker, _base(keep))
    out: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}

    def add(key: tuple[tuple[int, ...], tuple[int, ...]], w: int) -> None:
        if w:
            out[key] = out.get(key, 0) + w

    add(((4,), (4,)), _dot(table[0][0][1], at_least[1]))
    for n in range(1, keep + 1):
        for dice, starting, exact in table[n]:
            if n > 1:  # asking for n - 1 dice, with this one left over next
                add((dice[:-1], dice[:n - 1 + plus]), _dot(starting, exactly[n - 1]))
            every = starting if n == keep else exact  # all the dice kept are these
            if every:
                add((dice, dice), _dot(every, at_least[n]))
    return out, ways(attacker) * ways(defender)


def contest_odds(attacker: Sequence[int], defender: Sequence[int], plot_point: bool = False,
                 target: Target | None = None,
                 limit: EffectLimit = EffectLimit.MARGIN) -> ContestOdds:
    """Exact odds for ``attacker`` rolling against ``defender`` (die sizes); ``limit``
    says how many effect dice a win may use."""
    wins, denominator = effect_weights(attacker, defender, _kept(target), plot_point, limit)
    margin: dict[int, int] = {}
    for total, weight in pool_totals(tuple(attacker)).items():
        for d_total, d_weight in pool_totals(tuple(defender)).items():
            margin[total - d_total] = margin.get(total - d_total, 0) + weight * d_weight
    effect: dict[int, int] = {s: 0 for s in SIZES}
    extra: dict[int, int] = {}
    taken: dict[int, int] = {k: 0 for k in range(len(target.unit) + 1)} if target else {}
    for (dice, used), w in wins.items():
        effect[dice[0]] += w
        extra[used - 1] = extra.get(used - 1, 0) + w
        if target:
            taken[taken_out_count(dice, target.unit, target.injury, target.rules,
                                  target.carry_surplus)] += w
    wins_total = sum(effect.values())
    effect[0] = denominator - wins_total
    extra[0] = extra.get(0, 0) + denominator - wins_total
    if target:
        taken[0] += denominator - wins_total

    def dist(counts: dict[int, int]) -> dict[int, Fraction]:
        return {k: Fraction(v, denominator) for k, v in sorted(counts.items())}

    margins = dist(margin)
    return ContestOdds(
        p_win=sum((p for k, p in margins.items() if k > 0), Fraction(0)),
        margin=margins,
        effect_die=dist({k: v for k, v in effect.items() if v or k in (0, 4)}),
        extra_effect_dice=dist(extra),
        taken_out=dist(taken) if target else None,
    )


def at_least(attacker: list[int], defender: list[int], size: int) -> Fraction:
    """Chance to win the contest with an effect die of ``size`` or larger."""
    dist = contest_odds(attacker, defender).effect_die
    return sum((p for s, p in dist.items() if s >= size), Fraction(0))
