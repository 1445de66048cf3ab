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

from rules_core.cortex.contest import (
    MAX_EFFECT_DICE,
    effect_dice,
    outcome_weights,
    total_weights,
    ways,
)
from rules_core.cortex.dice import SIZES
from rules_core.cortex.effect import Rules, taken_out_count


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


def contest_odds(attacker: Sequence[int], defender: Sequence[int], plot_point: bool = False,
                 target: Target | None = None) -> ContestOdds:
    """Exact odds for ``attacker`` rolling against ``defender`` (die sizes)."""
    att = outcome_weights(attacker, _kept(target), MAX_EFFECT_DICE)
    dfn = total_weights(defender)
    bonus = 1 if plot_point else 0
    # Everything but the margin depends on the defender only through how many effect
    # dice the margin asks for, so group the defender's totals that way per attacker total.
    wanted: dict[int, dict[int, int]] = {}
    for total in {key[0] for key in att}:
        by_count: dict[int, int] = {}
        for d_total, d_weight in dfn.items():
            if total > d_total:
                count = 1 + (total - d_total) // 3 + bonus
                by_count[count] = by_count.get(count, 0) + d_weight
        wanted[total] = by_count
    margin: dict[int, int] = {}
    totals: dict[int, int] = {}
    for (total, _, _), weight in att.items():
        totals[total] = totals.get(total, 0) + weight
    for total, weight in totals.items():
        for d_total, d_weight in dfn.items():
            margin[total - d_total] = margin.get(total - d_total, 0) + weight * d_weight
    effect: dict[int, int] = {s: 0 for s in SIZES}
    extra: dict[int, int] = {}
    taken: dict[int, int] = {k: 0 for k in range(len(target.unit) + 1)} if target else {}
    removed: dict[tuple[int, ...], int] = {}
    for (total, kept, left), weight in att.items():
        for count, d_weight in wanted[total].items():
            w = weight * d_weight
            dice = effect_dice(kept, 1 + 3 * (count - 1 - bonus), plot_point)
            used = min(left, count) if left else 1  # ``kept`` may be cut short
            effect[dice[0]] += w
            extra[used - 1] = extra.get(used - 1, 0) + w
            if target:
                if dice not in removed:
                    removed[dice] = taken_out_count(dice, target.unit, target.injury,
                                                    target.rules, target.carry_surplus)
                taken[removed[dice]] += w
    denominator = ways(attacker) * ways(defender)
    wins = sum(effect.values())
    effect[0] = denominator - wins
    extra[0] = extra.get(0, 0) + denominator - wins
    if target:
        taken[0] += denominator - wins

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
