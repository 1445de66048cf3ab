"""SUCS tables as data (source: SUCS, Small Unit Combat System, sections "Unit Quality",
"Altitude", "Terrain Types and Effects", "Unit Costs" and "Tech level").

The site renders its reference tables from these values, and the cost formula and the
attack odds read them, so the pages and the code cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

#: Unit quality -> (target number on 2d6, kind of soldier) (source: Unit Quality).
QUALITY: dict[int, tuple[int, str]] = {
    1: (10, "Raw recruits and conscripts"),
    2: (9, "Green: trained but inexperienced, garrison troops"),
    3: (8, "Regulars: trained professional troops"),
    4: (7, "Veterans: paratroopers, rangers, other high-quality troops"),
    5: (6, "Elite: battle-tested special forces"),
}

#: The percentages the source prints beside each target number (source: Unit Quality).
PRINTED_PERCENT: dict[int, str] = {1: "16.7%", 2: "27.7%", 3: "41.7%", 4: "58.3%", 5: "72.2%"}

#: Base cost of a minimal unit by quality (source: Unit Costs).
QUALITY_BASE: dict[int, int] = {1: 2, 2: 4, 3: 8, 4: 12, 5: 16}

QUALITY_NAMES: dict[int, str] = {1: "Raw", 2: "Green", 3: "Regular", 4: "Veteran", 5: "Elite"}

#: the largest situational modifier, up or down, to a unit's 2d6 attack roll that the
#: calculators accept (the source says "with modifiers" but gives no range: chosen here,
#: the width of one die). At +6 a roll of 2 reaches 8, a regular's target number; at -6
#: an elite (target 6) needs a 12 against an unprotected target (see the Rulings page)
MAX_ROLL_MODIFIER = 6


@dataclass(frozen=True)
class Costs:
    """Every price in the cost formula (source: Unit Costs)."""

    per_attack: int = 4           # per point of attack, per unit the weapon can hit
    per_extra_target: int = 4     # automatic fire: per additional unit able to be hit
    per_armor: int = 4
    per_six_inches_range: int = 2
    per_six_inches_speed: int = 2  # above the free 6"
    free_speed: int = 6
    amphibious: int = 1
    stealth: int = 6
    per_transported: int = 2
    per_support_action: int = 2
    per_altitude: int = 4
    ground_effect: int = 2          # altitude 0.5
    disembark_from_altitude: int = 2
    special_weapon: int = 1         # a no-damage either/or weapon such as smoke
    #: multiplier for a term with a restriction on how it may be used
    restricted: Fraction = Fraction(1, 2)
    #: multiplier for every weapon but the dearest
    other_weapons: Fraction = Fraction(1, 2)


COSTS = Costs()

#: Altitude levels (source: Altitude): value -> (name, examples).
ALTITUDES: dict[Fraction, tuple[str, str]] = {
    Fraction(-1): ("Underground or underwater", "sappers, borers, submarines"),
    Fraction(0): ("Ground level", "infantry, tracked and wheeled vehicles"),
    Fraction(1, 2): ("Ground effect", "hovercraft, air-cushion vehicles"),
    Fraction(1): ("Low level", "helicopters, close air support"),
    Fraction(2): ("Mid level", "fighter-bombers, cargo aircraft"),
    Fraction(3): ("High level", "strategic bombers, interceptors"),
    Fraction(4): ("Sub-orbital", "orbital artillery, satellites"),
    Fraction(5): ("Orbital", "spacecraft"),
}

#: Each altitude level between attacker and target adds this much range (inches).
ALTITUDE_RANGE_INCHES = 12
#: Inches of movement spent per altitude level climbed or dived.
ALTITUDE_CHANGE_INCHES = 12


#: Armor a dug-in unit (or one in a fortification) gains (source: Actions, dig in;
#: Terrain Types and Effects, fortification).
DUG_IN_ARMOR = 1
#: Attack or armor a support action gives another unit (source: Actions, support).
SUPPORT_BONUS = 1
#: Added to the target number of a unit beyond its commanders' range, or whose
#: commanders are lost (source: Special rules for commanders).
OUT_OF_COMMAND = 1


@dataclass(frozen=True)
class Terrain:
    """One terrain type (source: Terrain Types and Effects)."""

    name: str
    cover: int | None          # None: the terrain's entry gives no cover figure
    move: str                  # effect on movement, in our words
    per_inch: Fraction | None  # hexes (of movement) per inch of table, None if unchanged
    notes: str = ""


TERRAIN: tuple[Terrain, ...] = (
    Terrain("Road", 0, "halved: 2 hexes per inch", Fraction(2)),
    Terrain("Clear", 0, "a third cheaper: 3 hexes per 2 inches", Fraction(3, 2)),
    Terrain("Field", 0, "normal", None),
    Terrain("Light forest", 1, "a third dearer: 2 hexes per 3 inches", Fraction(2, 3)),
    Terrain("Heavy forest", 2, "doubled: 1 hex per 2 inches", Fraction(1, 2),
            "closed to ground and ground-effect vehicles"),
    Terrain("Broken", 1, "doubled: 1 hex per 2 inches", Fraction(1, 2)),
    Terrain("Hill", 1, "normal", None,
            "altitude 1: the +1 cover applies against attacks from lower down"),
    Terrain("Fortification", None, "doubled: 1 hex per 2 inches", Fraction(1, 2),
            f"units inside count as dug in (+{DUG_IN_ARMOR} armor)"),
    Terrain("Buildings", 1, "a third dearer: 2 hexes per 3 inches", Fraction(2, 3)),
    Terrain("Urban", 2, "doubled: 1 hex per 2 inches", Fraction(1, 2)),
    Terrain("Marsh", 1, "normal", None, "closed to ground vehicles"),
    Terrain("Water", None, "normal", None, "closed to ground units"),
    Terrain("River", None, "tripled: 1 hex per 3 inches", Fraction(1, 3)),
)

#: The seven actions (source: Order of Play, Actions): name -> (can be taken twice, anchor).
ACTIONS: dict[str, tuple[bool, str]] = {
    "Move": (True, "move"),
    "Attack": (False, "attack"),
    "Reorganize": (True, "reorganize"),
    "Dig in": (False, "dig-in"),
    "Support": (True, "support"),
    "Guard": (False, "guard"),
    "Melee": (False, "melee"),
}

#: Tech-level eras (source: Tech level): list id -> (era, example equipment).
ERAS: dict[str, tuple[str, str]] = {
    "tl0-2": ("Primitive", "bows, spears, leather and plate armour, cavalry, knights, catapults"),
    "tl3-4": ("Gunpowder and the age of sail",
              "cannon, muskets, revolvers; Trafalgar, the Napoleonic Wars, the Civil War"),
    "tl5-7": ("Modern war", "tanks, aircraft, machine guns, missiles and simple drones"),
    "tl8-11": ("Early stellar",
               "grav vehicles, lasers, crystaliron armour, robot and drone warriors"),
    "tl12-15": ("Stellar",
                "superdense armour, battledress, PGMPs, gauss guns, plasma and meson guns"),
}


#: Taken off the roll of a suppressed unit that attacks or strikes back in close combat
#: (source: Close Combat).
MELEE_PENALTY = 1
#: Attack rolls a unit survives that might possibly have damaged it, for one suppression
#: marker (source: Suppressed Units: every second such roll).
ROLLS_TO_SUPPRESS = 2
#: A success by this much or more over the number needed adds 1 damage (source: the attack
#: paragraph).
SUCCESS_BY = 3
#: Damage a success by :data:`SUCCESS_BY` or more adds (source: the attack paragraph).
SUCCESS_DAMAGE = 1
#: Damage equal to the armor: this d6 face or higher destroys, lower suppresses (source:
#: the attack paragraph).
EQUAL_ARMOR_DESTROYS = 4


def target_number(quality: int) -> int:
    """The 2d6 target number of a unit of this quality (source: Unit Quality)."""
    return QUALITY[quality][0]
