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
#: aim actions a combat round may hold, as the engagement's form takes them
MAX_AIM = 5

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


# --- weapon handling (source: "Reloading", "Drawing", "Hiding", "Malfunctions") ------

#: Actions a reload takes unless the weapon's own description says otherwise (source: Reloading).
RELOAD_ACTIONS = 1

#: Actions to draw a pistol or knife (source: Drawing): from a holster (open or concealed)
#: or a slot on body armour, versus from anywhere else (boot, pocket, pack, slung).
DRAW_ACTIONS: dict[str, int] = {"holster": 1, "elsewhere": 2}

#: A hands-on search lowers the searcher's difficulty by this much (source: Hiding);
#: judging from a distance whether someone is armed gets no such help.
SEARCH_EASIER_BY = 5

#: The three malfunctions the rules name (source: Malfunctions).
#: ``clear_actions`` and ``stops_burst`` are None where the rules say nothing (see the
#: ruling "Squib loads" on the Rulings and errata page).
MALFUNCTIONS: tuple[dict[str, object], ...] = (
    {"name": "Failure to feed", "severity": "minor", "clear_actions": 1,
     "stops_burst": True, "danger": "none to the shooter"},
    {"name": "Stovepipe (failure to eject)", "severity": "minor", "clear_actions": 1,
     "stops_burst": True, "danger": "none to the shooter"},
    {"name": "Squib load", "severity": "severe", "clear_actions": None,
     "stops_burst": None,
     "danger": "firing again can wreck the weapon and injure the shooter"},
)

#: Rule of thumb for suppressing fire, in bullets per action (source: Suppressing Fire):
#: one lane of approach (a corridor, a street) needs one bullet; one group advancing
#: across wide, open ground needs a short burst of three to five.
SUPPRESS_PER_LANE = 1
SUPPRESS_PER_OPEN_GROUP = (3, 5)
