"""The attack Quick Contest and its hits (source: Heroic Combat, Melee Attacks, Speed
Factor, Non-Identical Targets, and Ranged Attacks step 3).

Each side rolls 3d6 against its effective skill; its margin is skill minus roll. The
better margin wins, whether both sides succeeded or both failed; equal margins mean
nobody wins; critical successes and failures do not change a margin. A winning attacker
scores one hit plus one per full Speed Factor (SF) in the margin of victory, capped (for
ranged attacks) by the projectiles sent at the target, then multiplied by the hit
multiplier for numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import icepool

from rules_core.dice.distribution import from_icepool

DICE_MIN, DICE_MAX = 3, 18


@dataclass(frozen=True)
class Contest:
    """One resolved Quick Contest."""

    attacker_margin: int
    defender_margin: int
    margin_of_victory: int  # attacker's margin minus defender's (negative: defender ahead)
    attacker_wins: bool
    hits: int


def base_hits(margin_of_victory: int, speed_factor: int) -> int:
    """Hits for a won contest: 1 + one per full SF in the margin of victory (0 if not won)."""
    if margin_of_victory <= 0:
        return 0
    return 1 + margin_of_victory // speed_factor


def hits_for_margin(margin_of_victory: int, speed_factor: int, cap: int | None = None,
                    multiplier: int = 1) -> int:
    """Hits delivered: :func:`base_hits`, capped by ``cap`` projectiles, times ``multiplier``."""
    hits = base_hits(margin_of_victory, speed_factor)
    if cap is not None:
        hits = min(hits, cap)
    return hits * multiplier


def resolve(attacker_skill: int, defender_skill: int, attacker_roll: int, defender_roll: int,
            speed_factor: int, cap: int | None = None, multiplier: int = 1) -> Contest:
    """Resolve one contest from the two 3d6 totals (the function the odds enumerate)."""
    a_margin = attacker_skill - attacker_roll
    d_margin = defender_skill - defender_roll
    mov = a_margin - d_margin
    return Contest(a_margin, d_margin, mov, mov > 0,
                   hits_for_margin(mov, speed_factor, cap, multiplier))


@cache
def _three_d6() -> icepool.Die:
    return 3 @ icepool.d6


def roll_die(fixed: int | None) -> icepool.Die:
    """3d6, or a single known total when the roll has been made."""
    return _three_d6() if fixed is None else icepool.Die([fixed])


def hit_distribution(attacker_skill: int, defender_skill: int, speed_factor: int,
                     cap: int | None = None, multiplier: int = 1,
                     attacker_roll: int | None = None,
                     defender_roll: int | None = None) -> dict[int, Fraction]:
    """Exact distribution of hits, every 3d6 x 3d6 outcome run through :func:`resolve`.

    Outcomes run from 0 to the most hits possible, every count listed (zeros included)
    so that charts show the gaps between multiples of the hit multiplier.
    """
    a_die, d_die = roll_die(attacker_roll), roll_die(defender_roll)
    hits = icepool.map(
        lambda a, d: resolve(attacker_skill, defender_skill, a, d, speed_factor, cap,
                             multiplier).hits,
        a_die, d_die,
    )
    dist = from_icepool(hits)
    top = max(dist)
    step = multiplier if multiplier > 0 else 1
    return {h: dist.get(h, Fraction(0)) for h in range(0, top + 1, step)}


def p_win(dist: dict[int, Fraction]) -> Fraction:
    """Chance the attacker wins: every outcome with at least one hit."""
    return sum((p for h, p in dist.items() if h > 0), Fraction(0))


def dodge_as_skill(dodge: int, bonus: int = 0) -> int:
    """(Dodge + defence bonuses - 3) x 2: Dodge turned into a contest skill (bonuses first)."""
    return (dodge + bonus - 3) * 2


def next_target_penalty(speed_factor: int, hits_assigned: int) -> int:
    """Penalty to the new contest for a non-identical target: -SF per hit already assigned."""
    return -speed_factor * hits_assigned


@cache
def roll_difference() -> tuple[tuple[int, int], ...]:
    """Ways (out of 46,656) for the defender's 3d6 minus the attacker's 3d6 to come out
    at each value: a contest's margin of victory is the skill difference plus this."""
    die = _three_d6() - _three_d6()
    return tuple((int(k), int(w)) for k, w in die.items())


@cache
def hit_counts(skill_difference: int, speed_factor: int, cap: int | None = None,
               multiplier: int = 1) -> tuple[tuple[int, int], ...]:
    """Ways (out of 46,656) to score each number of hits when the attacker's effective
    skill is ``skill_difference`` above the defender's: the same rule as :func:`resolve`
    (margin of victory = attacker's margin - defender's), taken over the roll difference.
    Equal to :func:`hit_distribution` (the tests check it) and much faster to repeat."""
    out: dict[int, int] = {}
    for diff, ways in roll_difference():
        hits = hits_for_margin(skill_difference + diff, speed_factor, cap, multiplier)
        out[hits] = out.get(hits, 0) + ways
    return tuple(sorted(out.items()))
