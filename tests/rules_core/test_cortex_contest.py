"""Cortex rolls and contests: the exact odds equal brute-force enumeration of faces."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core.cortex.contest import (
    EffectLimit,
    effect_dice,
    outcome_weights,
    resolve,
    roll_pool,
    ways,
)
from rules_core.cortex.effect import Rules, assign
from rules_core.cortex.odds import Target, contest_odds

SIZES = (4, 6, 8, 10, 12)


def rolls(sizes: list[int]):  # type: ignore[no-untyped-def]
    for faces in itertools.product(*[range(1, s + 1) for s in sizes]):
        yield resolve(list(zip(sizes, faces)))


def brute_contest(attacker: list[int], defender: list[int], plot: bool, target: Target | None):
    """Every attacker roll against every defender total (each side enumerated face by face)."""
    d_totals: dict[int, int] = {}
    for roll in rolls(defender):
        d_totals[roll.total] = d_totals.get(roll.total, 0) + 1
    n = ways(attacker) * ways(defender)
    win, effect, extra, taken, margin = Fraction(0), {}, {}, {}, {}
    for roll in rolls(attacker):
        for d_total, count in d_totals.items():
            p = Fraction(count, n)
            m = roll.total - d_total
            margin[m] = margin.get(m, 0) + p
            dice = effect_dice(roll.remaining, m, plot)
            win += p if dice else 0
            key = dice[0] if dice else 0
            effect[key] = effect.get(key, 0) + p
            extra[max(len(dice) - 1, 0)] = extra.get(max(len(dice) - 1, 0), 0) + p
            if target:
                out = len(assign(dice, target.unit, target.injury, target.rules,
                                 target.carry_surplus).taken_out) if dice else 0
                taken[out] = taken.get(out, 0) + p
    return win, margin, effect, extra, taken


def nonzero(dist: dict) -> dict:  # type: ignore[type-arg]
    return {k: v for k, v in dist.items() if v}


def check(attacker: list[int], defender: list[int], plot: bool, target: Target | None) -> None:
    odds = contest_odds(attacker, defender, plot, target)
    win, margin, effect, extra, taken = brute_contest(attacker, defender, plot, target)
    assert odds.p_win == win
    assert nonzero(odds.margin) == nonzero(margin)
    assert nonzero(odds.effect_die) == nonzero(effect)
    assert nonzero(odds.extra_effect_dice) == nonzero(extra)
    if target:
        assert odds.taken_out is not None and nonzero(odds.taken_out) == nonzero(taken)
    for dist in (odds.margin, odds.effect_die, odds.extra_effect_dice):
        assert sum(dist.values()) == 1


def test_resolve_hitches_total_and_effect_die() -> None:
    roll = resolve([(8, 5), (6, 1), (12, 5), (6, 5), (10, 3)])
    assert roll.hitches == (1,)
    assert roll.total == 10
    # three dice show 5: the two smallest (d6, d8) go into the total, the d12 stays free
    assert sorted(roll.dice[i][0] for i in roll.total_dice) == [6, 8]
    assert roll.remaining == (12, 10) and roll.effect_die == 12


def test_all_hitches_and_lone_die() -> None:
    assert resolve([(8, 1), (6, 1)]).total == 0
    lone = resolve([(8, 1), (6, 4)])
    assert lone.total == 4 and lone.remaining == () and lone.effect_die == 4


def test_effect_dice_from_margin_and_plot_point() -> None:
    assert effect_dice((10, 8, 6, 4), 0) == ()
    assert effect_dice((10, 8, 6, 4), 2) == (10,)
    assert effect_dice((10, 8, 6, 4), 3) == (10, 8)
    assert effect_dice((10, 8, 6, 4), 6, plot_point=True) == (10, 8, 6, 4)
    assert effect_dice((10,), 9, plot_point=True) == (10,)  # only the dice that are left
    assert effect_dice((), 9, plot_point=True) == (4,)  # none left: one d4, no extras


@pytest.mark.parametrize("sizes", [[6], [8, 6], [4, 4], [12, 10, 8], [6, 6, 6], [8, 8, 6, 4],
                                   [12, 4, 4, 6], [4, 6, 8, 10, 12]])
@pytest.mark.parametrize("keep", [0, 1, 3])
def test_outcome_weights_equal_enumeration(sizes: list[int], keep: int) -> None:
    brute: dict = {}
    for roll in rolls(sizes):
        key = (roll.total, roll.remaining[:keep], min(len(roll.remaining), 10))
        brute[key] = brute.get(key, 0) + 1
    assert nonzero(outcome_weights(sizes, keep, 10)) == brute


@pytest.mark.parametrize("attacker, defender", [
    ([8, 6, 6], [8, 8]), ([12, 10, 6, 4], [6, 6, 4]), ([6, 6, 6, 6], [4, 4]),
    ([10, 4, 4], [8, 6, 6, 6]), ([4], [4]), ([12, 12], [12]),
])
@pytest.mark.parametrize("target", [
    None, Target((8, 8, 8)), Target((4, 6, 8, 6), 6, Rules.PART1, True),
    Target((4, 4, 6), None, Rules.PART2, True), Target((6, 8), 4, Rules.PART2, False),
])
def test_contest_odds_equal_brute_force(attacker: list[int], defender: list[int],
                                        target: Target | None) -> None:
    check(attacker, defender, plot=False, target=target)


def test_contest_odds_with_plot_point_equal_brute_force() -> None:
    check([10, 8, 6, 6], [8, 6, 4, 4], plot=True, target=Target((6, 6, 8, 8), None, Rules.PART1))


pools = st.lists(st.sampled_from(SIZES), min_size=1, max_size=4)
targets = st.one_of(st.none(), st.builds(
    Target, st.lists(st.sampled_from(SIZES), min_size=1, max_size=4).map(tuple),
    st.one_of(st.none(), st.sampled_from(SIZES)), st.sampled_from(list(Rules)), st.booleans()))


@settings(max_examples=20, deadline=None)
@given(pools, st.lists(st.sampled_from(SIZES), min_size=1, max_size=3), st.booleans(), targets)
def test_property_odds_equal_brute_force(attacker, defender, plot, target) -> None:  # type: ignore[no-untyped-def]
    check(attacker, defender, plot, target)


def test_twelve_against_twelve_is_exact_and_sums_to_one() -> None:
    pool = [4, 6, 8, 10, 12] * 2 + [8, 6]
    odds = contest_odds(pool, pool, True, Target((4, 6, 8, 10, 12, 12), 4, Rules.PART1, True))
    assert sum(odds.margin.values()) == 1 and odds.taken_out is not None
    assert sum(odds.taken_out.values()) == 1
    # the contest is symmetric except for ties, which go to the defender
    assert odds.p_win == (1 - odds.margin[0]) / 2


def test_more_attacking_dice_never_lower_the_win_chance() -> None:
    base = contest_odds([8, 6], [8, 8]).p_win
    assert contest_odds([8, 6, 4], [8, 8]).p_win >= base
    assert contest_odds([8, 6, 12], [8, 8]).p_win >= base


def test_roller_feeds_the_same_resolution() -> None:
    rng = random.Random(7)
    roll = roll_pool([8, 6, 6, 4], rng)
    assert roll == resolve(list(roll.dice))


@pytest.mark.parametrize("attacker, defender, unit", [
    ([10, 8, 6, 6], [8, 6], (6, 6, 6)),
    ([8, 6, 4, 4, 4], [6, 6, 4], (4, 6, 8)),
])
def test_every_leftover_die_reading_matches_enumeration(attacker, defender, unit) -> None:
    """Part II's reading: every die left over is an effect die (the plot point adds none)."""
    target = Target(unit)
    odds = contest_odds(attacker, defender, True, target, EffectLimit.EVERY)
    d_totals: dict[int, int] = {}
    for roll in rolls(defender):
        d_totals[roll.total] = d_totals.get(roll.total, 0) + 1
    n = ways(attacker) * ways(defender)
    taken: dict[int, Fraction] = {}
    extra: dict[int, Fraction] = {}
    for roll in rolls(attacker):
        for d_total, count in d_totals.items():
            dice = effect_dice(roll.remaining, roll.total - d_total, True, EffectLimit.EVERY)
            assert not dice or dice == (roll.remaining or (4,))
            out = len(assign(dice, unit).taken_out) if dice else 0
            taken[out] = taken.get(out, 0) + Fraction(count, n)
            extra[max(len(dice) - 1, 0)] = extra.get(max(len(dice) - 1, 0), 0) + Fraction(count, n)
    assert nonzero(odds.taken_out) == nonzero(taken)
    assert nonzero(odds.extra_effect_dice) == nonzero(extra)
