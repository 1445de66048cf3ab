"""Morale (source: Heroic Combat, Morale).

At the end of a round the GM checks a group's morale once a third of it is out of the
fight, and again each later round in which another member falls. A solitary creature
checks once it has lost a third of its HP, and again whenever it takes more injury. The
check is 3d6 plus modifiers; 13 or more and the side flees or surrenders.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import icepool

from rules_core.dice.distribution import from_icepool
from rules_core.heroic.tables import (
    MORALE_BREAK,
    MORALE_CORNERED,
    MORALE_FEARLESSNESS_PER_LEVEL,
    MORALE_HP_HALF,
    MORALE_HP_TWO_THIRDS,
    MORALE_LOST_HALF,
    MORALE_LOST_TWO_THIRDS,
    MORALE_OUTNUMBER,
    MORALE_OUTNUMBER_DOUBLE,
)


@dataclass(frozen=True)
class Modifier:
    """One modifier of the morale roll and why it applies."""

    reason: str
    value: int


def is_due(start: int, lost: int, lost_this_round: int) -> bool:
    """A check is due when at least a third is lost and something was lost this round.

    (The first time a third is reached, the round's losses are what reached it; after
    that, each round with a further loss calls for another check.)
    """
    return 3 * lost >= start and lost_this_round > 0


def _tiered(lost: int, start: int, half: int, two_thirds: int, what: str) -> list[Modifier]:
    """The larger of the 1/2 and 2/3 modifiers that applies (they do not add up)."""
    if 3 * lost >= 2 * start:
        return [Modifier(f"Two-thirds or more of its {what} lost", two_thirds)]
    if 2 * lost >= start:
        return [Modifier(f"Half or more of its {what} lost", half)]
    return []


def modifiers(*, solitary: bool, start: int, now: int, opponents: int, cornered: bool,
              fearlessness: int, cowardice: int) -> list[Modifier]:
    """Every modifier that applies, with its reason.

    ``start``/``now`` are members for a group and HP for a solitary creature.
    """
    lost = start - now
    mods: list[Modifier] = []
    if solitary:
        mods += _tiered(lost, start, MORALE_HP_HALF, MORALE_HP_TWO_THIRDS, "HP")
    else:
        if now >= 2 * opponents:
            mods.append(Modifier(f"Outnumbers its {opponents} opponent(s) 2:1 or more "
                                 f"({now} standing)", MORALE_OUTNUMBER_DOUBLE))
        elif now > opponents:
            mods.append(Modifier(f"Outnumbers its {opponents} opponent(s) ({now} standing)",
                                 MORALE_OUTNUMBER))
        mods += _tiered(lost, start, MORALE_LOST_HALF, MORALE_LOST_TWO_THIRDS, "members")
    if cornered:
        mods.append(Modifier("Cannot retreat, and the enemy takes no surrender", MORALE_CORNERED))
    if fearlessness:
        mods.append(Modifier(f"Fearlessness {fearlessness}",
                             MORALE_FEARLESSNESS_PER_LEVEL * fearlessness))
    if cowardice:
        mods.append(Modifier(f"Cowardice (Fright Check penalty {cowardice})", cowardice))
    return mods


def breaks(dice_total: int, modifier: int) -> bool:
    """The verdict for one roll: the side breaks on a modified total of 13 or more."""
    return dice_total + modifier >= MORALE_BREAK


def p_break(modifier: int) -> Fraction:
    """Exact chance to break: 3d6 run through :func:`breaks`."""
    dist = from_icepool((3 @ icepool.d6).map(lambda total: breaks(total, modifier)))
    return dist.get(True, Fraction(0))


def total_distribution(modifier: int) -> dict[int, Fraction]:
    """Distribution of the modified total, 3d6 + modifier."""
    return from_icepool((3 @ icepool.d6) + modifier)
