"""Exact odds of one attack: attacker's pool against the defender's pool.

Source: Cortex Prime contest (defender wins ties), Part I "Extra Effect Dice" and
"Inflicting Harm - NPCs", Part II "Attack and Defense". The attacker's roll is counted by
:func:`rules_core.cortex.contest.outcome_weights` (the same rule as
:func:`~rules_core.cortex.contest.resolve`), the defender's by its totals; the margin
then fixes how many effect dice the attacker gets (:func:`contest.effect_dice`) and
:func:`rules_core.cortex.effect.taken_out_count` says how many members they remove.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from rules_core.cortex.contest import (
    MAX_EFFECT_DICE,
    EffectLimit,
    Key,
    effect_count,
    outcome_weights,
    total_weights,
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
    return total_weights(pool)


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


@lru_cache(maxsize=65536)
def _prefixes(attacker: tuple[int, ...], keep: int, total: int, count: int
              ) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The attacker's rolls with this ``total``, grouped by the effect dice a win asking
    for ``count`` dice gets (the ``keep`` largest of them; a d4 when none is left)."""
    out: dict[tuple[int, ...], int] = {}
    for kept, w in _by_total(attacker, keep)[total]:
        dice = kept[:count] if kept else (4,)
        out[dice] = out.get(dice, 0) + w
    return tuple(out.items())


@lru_cache(maxsize=512)
def _at_most(defender: tuple[int, ...]) -> list[int]:
    """Cumulative counts of the defender's totals: ``[x]`` = rolls totalling x or less."""
    dfn = pool_totals(defender)
    out, running = [], 0
    for x in range(max(dfn) + 1):
        running += dfn.get(x, 0)
        out.append(running)
    return out


@lru_cache(maxsize=2048)
def _by_total(attacker: tuple[int, ...], keep: int) -> dict[int, list[tuple[tuple[int, ...], int]]]:
    """The attacker's rolls grouped by total: (kept dice, count) pairs."""
    out: dict[int, dict[tuple[int, ...], int]] = {}
    for (total, kept, _), w in _attack(attacker, keep).items():
        group = out.setdefault(total, {})
        group[kept] = group.get(kept, 0) + w
    return {t: list(group.items()) for t, group in sorted(out.items())}


def _counts_against(below: list[int], total: int, plot_point: bool, limit: EffectLimit,
                    cap: int | None = None) -> dict[int, int]:
    """Defender rolls an attack total of ``total`` beats, by the effect dice the win earns
    (at most ``cap``). ``below[x]``: defender rolls with a total of x or less. Defender
    totals in one band of margins earn the same count (margins 1-2, 3-5, 6-8, ...; every
    win alike when every leftover die counts), so each band is one subtraction."""
    top = len(below) - 1
    by_count: dict[int, int] = {}
    margin = 1
    while margin <= total:
        last = 3 * (margin // 3) + 2 if limit is EffectLimit.MARGIN else total
        d_low, d_high = max(total - last, 0), total - margin
        weight = below[min(d_high, top)] - (below[min(d_low - 1, top)] if d_low else 0)
        if weight:
            count = effect_count(margin, plot_point, limit)
            count = count if cap is None else min(count, cap)
            by_count[count] = by_count.get(count, 0) + weight
        margin = last + 1
    return by_count


def effect_dice_weights(attacker: tuple[int, ...], defender: tuple[int, ...], keep: int,
                        plot_point: bool = False, limit: EffectLimit = EffectLimit.MARGIN
                        ) -> tuple[dict[tuple[int, ...], int], int]:
    """:func:`effect_weights` without the count of dice used: winning rolls by effect
    dice only, from tables cached per attack pool (the engagement calls it per state)."""
    below = _at_most(defender)  # below[x]: defender rolls with a total of x or less
    out: dict[tuple[int, ...], int] = {}
    for total in _by_total(attacker, keep):
        if total <= 0:
            continue
        for count, d_weight in _counts_against(below, total, plot_point, limit, keep).items():
            for dice, w in _prefixes(attacker, keep, total, count):
                out[dice] = out.get(dice, 0) + w * d_weight
    return out, ways(attacker) * ways(defender)


def effect_dice_pairs(attacker: tuple[int, ...], defender: tuple[int, ...], keep: int,
                      limit: EffectLimit = EffectLimit.MARGIN
                      ) -> tuple[dict[tuple[tuple[int, ...], tuple[int, ...]], int], int]:
    """Winning rolls by (effect dice without a plot point, effect dice with one), both
    the ``keep`` largest of those earned (source: Part I, Extra Effect Dice: a plot point
    buys one more die, if one is left over). Counted as :func:`effect_dice_weights` does."""
    below = _at_most(defender)
    out: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
    for total, rolls in _by_total(attacker, keep).items():
        if total <= 0:
            continue
        for count, d_weight in _counts_against(below, total, False, limit).items():
            plus = effect_count(1, True, limit) - effect_count(1, False, limit)
            for kept, w in rolls:
                key = ((kept[:min(count, keep)] or (4,)),
                       (kept[:min(count + plus, keep)] or (4,)))
                out[key] = out.get(key, 0) + w * d_weight
    return out, ways(attacker) * ways(defender)


def contest_odds(attacker: Sequence[int], defender: Sequence[int], plot_point: bool = False,
                 target: Target | None = None,
                 limit: EffectLimit = EffectLimit.MARGIN) -> ContestOdds:
    """Exact odds for ``attacker`` rolling against ``defender`` (die sizes); ``limit``
    says how many effect dice a win may use."""
    wins, denominator = effect_weights(attacker, defender, _kept(target), plot_point, limit)
    margin: dict[int, int] = {}
    for total, weight in _totals(tuple(attacker)).items():
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


@lru_cache(maxsize=512)
def _totals(attacker: tuple[int, ...]) -> dict[int, int]:
    out: dict[int, int] = {}
    for (total, _, _), w in _attack(attacker, 1).items():
        out[total] = out.get(total, 0) + w
    return out
