"""Table-side helpers: reach (range, altitude, minimum range), movement over terrain, and
tech-level adjustments (source: SUCS, "Unit Features", "Altitude", "Close Combat",
"Terrain Types and Effects", "Tech level")."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction

from rules_core.sucs.cost import Unit
from rules_core.sucs.tables import ALTITUDE_RANGE_INCHES, TERRAIN

GROUND_EFFECT = Fraction(1, 2)
#: a minimum range is this fraction of the range, rounded up (source: Unit Features)
MIN_RANGE_SHARE = Fraction(1, 3)
#: melee needs the two units within this much altitude (source: Actions, melee)
MELEE_ALTITUDE = Fraction(1, 2)
#: a unit leaving close combat moves at this share of its speed (source: Close Combat)
WITHDRAW_SHARE = Fraction(1, 3)
#: light forest and buildings read as "cost +1/3": 3 hexes per 4 inches
COST_THIRD_RATE = Fraction(3, 4)
THIRD_DEARER = ("Light forest", "Buildings")
#: terrain a ground-effect unit crosses as if it were open (source: Altitude)
HOVER_IGNORES = ("Road", "Clear", "Broken", "Hill", "Marsh", "Water", "River")
AMPHIBIOUS_IGNORES = ("River", "Water")


@dataclass(frozen=True)
class Reach:
    """Whether an attack can be made, and why."""

    distance: Fraction          # table distance between the units
    levels: int                 # altitude levels between them, as attack and defence count
    counted: Fraction           # distance plus 12" per level
    minimum: int                # nearest counted distance allowed (0: none)
    in_range: bool
    melee: bool                 # may fight in close combat (base contact, close altitudes)
    cover: int                  # cover the target gets from being higher
    reasons: tuple[str, ...]


def attacking_altitude(alt: Fraction) -> Fraction:
    """Ground effect counts as altitude 1 when attacking (source: Altitude)."""
    return Fraction(1) if alt == GROUND_EFFECT else alt


def defending_altitude(alt: Fraction) -> Fraction:
    """Ground effect counts as altitude 0 when defending (source: Altitude)."""
    return Fraction(0) if alt == GROUND_EFFECT else alt


def reach(range_in: int, min_range: bool, attacker_alt: Fraction, target_alt: Fraction,
          distance: Fraction) -> Reach:
    """Range, altitude and minimum range of one attack (source: Unit Features
    "(range)", Altitude, Close Combat)."""
    a, t = attacking_altitude(attacker_alt), defending_altitude(target_alt)
    levels = int(abs(a - t))
    counted = distance + ALTITUDE_RANGE_INCHES * levels
    minimum = math.ceil(range_in * MIN_RANGE_SHARE) if min_range else 0
    reasons = []
    melee = distance == 0 and abs(attacker_alt - target_alt) <= MELEE_ALTITUDE
    if range_in == 0:
        ok = False
        reasons.append("a range of 0 means close combat only")
    elif counted > range_in:
        ok = False
        reasons.append(f"the counted distance is beyond the {range_in}\" range")
    elif counted < minimum:
        ok = False
        reasons.append(f"the counted distance is inside the {minimum}\" minimum range")
    else:
        ok = True
    return Reach(distance, levels, counted, minimum, ok, melee, max(0, int(t - a)),
                 tuple(reasons))


@dataclass(frozen=True)
class Leg:
    """One stretch of a move: terrain, hexes, inches of speed it costs."""

    terrain: str
    hexes: int
    rate: Fraction | None       # hexes per inch of speed; None: closed to this unit
    inches: Fraction | None
    note: str


TERRAIN_BY_NAME = {t.name.lower(): t for t in TERRAIN}


def leg(terrain: str, hexes: int, kind: str, amphibious: bool, third_as_cost: bool) -> Leg:
    """The cost of crossing ``hexes`` of one terrain (source: Terrain Types and Effects;
    Altitude for ground effect; Unit Costs for amphibious). ``kind``: foot, vehicle or
    hover."""
    t = TERRAIN_BY_NAME[terrain]
    closed = ((t.name == "Heavy forest" and kind in ("vehicle", "hover"))
              or (t.name == "Marsh" and kind == "vehicle")
              or (t.name == "Water" and kind in ("foot", "vehicle") and not amphibious))
    if closed:
        return Leg(t.name, hexes, None, None, "closed to this unit")
    rate, note = t.per_inch or Fraction(1), ""
    if kind == "hover" and t.name in HOVER_IGNORES:
        rate, note = Fraction(1), "ground effect ignores it"
    elif amphibious and t.name in AMPHIBIOUS_IGNORES:
        rate, note = Fraction(1), "amphibious ignores it"
    elif third_as_cost and t.name in THIRD_DEARER:
        rate, note = COST_THIRD_RATE, "cost +1/3: 3 hexes per 4 inches"
    return Leg(t.name, hexes, rate, hexes / rate, note)


@dataclass(frozen=True)
class Move:
    legs: tuple[Leg, ...]
    speed: Fraction             # inches available this move
    total: Fraction | None      # inches the whole route needs (None: blocked)
    hexes_reached: Fraction     # hexes covered in one move along the route
    moves: int | None           # moves needed for the whole route


def move(speed: int, legs: list[Leg], withdraw: bool = False) -> Move:
    """Walk the route with one move's inches (a third of the speed when withdrawing
    from close combat)."""
    budget = Fraction(speed) * (WITHDRAW_SHARE if withdraw else 1)
    left, reached, total = budget, Fraction(0), Fraction(0)
    blocked = False
    for stretch in legs:
        if stretch.inches is None:
            blocked = True
            break
        total += stretch.inches
        if left > 0:
            used = min(left, stretch.inches)
            reached += used * (stretch.rate or 0)  # a closed stretch stopped the loop above
            left -= used
    done = None if blocked else total
    moves = None if blocked or budget == 0 else max(1, math.ceil(total / budget))
    if blocked and budget == 0:
        moves = None
    return Move(tuple(legs), budget, done, reached, moves)


def tech_adjusted(unit: Unit, attack_bonus: int, armor_bonus: int) -> Unit:
    """The more advanced side's unit with the agreed bonus (source: Tech level: +1 to +3
    attack and +1 to +3 armor)."""
    return replace(unit, attack=unit.attack + attack_bonus, armor=unit.armor + armor_bonus)
