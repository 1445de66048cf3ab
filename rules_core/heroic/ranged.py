"""Ranged attacks (source: Heroic Combat, Ranged Attacks, steps 1-3, and the range bands).

Shots per round depend on the weapon's reload class, the tactic and a Fast-Draw success;
the attacker's effective skill gathers the tactic's ranged modifier, +2 per extra shot at
the same target, the group-size bonus, the range band and the -4 for a target locked in
melee. The Quick Contest and hits are those of :mod:`rules_core.heroic.contest`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rules_core.heroic.tables import (
    EXTRA_SHOT_BONUS,
    FAST_DRAW_EXTRA_SHOT,
    GROUP_BONUS,
    INTO_MELEE_PENALTY,
    RANGE_BANDS,
    SHOTS_FAST_RELOAD,
    SHOTS_FAST_RELOAD_AIMED,
    SHOTS_SLOW_RELOAD,
    STRAY_ROLL_MAX,
    Tactic,
)


def shots_allowed(tactic: Tactic, fast_reload: bool, fast_draw: bool) -> int:
    """Most shots this round: 3 (2 when aiming), +1 with Fast-Draw, for weapons that reload
    in 2 seconds or less; 1 for slower weapons; none under a tactic without attacks."""
    if tactic.ranged is None:
        return 0
    if not fast_reload:
        return SHOTS_SLOW_RELOAD
    base = SHOTS_FAST_RELOAD_AIMED if tactic.ranged_adds_acc else SHOTS_FAST_RELOAD
    return base + (FAST_DRAW_EXTRA_SHOT if fast_draw else 0)


def group_bonus(group_size: int) -> int:
    """+1 for 5-8 identical foes, +2 for 9-12, +3 for 13-16, +4 for 17 or more."""
    bonus = 0
    for smallest, value in GROUP_BONUS:
        if group_size >= smallest:
            bonus = value
    return bonus


def range_band(distance_yd: float) -> tuple[str, str, int | None]:
    """(key, name, penalty) for a distance; penalty ``None`` means the weapon's Bulk.

    A band runs up to and including its last yard; anything past it, fractions included,
    is in the next band (ruling: 20.5 yards is medium range).
    """
    for key, name, last, penalty in RANGE_BANDS:
        if last is None or Fraction(distance_yd) <= last:
            return key, name, penalty
    raise AssertionError("unreachable: the last band is open")


@dataclass(frozen=True)
class Term:
    """One modifier to the shooter's effective skill."""

    label: str
    value: int
    anchor: str  # heading of the ranged page (or tactics page) that states it


def skill_terms(skill: int, tactic: Tactic, *, moved_far: bool, bulk: int, acc: int,
                shots_at_target: int, group_size: int, distance_yd: float,
                into_melee: bool, other: int) -> list[Term]:
    """Every term of the shooter's effective skill, in the order the rules give them."""
    assert tactic.ranged is not None
    terms = [Term("Ranged weapon skill", skill, "resolving-the-shot")]
    bonus_group = group_bonus(group_size)
    if tactic.ranged_adds_acc:
        if bonus_group:
            terms.append(Term(f"{tactic.name}: no aiming bonus when firing into a group", 0,
                              "firing-at-a-group"))
        else:
            terms.append(Term(f"{tactic.name}: +2 + Acc {acc}", tactic.ranged + acc,
                              "ranged-modifiers-of-the-tactics"))
    else:
        terms.append(Term(f"Tactic: {tactic.name}", tactic.ranged,
                          "ranged-modifiers-of-the-tactics"))
    if tactic.ranged_moving and moved_far:
        terms.append(Term(f"Moved more than Move x 2 (worse of -2 and Bulk {bulk})",
                          min(-2, bulk), "ranged-modifiers-of-the-tactics"))
    if shots_at_target > 1:
        terms.append(Term(f"{shots_at_target} shots at one target",
                          EXTRA_SHOT_BONUS * (shots_at_target - 1), "several-shots-at-one-target"))
    if bonus_group:
        terms.append(Term(f"Group of {group_size} identical foes", bonus_group,
                          "firing-at-a-group"))
    key, name, penalty = range_band(distance_yd)
    if penalty is None:
        terms.append(Term(f"{name}: the weapon's Bulk", min(0, bulk), "range-bands"))
    else:
        terms.append(Term(f"{name} range", penalty, "range-bands"))
    if into_melee:
        terms.append(Term("Target locked in melee", INTO_MELEE_PENALTY, "firing-into-a-melee"))
    if other:
        terms.append(Term("Other modifiers", other, "resolving-the-shot"))
    return terms


#: Chance that a miss into a melee goes astray: 3d6 of 9 or less.
P_STRAY_ROLL = Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) for c in range(1, 7)
                            if a + b + c <= STRAY_ROLL_MAX), 216)
