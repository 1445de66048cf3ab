"""d10 ranged combat tables (source: d10 ranged combat, "Size", "Range", "Movement",
"Stance" and "Determining Difficulty"). The site renders its tables from these values.
"""

from __future__ import annotations

from enum import Enum


class Size(str, Enum):
    """Target size categories (source: Size)."""

    TINY = "tiny"
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"
    HUGE = "huge"


class RangeBand(str, Enum):
    """Range bands as fractions of a weapon's effective range (source: Range)."""

    CLOSE = "close"
    MEDIUM = "medium"
    FAR = "far"
    MAXIMUM = "maximum"


class Movement(str, Enum):
    """How fast the target or the shooter moves (source: Movement)."""

    STILL = "still"
    SUBTLE = "subtle"
    SLOW = "slow"
    FAST = "fast"


class Stance(str, Enum):
    """Firing stances (source: Stance)."""

    STANDING = "standing"
    KNEELING = "kneeling"
    PRONE_FIRING = "prone_firing"
    PRONE = "prone"


#: Base difficulty of every ranged attack (source: Determining Difficulty).
BASE_DIFFICULTY = 5

#: Difficulty change by target size and range band (source: Range, the size x range table).
SIZE_RANGE: dict[Size, dict[RangeBand, int]] = {
    Size.TINY: {RangeBand.CLOSE: 3, RangeBand.MEDIUM: 6, RangeBand.FAR: 12, RangeBand.MAXIMUM: 18},
    Size.SMALL: {RangeBand.CLOSE: 2, RangeBand.MEDIUM: 4, RangeBand.FAR: 8, RangeBand.MAXIMUM: 12},
    Size.MEDIUM: {RangeBand.CLOSE: 1, RangeBand.MEDIUM: 2, RangeBand.FAR: 4, RangeBand.MAXIMUM: 6},
    Size.LARGE: {RangeBand.CLOSE: -12, RangeBand.MEDIUM: -8, RangeBand.FAR: -4, RangeBand.MAXIMUM: -2},
    Size.HUGE: {RangeBand.CLOSE: -18, RangeBand.MEDIUM: -12, RangeBand.FAR: -6, RangeBand.MAXIMUM: -3},
}

#: Difficulty change for a moving target, and again for a moving shooter (source: Movement).
MOVEMENT: dict[Movement, int] = {
    Movement.STILL: -2,
    Movement.SUBTLE: 0,
    Movement.SLOW: 2,
    Movement.FAST: 4,
}

#: Difficulty change by the shooter's firing stance (source: Stance).
STANCE: dict[Stance, int] = {
    Stance.STANDING: -1,
    Stance.KNEELING: -2,
    Stance.PRONE_FIRING: -3,
    Stance.PRONE: 2,
}

#: The size a human target counts as in each stance (source: Size and Stance).
STANCE_SIZE: dict[Stance, Size] = {
    Stance.STANDING: Size.MEDIUM,
    Stance.KNEELING: Size.SMALL,
    Stance.PRONE_FIRING: Size.TINY,
    Stance.PRONE: Size.TINY,
}

#: Difficulty change per action spent taking careful aim (source: Taking Aim).
AIM_PER_ACTION = -2

#: Each band starts at this fraction of the effective range (source: Range).
BAND_START: dict[RangeBand, tuple[int, int]] = {
    RangeBand.CLOSE: (0, 1),
    RangeBand.MEDIUM: (1, 8),
    RangeBand.FAR: (1, 4),
    RangeBand.MAXIMUM: (1, 2),
}

LABELS: dict[Enum, str] = {
    **{s: s.value.capitalize() for s in Size},
    **{b: b.value.capitalize() for b in RangeBand},
    **{m: m.value.capitalize() for m in Movement},
    Stance.STANDING: "Standing",
    Stance.KNEELING: "Kneeling",
    Stance.PRONE_FIRING: "Prone firing",
    Stance.PRONE: "Prone (knocked down)",
}
