"""The difficulty of a ranged attack (source: d10 ranged combat, "Determining Difficulty").

DC = 5 + size x range + target movement + shooter movement + stance
     - 2 per aiming action + environment + miscellaneous.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rules_core.gunplay.tables import (
    AIM_PER_ACTION,
    BAND_START,
    BASE_DIFFICULTY,
    LABELS,
    MOVEMENT,
    SIZE_RANGE,
    STANCE,
    Movement,
    RangeBand,
    Size,
    Stance,
)
from rules_core.messages import count

PAGE = "gunplay/difficulty"


def range_band(effective_range_m: float, distance_m: float) -> RangeBand | None:
    """The band a distance falls in, or ``None`` beyond the effective range.

    Ruling (see Rulings and errata): a distance exactly on a boundary belongs to the
    farther band, as the source's "close is below an eighth" implies for the first
    boundary; the effective range itself is still maximum range.
    """
    if distance_m > effective_range_m:
        return None
    ratio = Fraction(distance_m) / Fraction(effective_range_m)
    band = RangeBand.CLOSE
    for candidate, (num, den) in BAND_START.items():
        if ratio >= Fraction(num, den):
            band = candidate
    return band


def band_limits(effective_range_m: float) -> dict[RangeBand, tuple[float, float]]:
    """Each band's [start, end) in metres for a weapon (the maximum band ends inclusive)."""
    starts = [Fraction(n, d) * Fraction(effective_range_m) for n, d in BAND_START.values()]
    ends = starts[1:] + [Fraction(effective_range_m)]
    return {band: (float(s), float(e)) for band, s, e in zip(BAND_START, starts, ends)}


@dataclass(frozen=True)
class Term:
    """One term of the difficulty sum."""

    label: str
    value: int
    anchor: str  # heading on the rules page that states it


def difficulty_terms(
    size: Size,
    band: RangeBand,
    target_movement: Movement,
    shooter_movement: Movement,
    stance: Stance,
    aim_actions: int = 0,
    environment: int = 0,
    misc: int = 0,
    *,
    size_label: str | None = None,
) -> list[Term]:
    """Every term of the difficulty, in the source's order.

    ``size_label`` replaces "Small target" in the size term's label, e.g. when the size
    was derived from a person's stance.
    """
    target = size_label or f"{LABELS[size]} target"
    return [
        Term("Base difficulty", BASE_DIFFICULTY, "determining-the-difficulty"),
        Term(f"{target} at {LABELS[band].lower()} range",
             SIZE_RANGE[size][band], "size-and-range"),
        Term(f"Target movement: {LABELS[target_movement].lower()}",
             MOVEMENT[target_movement], "movement"),
        Term(f"Shooter movement: {LABELS[shooter_movement].lower()}",
             MOVEMENT[shooter_movement], "movement"),
        Term(f"Shooter stance: {LABELS[stance].lower()}", STANCE[stance], "stance"),
        Term(f"Careful aim: {count(aim_actions, 'action')}",
             AIM_PER_ACTION * aim_actions, "taking-aim"),
        Term("Environment", environment, "environment"),
        Term("Other modifiers", misc, "determining-the-difficulty"),
    ]


def difficulty(*args: object, **kwargs: object) -> int:
    """The difficulty (DC) to meet or beat with 1d10 + modifiers."""
    terms: list[Term] = difficulty_terms(*args, **kwargs)  # type: ignore[arg-type]
    return sum(term.value for term in terms)
